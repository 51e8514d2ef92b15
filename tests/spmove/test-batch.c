/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for spmove's queue of replaced files (src/spmove/batch.c):
 * the temporaries wait for one barrier and are then renamed in order; a
 * queue that cannot grow (out of memory) commits the file at once, counted
 * and cancelled like any other; files that need no barrier get none.
 * malloc is wrapped (-Wl,--wrap=malloc) so that the one allocation of
 * batch_add() can be made to fail, syncfs and fdatasync so that the
 * flushes are counted. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spmove.h"
#include "harness.h"

/* spmove's, set by its signal handlers (signal.c, not linked here). */
volatile sig_atomic_t spmove_cancel;

/* The next malloc() called from this program's own objects fails. */
static bool fail_next_malloc;
void *__real_malloc(size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_malloc(size_t n)
{
	if (fail_next_malloc) {
		fail_next_malloc = false;
		errno = ENOMEM;
		return NULL;
	}
	return __real_malloc(n);
}

/* The flushes made: syncfs(2) and fdatasync(2) calls. */
static unsigned flushes;
int __real_syncfs(int fd);
int __wrap_syncfs(int fd);
int __wrap_syncfs(int fd)
{
	flushes++;
	return __real_syncfs(fd);
}
int __real_fdatasync(int fd);
int __wrap_fdatasync(int fd);
int __wrap_fdatasync(int fd)
{
	flushes++;
	return __real_fdatasync(fd);
}

/* A scratch directory for one test, open as dir. */
static char scratch[64];
static int dir = -1;
static dev_t dev;

static void scratch_make(void)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(scratch, sizeof(scratch), "%s/batch.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(scratch));
	dir = open(scratch, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(dir, 0);
	struct stat st;
	ck_assert_int_eq(fstat(dir, &st), 0);
	dev = st.st_dev;
	spmove_cancel = 0;
	flushes = 0;
}

static void put(const char *name, const char *text)
{
	int fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	ck_assert_int_eq(close(fd), 0);
}

/* The text of name ("" when it is not there). */
static const char *text_of(const char *name)
{
	static char buf[64];
	int fd = openat(dir, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return "";
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static bool exists(const char *name)
{
	struct stat st;
	return fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* An old file name and the temporary that is to replace it. */
static void old_and_new(const char *name, const char *temp)
{
	put(name, "old");
	put(temp, "new");
}

static void scratch_remove(const char *const *names)
{
	for (; *names; names++)
		unlinkat(dir, *names, 0);
	close(dir);
	ck_assert_int_eq(rmdir(scratch), 0); /* no temporary left */
}

/* A new scratch directory with f1 and f2 and their temporaries, and a
 * queue holding the first. */
static struct batch *two_files_one_queued(void)
{
	scratch_make();
	old_and_new("f1", ".spmove-1");
	old_and_new("f2", ".spmove-2");
	struct batch *b = batch_new();
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(batch_add(b, dir, dev, ".spmove-1", "f1", "t/f1", 3, true), 0);
	return b;
}

/* f1 and f2 hold their new data, no temporary is left, and b counts
 * both files; returns the barriers b counts. */
static uint64_t both_replaced(const struct batch *b)
{
	ck_assert_str_eq(text_of("f1"), "new");
	ck_assert_str_eq(text_of("f2"), "new");
	ck_assert(!exists(".spmove-1") && !exists(".spmove-2"));
	uint64_t barriers, files;
	batch_counts(b, &barriers, &files);
	ck_assert_uint_eq(files, 2);
	return barriers;
}

START_TEST(queued_files_wait_for_the_commit)
{
	struct batch *b = two_files_one_queued();
	ck_assert_int_eq(batch_add(b, dir, dev, ".spmove-2", "f2", "t/f2", 3, true), 0);
	/* Queued: nothing renamed yet. */
	ck_assert_str_eq(text_of("f1"), "old");
	ck_assert(exists(".spmove-2"));
	ck_assert_int_eq(batch_commit(b), 0);
	uint64_t barriers = both_replaced(b);
	ck_assert_uint_le(barriers, 1); /* 0: one fdatasync(2) each instead */
	ck_assert_uint_ge(flushes, 1);
	batch_free(b);
	scratch_remove((const char *const[]){ "f1", "f2", NULL });
}
END_TEST

/* Temporaries that need no flush (clones on XFS) are renamed in order
 * with no barrier; one that needs it among them gets one. */
START_TEST(files_without_barrier_are_not_flushed)
{
	scratch_make();
	old_and_new("f1", ".spmove-1");
	old_and_new("f2", ".spmove-2");
	struct batch *b = batch_new();
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(batch_add(b, dir, dev, ".spmove-1", "f1", "t/f1", 3, false), 0);
	ck_assert_int_eq(batch_add(b, dir, dev, ".spmove-2", "f2", "t/f2", 3, false), 0);
	ck_assert_str_eq(text_of("f1"), "old");
	ck_assert_int_eq(batch_commit(b), 0);
	uint64_t barriers = both_replaced(b);
	ck_assert_uint_eq(barriers, 0);
	ck_assert_uint_eq(flushes, 0);
	batch_free(b);

	old_and_new("f3", ".spmove-3");
	old_and_new("f4", ".spmove-4");
	b = batch_new();
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(batch_add(b, dir, dev, ".spmove-3", "f3", "t/f3", 3, false), 0);
	ck_assert_int_eq(batch_add(b, dir, dev, ".spmove-4", "f4", "t/f4", 3, true), 0);
	ck_assert_int_eq(batch_commit(b), 0);
	ck_assert_str_eq(text_of("f3"), "new");
	ck_assert_str_eq(text_of("f4"), "new");
	ck_assert_uint_eq(flushes, 1); /* a syncfs, or f4's fdatasync */
	batch_free(b);
	scratch_remove((const char *const[]){ "f1", "f2", "f3", "f4", NULL });
}
END_TEST

/* Out of memory: what was queued and the new file are committed at
 * once, in that order, and both are counted. */
START_TEST(out_of_memory_commits_at_once)
{
	struct batch *b = two_files_one_queued();
	fail_next_malloc = true;
	ck_assert_int_eq(batch_add(b, dir, dev, ".spmove-2", "f2", "t/f2", 3, true), 0);
	ck_assert(!fail_next_malloc);
	both_replaced(b);
	ck_assert_int_eq(batch_commit(b), 0);
	batch_free(b);
	scratch_remove((const char *const[]){ "f1", "f2", NULL });
}
END_TEST

/* Out of memory after a signal: the old file stays and the temporary
 * goes, as in any commit of a cancelled run. */
START_TEST(out_of_memory_when_cancelled_keeps_the_old_file)
{
	scratch_make();
	old_and_new("f1", ".spmove-1");
	struct batch *b = batch_new();
	ck_assert_ptr_nonnull(b);
	spmove_cancel = SIGINT;
	fail_next_malloc = true;
	ck_assert_int_ne(batch_add(b, dir, dev, ".spmove-1", "f1", "t/f1", 3, true), 0);
	ck_assert(!fail_next_malloc);
	ck_assert_str_eq(text_of("f1"), "old");
	ck_assert(!exists(".spmove-1"));
	uint64_t barriers, files;
	batch_counts(b, &barriers, &files);
	ck_assert_uint_eq(files, 0);
	batch_free(b);
	scratch_remove((const char *const[]){ "f1", NULL });
}
END_TEST

static Suite *batch_suite(void)
{
	Suite *s = suite_create("spmove-batch");
	TCase *tc = tcase_create("batch");
	tcase_add_test(tc, queued_files_wait_for_the_commit);
	tcase_add_test(tc, files_without_barrier_are_not_flushed);
	tcase_add_test(tc, out_of_memory_commits_at_once);
	tcase_add_test(tc, out_of_memory_when_cancelled_keeps_the_old_file);
	suite_add_tcase(s, tc);
	return s;
}

Suite *(*const harness_suites[])(void) = { batch_suite, NULL };
