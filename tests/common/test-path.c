/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the path helpers of src/common (path.h). */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "harness.h"

/* Split path and check both parts. */
static void check_split(const char *path, const char *dir, const char *base)
{
	char buf[64];
	const char *d = NULL, *b = NULL;
	ck_assert_int_eq(path_split(path, buf, sizeof(buf), &d, &b), 0);
	ck_assert_str_eq(d, dir);
	ck_assert_str_eq(b, base);
}

START_TEST(split_dir_and_name)
{
	check_split("a/b", "a", "b");
	check_split("/usr/lib/x", "/usr/lib", "x");
}
END_TEST

START_TEST(split_ignores_trailing_slashes)
{
	check_split("a/b/", "a", "b");
	check_split("a/b//", "a", "b");
	check_split("a//b", "a", "b");
}
END_TEST

START_TEST(split_name_alone_is_in_dot)
{
	check_split("b", ".", "b");
	check_split("b/", ".", "b");
}
END_TEST

START_TEST(split_root)
{
	check_split("/", "/", "/");
	check_split("//", "/", "/");
	check_split("/b", "/", "b");
	check_split("//b/", "/", "b");
}
END_TEST

START_TEST(split_base_without_dir)
{
	char buf[8];
	const char *b = NULL;
	ck_assert_int_eq(path_split("x/yz/", buf, sizeof(buf), NULL, &b), 0);
	ck_assert_str_eq(b, "yz");
}
END_TEST

START_TEST(split_refuses_what_does_not_fit)
{
	char buf[4];
	const char *d = "untouched", *b = "untouched";
	ck_assert_int_eq(path_split("abcd", buf, sizeof(buf), &d, &b), -ENAMETOOLONG);
	ck_assert_str_eq(d, "untouched");
	ck_assert_str_eq(b, "untouched");
}
END_TEST

START_TEST(join_puts_a_slash_between)
{
	char buf[16];
	ck_assert_int_eq(path_join(buf, sizeof(buf), "dir", "name"), 0);
	ck_assert_str_eq(buf, "dir/name");
}
END_TEST

START_TEST(join_keeps_one_slash)
{
	char buf[16];
	ck_assert_int_eq(path_join(buf, sizeof(buf), "dir/", "name"), 0);
	ck_assert_str_eq(buf, "dir/name");
	ck_assert_int_eq(path_join(buf, sizeof(buf), "/", "etc"), 0);
	ck_assert_str_eq(buf, "/etc");
}
END_TEST

START_TEST(join_refuses_what_does_not_fit)
{
	char buf[8];
	ck_assert_int_eq(path_join(buf, sizeof(buf), "dir", "name"), -ENAMETOOLONG);
	/* What fits is left, for the message. */
	ck_assert_str_eq(buf, "dir/nam");
	ck_assert_int_eq(path_join(buf, sizeof(buf), "dir/", "name"), -ENAMETOOLONG);
	ck_assert_int_eq(path_join(buf, sizeof(buf), "dir", "abc"), 0);
	ck_assert_str_eq(buf, "dir/abc");
	ck_assert_int_eq(path_join(buf, sizeof(buf), "dir/", "abc"), 0);
	ck_assert_str_eq(buf, "dir/abc");
}
END_TEST

static Suite *path_suite(void)
{
	Suite *s = suite_create("common-path");
	TCase *tc = tcase_create("path");
	tcase_add_test(tc, split_dir_and_name);
	tcase_add_test(tc, split_ignores_trailing_slashes);
	tcase_add_test(tc, join_keeps_one_slash);
	tcase_add_test(tc, split_name_alone_is_in_dot);
	tcase_add_test(tc, split_root);
	tcase_add_test(tc, split_base_without_dir);
	tcase_add_test(tc, split_refuses_what_does_not_fit);
	tcase_add_test(tc, join_puts_a_slash_between);
	tcase_add_test(tc, join_refuses_what_does_not_fit);
	suite_add_tcase(s, tc);
	return s;
}

Suite *(*const harness_suites[])(void) = { path_suite, NULL };
