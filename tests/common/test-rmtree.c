/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for rm_tree_at() of src/common (rmtree.h). */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rmtree.h"
#include "harness.h"

/* A scratch directory for one test, open as scratch_fd. */
static char scratch[64];
static int scratch_fd = -1;

static void scratch_make(void)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(scratch, sizeof(scratch), "%s/rmtree.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(scratch));
	scratch_fd = open(scratch, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(scratch_fd, 0);
}

static void scratch_remove(void)
{
	close(scratch_fd);
	ck_assert_int_eq(rmdir(scratch), 0); /* the test left it empty */
}

/* Create an empty file name in dirfd. */
static void touch(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	ck_assert_int_ge(fd, 0);
	close(fd);
}

/* Make the directory name in dirfd and return it open. */
static int make_dir(int dirfd, const char *name)
{
	ck_assert_int_eq(mkdirat(dirfd, name, 0700), 0);
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	return fd;
}

static bool exists(int dirfd, const char *name)
{
	struct stat st;
	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

START_TEST(removes_a_file)
{
	scratch_make();
	touch(scratch_fd, "f");
	ck_assert_int_eq(rm_tree_at(scratch_fd, "f"), 0);
	ck_assert(!exists(scratch_fd, "f"));
	scratch_remove();
}
END_TEST

START_TEST(removes_a_tree)
{
	scratch_make();
	int top = make_dir(scratch_fd, "top");
	touch(top, "f");
	int a = make_dir(top, "a");
	touch(a, "g");
	close(make_dir(a, "empty"));
	ck_assert_int_eq(symlinkat("nowhere", a, "dangling"), 0);
	close(a);
	close(make_dir(top, "b"));
	close(top);
	ck_assert_int_eq(rm_tree_at(scratch_fd, "top"), 0);
	ck_assert(!exists(scratch_fd, "top"));
	scratch_remove();
}
END_TEST

START_TEST(never_follows_symlinks)
{
	scratch_make();
	int keep = make_dir(scratch_fd, "keep");
	touch(keep, "precious");
	close(keep);
	int top = make_dir(scratch_fd, "top");
	char target[128];
	snprintf(target, sizeof(target), "%s/keep", scratch);
	ck_assert_int_eq(symlinkat(target, top, "link"), 0);
	close(top);
	ck_assert_int_eq(symlinkat(target, scratch_fd, "toplink"), 0);
	ck_assert_int_eq(rm_tree_at(scratch_fd, "top"), 0);
	ck_assert_int_eq(rm_tree_at(scratch_fd, "toplink"), 0);
	ck_assert(!exists(scratch_fd, "top"));
	ck_assert(!exists(scratch_fd, "toplink"));
	ck_assert(exists(scratch_fd, "keep/precious"));
	ck_assert_int_eq(unlinkat(scratch_fd, "keep/precious", 0), 0);
	ck_assert_int_eq(unlinkat(scratch_fd, "keep", AT_REMOVEDIR), 0);
	scratch_remove();
}
END_TEST

START_TEST(reports_a_missing_name)
{
	scratch_make();
	ck_assert_int_eq(rm_tree_at(scratch_fd, "nothing"), -ENOENT);
	scratch_remove();
}
END_TEST

/* The descriptor limit that leaves exactly wanted descriptors free. */
static rlim_t limit_with_free(int wanted)
{
	int fd = 0;
	for (int free_seen = 0;; fd++)
		if (fcntl(fd, F_GETFD) < 0 && ++free_seen == wanted)
			break;
	return (rlim_t)fd + 1;
}

/* rm_tree_at_checked()'s check: the inode of the one subdirectory it
 * refuses (0: none) and the top it expects. */
static ino_t refused_ino;
static ino_t top_ino;

static bool check_dir(const struct stat *st, bool top, void *arg)
{
	(void)arg;
	return top ? st->st_ino == top_ino : st->st_ino != refused_ino;
}

START_TEST(leaves_a_directory_the_check_refuses)
{
	scratch_make();
	struct stat st;
	int top = make_dir(scratch_fd, "top");
	touch(top, "f");
	int keep = make_dir(top, "keep");
	touch(keep, "k");
	ck_assert_int_eq(fstat(keep, &st), 0);
	refused_ino = st.st_ino;
	ck_assert_int_eq(fstat(top, &st), 0);
	top_ino = st.st_ino + 1; /* first: the top is not the one expected */
	ck_assert_int_eq(rm_tree_at_checked(scratch_fd, "top", NULL, check_dir, NULL), -ESTALE);
	ck_assert(exists(top, "f") && exists(keep, "k"));
	top_ino = st.st_ino;
	ck_assert_int_eq(rm_tree_at_checked(scratch_fd, "top", NULL, check_dir, NULL), -ESTALE);
	ck_assert(exists(keep, "k")); /* the refused directory is whole */
	refused_ino = 0;
	ck_assert_int_eq(rm_tree_at_checked(scratch_fd, "top", NULL, check_dir, NULL), 0);
	ck_assert(!exists(scratch_fd, "top"));
	close(keep);
	close(top);
	scratch_remove();
}
END_TEST

/* Remove a chain of 200 directories, each with a file, some with a side
 * directory to come back to once the deeper ones are gone, with only
 * free descriptors free. */
static void remove_deep_tree(int free)
{
	enum { DEPTH = 200 };
	scratch_make();
	int fd = dup(scratch_fd);
	for (int i = 0; i < DEPTH; i++) {
		int next = make_dir(fd, "d");
		touch(next, "f");
		if (i % 7 == 0) {
			int side = make_dir(next, "side");
			touch(side, "g");
			close(side);
		}
		close(fd);
		fd = next;
	}
	close(fd);
	struct rlimit old, low;
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &old), 0);
	low = old;
	low.rlim_cur = limit_with_free(free);
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &low), 0);
	int err = rm_tree_at(scratch_fd, "d");
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &old), 0);
	ck_assert_int_eq(err, 0);
	ck_assert(!exists(scratch_fd, "d"));
	scratch_remove();
}

START_TEST(deep_trees_take_few_descriptors)
{
	remove_deep_tree(5); /* far fewer than the depth */
}
END_TEST

/* As rm: the directory emptied and the one it opens (a move across file
 * systems under ulimit -n 6 has no more to spare). */
START_TEST(deep_trees_take_two_descriptors)
{
	remove_deep_tree(2);
}
END_TEST

static Suite *rmtree_suite(void)
{
	Suite *s = suite_create("common-rmtree");
	TCase *tc = tcase_create("rmtree");
	tcase_add_test(tc, removes_a_file);
	tcase_add_test(tc, removes_a_tree);
	tcase_add_test(tc, never_follows_symlinks);
	tcase_add_test(tc, reports_a_missing_name);
	tcase_add_test(tc, deep_trees_take_few_descriptors);
	tcase_add_test(tc, deep_trees_take_two_descriptors);
	tcase_add_test(tc, leaves_a_directory_the_check_refuses);
	suite_add_tcase(s, tc);
	return s;
}

Suite *(*const harness_suites[])(void) = { rmtree_suite, NULL };
