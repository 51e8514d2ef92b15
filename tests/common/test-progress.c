/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the last state --progress draws (progress.h): it counts
 * only the files that completed and their bytes, never a file that failed
 * or was interrupted (issue 30). */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "message.h"
#include "progress.h"
#include "harness.h"

/* Run a copy of three files of 1000, 2000 and 4000 bytes whose second
 * failed after 1500 bytes (fail: else it completes), with progress in
 * style; return what was drawn on stderr after the copy (the last state),
 * which the caller frees. */
static char *last_state(enum cli_progress_style style, bool fail)
{
	char path[] = "/tmp/test-progress.XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	unlink(path);
	int saved = dup(STDERR_FILENO);
	ck_assert_int_eq(dup2(fd, STDERR_FILENO), STDERR_FILENO);
	struct cli_progress *p;
	ck_assert_int_eq(cli_progress_start(&p, style, 7000), 0);
	cli_progress_set(p, 1000);
	cli_progress_file_done(p);
	cli_progress_set(p, fail ? 2500 : 3000);
	if (fail)
		cli_progress_file_failed(p, 1500);
	else
		cli_progress_file_done(p);
	cli_progress_set(p, fail ? 6500 : 7000);
	cli_progress_file_done(p);
	off_t before = lseek(fd, 0, SEEK_END);
	cli_progress_finish(p);
	dup2(saved, STDERR_FILENO);
	close(saved);
	off_t after = lseek(fd, 0, SEEK_END);
	char *text = calloc(1, (size_t)(after - before) + 1);
	ck_assert_ptr_nonnull(text);
	ck_assert_int_eq(pread(fd, text, (size_t)(after - before), before), after - before);
	close(fd);
	return text;
}

START_TEST(numeric_counts_what_completed)
{
	char *all = last_state(CLI_PROGRESS_NUMERIC, false);
	ck_assert_str_eq(all, "100\n");
	free(all);
	char *failed = last_state(CLI_PROGRESS_NUMERIC, true);
	ck_assert_str_eq(failed, "71\n"); /* 5000 of 7000 */
	free(failed);
}
END_TEST

START_TEST(summary_counts_what_completed)
{
	char *all = last_state(CLI_PROGRESS_BAR, false);
	ck_assert_ptr_nonnull(strstr(all, "test-progress: 6.8 KiB in "));
	ck_assert_ptr_nonnull(strstr(all, ", 3 files\033[K\n"));
	free(all);
	char *failed = last_state(CLI_PROGRESS_BAR, true);
	ck_assert_ptr_nonnull(strstr(failed, "test-progress: 4.9 KiB in "));
	ck_assert_ptr_nonnull(strstr(failed, ", 2 files\033[K\n"));
	free(failed);
}
END_TEST

static Suite *progress_suite(void)
{
	cli_program = "test-progress";
	Suite *s = suite_create("common-progress");
	TCase *tc = tcase_create("progress");
	tcase_add_test(tc, numeric_counts_what_completed);
	tcase_add_test(tc, summary_counts_what_completed);
	suite_add_tcase(s, tc);
	return s;
}

Suite *(*const harness_suites[])(void) = { progress_suite, NULL };
