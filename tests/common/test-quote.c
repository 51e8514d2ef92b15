/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the quoting of names in messages (quote.h), against what
 * coreutils 9.11's ls --quoting-style=shell-escape[-always] prints. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "quote.h"
#include "harness.h"

/* Both styles of name, in the locale called locale. */
static void check_quote(const char *locale, const char *name, const char *when_needed,
			const char *always)
{
	ck_assert_ptr_nonnull(setlocale(LC_CTYPE, locale));
	ck_assert_str_eq(cli_quote(name), when_needed);
	ck_assert_str_eq(cli_quote_always(name), always);
}

START_TEST(plain_names_stay_bare)
{
	check_quote("C", "a-b_c.d/e:f", "a-b_c.d/e:f", "'a-b_c.d/e:f'");
	check_quote("C", "x@y", "x@y", "'x@y'");
	check_quote("C", "a#b", "a#b", "'a#b'");
}
END_TEST

START_TEST(shell_specials_are_quoted)
{
	check_quote("C", "sp ace", "'sp ace'", "'sp ace'");
	check_quote("C", "#a", "'#a'", "'#a'");
	check_quote("C", "{", "'{'", "'{'");
	check_quote("C", "{a}", "{a}", "'{a}'");
	check_quote("C", "", "''", "''");
	check_quote("C", "a\\b", "'a\\b'", "'a\\b'");
}
END_TEST

START_TEST(control_bytes_are_escaped)
{
	check_quote("C", "a\nb", "'a'$'\\n''b'", "'a'$'\\n''b'");
	check_quote("C", "\033[31mx", "''$'\\033''[31mx'", "''$'\\033''[31mx'");
	check_quote("C", "a\tb\001", "'a'$'\\t''b'$'\\001'", "'a'$'\\t''b'$'\\001'");
	check_quote("C", "\n\r", "''$'\\n\\r'", "''$'\\n\\r'");
	check_quote("C", "\177", "''$'\\177'", "''$'\\177'");
}
END_TEST

START_TEST(single_quotes_are_escaped)
{
	check_quote("C", "a'b", "\"a'b\"", "\"a'b\"");
	check_quote("C", "it's $x", "'it'\\''s $x'", "'it'\\''s $x'");
	check_quote("C", "a'b\"c", "'a'\\''b\"c'", "'a'\\''b\"c'");
	check_quote("C", "x'\n", "'x'\\'''$'\\n'", "'x'\\'''$'\\n'");
}
END_TEST

START_TEST(invalid_utf8_is_escaped_byte_by_byte)
{
	check_quote("C.UTF-8", "bad\377name", "'bad'$'\\377''name'", "'bad'$'\\377''name'");
	check_quote("C.UTF-8", "a\342\202", "'a'$'\\342\\202'", "'a'$'\\342\\202'");
	check_quote("C.UTF-8", "\302\205x", "''$'\\302\\205''x'", "''$'\\302\\205''x'");
}
END_TEST

START_TEST(utf8_letters_follow_the_locale)
{
	check_quote("C.UTF-8", "caf\303\251", "caf\303\251", "'caf\303\251'");
	check_quote("C", "caf\303\251", "'caf'$'\\303\\251'", "'caf'$'\\303\\251'");
}
END_TEST

START_TEST(errno_is_kept)
{
	ck_assert_ptr_nonnull(setlocale(LC_CTYPE, "C.UTF-8"));
	errno = ENOENT;
	cli_quote_always("bad\377\n");
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

static Suite *quote_suite(void)
{
	Suite *s = suite_create("common-quote");
	TCase *tc = tcase_create("quote");
	tcase_add_test(tc, plain_names_stay_bare);
	tcase_add_test(tc, shell_specials_are_quoted);
	tcase_add_test(tc, control_bytes_are_escaped);
	tcase_add_test(tc, single_quotes_are_escaped);
	tcase_add_test(tc, invalid_utf8_is_escaped_byte_by_byte);
	tcase_add_test(tc, utf8_letters_follow_the_locale);
	tcase_add_test(tc, errno_is_kept);
	suite_add_tcase(s, tc);
	return s;
}

Suite *(*const harness_suites[])(void) = { quote_suite, NULL };
