/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for libsplice's added data paths: vmsplice, gift,
 * copy_file_range, sendfile, the auto policy, path names, sp_compare. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libsplice.h"
#include "copy-calls.h"
#include "ways.h"
#include "harness.h"

#define SIZE ((3u << 20) + 4321)

/* Every path on its own (splice and read/write strictly, the added paths
 * preferred), and the library's choice. */
static const struct way all_ways[] = {
	{ SP_POLICY_ONLY, SP_PATH_SPLICE },
	{ SP_POLICY_ONLY, SP_PATH_RW },
	{ SP_POLICY_PREFER, SP_PATH_VMSPLICE },
	{ SP_POLICY_PREFER, SP_PATH_GIFT },
	{ SP_POLICY_PREFER, SP_PATH_COPY_FILE_RANGE },
	{ SP_POLICY_PREFER, SP_PATH_SENDFILE },
	{ SP_POLICY_AUTO, SP_PATH_NONE },
};
#define N_METHODS (sizeof(all_ways) / sizeof(all_ways[0]))

/* Every path, for the names. */
static const enum sp_path all_paths[] = {
	SP_PATH_SPLICE, SP_PATH_RW, SP_PATH_VMSPLICE, SP_PATH_GIFT,
	SP_PATH_COPY_FILE_RANGE, SP_PATH_SENDFILE,
};
#define N_PATHS (sizeof(all_paths) / sizeof(all_paths[0]))

static struct sp_mover *mover(struct way way, unsigned flags)
{
	struct sp_options o = { .size = sizeof(struct sp_options), .policy = way.policy, .path = way.path, .splice_flags = flags };
	struct sp_mover *m;
	ck_assert_int_eq(sp_mover_new(&m, &o), 0);
	return m;
}

START_TEST(each_method_copies_a_file)
{
	struct sp_result res = RESULT_INIT;
	struct way way = all_ways[_i];
	int in = pattern_file(SIZE, 1), out = temp_file(0);
	struct sp_mover *m = mover(way, 0);
	ck_assert_int_eq(copy_range(m, in, out, 0, SP_LENGTH_EOF, &res), SIZE);
	ck_assert_int_eq(sp_compare(in, 0, out, 0, SIZE), 0);
	ck_assert_int_eq(lseek(out, 0, SEEK_END), SIZE);
	enum sp_path used = res.path;
	ck_assert_int_eq(used, way.policy == SP_POLICY_AUTO ? SP_PATH_COPY_FILE_RANGE : way.path);
	ck_assert_uint_eq(stats_of(m).fallbacks, 0);
	ck_assert_uint_eq(stats_of(m).bytes, SIZE);
	sp_mover_free(m);
	close(in);
	close(out);
}
END_TEST

/* A positional part: the file position stays where it is. */
START_TEST(each_method_honours_an_offset)
{
	struct way way = all_ways[_i];
	int in = pattern_file(SIZE, 2), out = temp_file(0);
	struct sp_mover *m = mover(way, 0);
	ck_assert_int_eq(copy_range(m, in, out, 5000, 70000, NULL), 70000);
	ck_assert_int_eq(lseek(in, 0, SEEK_CUR), 0);
	ck_assert_int_eq(sp_compare(in, 5000, out, 0, 70000), 0);
	sp_mover_free(m);
	close(in);
	close(out);
}
END_TEST

/* From the file position, which then moves past what was copied. */
START_TEST(each_method_honours_the_file_position)
{
	struct way way = all_ways[_i];
	int in = pattern_file(SIZE, 2), out = temp_file(0);
	struct sp_mover *m = mover(way, 0);
	ck_assert_int_eq(lseek(in, 12345, SEEK_SET), 12345);
	ck_assert_int_eq(copy_range(m, in, out, SP_OFFSET_CURRENT, 100000, NULL), 100000);
	ck_assert_int_eq(lseek(in, 0, SEEK_CUR), 112345);
	ck_assert_int_eq(sp_compare(in, 12345, out, 0, 100000), 0);
	sp_mover_free(m);
	close(in);
	close(out);
}
END_TEST

START_TEST(each_method_moves_nothing_past_the_end)
{
	struct way way = all_ways[_i];
	int in = pattern_file(SIZE, 2), out = temp_file(0);
	struct sp_mover *m = mover(way, 0);
	ck_assert_int_eq(copy_range(m, in, out, SIZE, SP_LENGTH_EOF, NULL), 0);
	sp_mover_free(m);
	close(in);
	close(out);
}
END_TEST

START_TEST(pipe_input_takes_the_splice_path)
{
	struct sp_result res = RESULT_INIT;
	struct way way = all_ways[_i];
	int p[2], out = temp_file(0);
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(write(p[1], "hello, pipe", 11), 11);
	close(p[1]);
	struct sp_mover *m = mover(way, 0);
	ck_assert_int_eq(copy_range(m, p[0], out, SP_OFFSET_CURRENT, SP_LENGTH_EOF, &res), 11);
	ck_assert_int_eq(res.path, way.path == SP_PATH_RW ? SP_PATH_RW : SP_PATH_SPLICE);
	bool asked_for_file_path = way.policy != SP_POLICY_AUTO && way.path > SP_PATH_RW;
	ck_assert_uint_eq(stats_of(m).fallbacks, asked_for_file_path ? 1 : 0);
	char buf[16];
	ck_assert_int_eq(pread(out, buf, sizeof(buf), 0), 11);
	ck_assert(!memcmp(buf, "hello, pipe", 11));
	sp_mover_free(m);
	close(p[0]);
	close(out);
}
END_TEST

START_TEST(append_output_is_appended_to)
{
	struct way way = all_ways[_i];
	int in = pattern_file(100000, 3), out = pattern_file(10, 4);
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", out);
	int app = open(path, O_WRONLY | O_APPEND);
	ck_assert_int_ge(app, 0);
	struct sp_mover *m = mover(way, 0);
	if (way.policy == SP_POLICY_ONLY && way.path == SP_PATH_SPLICE) {
		/* splice only: the kernel's refusal is the answer. */
		ck_assert_int_eq(copy_range(m, in, app, 0, SP_LENGTH_EOF, NULL), -EINVAL);
	} else {
		ck_assert_int_eq(copy_range(m, in, app, 0, SP_LENGTH_EOF, NULL), 100000);
		ck_assert_int_eq(lseek(out, 0, SEEK_END), 100010);
		ck_assert_int_eq(sp_compare(in, 0, out, 10, 100000), 0);
	}
	sp_mover_free(m);
	close(app);
	close(in);
	close(out);
}
END_TEST

START_TEST(best_splices_when_asked_to_move)
{
	struct sp_result res = RESULT_INIT;
	int in = pattern_file(SIZE, 5), out = temp_file(0);
	struct sp_mover *m = mover(WAY_AUTO, SPLICE_F_MOVE);
	ck_assert_int_eq(copy_range(m, in, out, 0, SP_LENGTH_EOF, &res), SIZE);
	ck_assert_int_eq(res.path, SP_PATH_SPLICE);
	ck_assert_int_eq(sp_compare(in, 0, out, 0, SIZE), 0);
	sp_mover_free(m);
	close(in);
	close(out);
}
END_TEST

START_TEST(gift_counts_bytes_as_copied)
{
	int in = pattern_file(SIZE, 6), out = temp_file(0);
	struct sp_mover *m = mover(WAY_PREFER(SP_PATH_GIFT), 0);
	ck_assert_int_eq(copy_range(m, in, out, 0, SP_LENGTH_EOF, NULL), SIZE);
	const struct sp_stats st_now = stats_of(m), *st = &st_now;
	ck_assert_uint_eq(st->bytes_copied, SIZE);
	ck_assert_uint_eq(st->bytes_spliced, 0);
	ck_assert_uint_gt(st->vmsplice_calls, 0);
	sp_mover_free(m);
	close(in);
	close(out);
}
END_TEST

static int stop_now(const struct sp_stats *stats, void *arg)
{
	return 1;
}

START_TEST(progress_callback_stops_every_method)
{
	struct sp_result res = RESULT_INIT;
	struct way way = all_ways[_i];
	int in = pattern_file(SIZE, 7), out = temp_file(0);
	struct sp_options o = { .size = sizeof(struct sp_options), .policy = way.policy, .path = way.path, .progress = stop_now };
	struct sp_mover *m;
	ck_assert_int_eq(sp_mover_new(&m, &o), 0);
	ck_assert_int_eq(copy_range(m, in, out, 0, SP_LENGTH_EOF, &res), -ECANCELED);
	ck_assert_int_eq(res.side, SP_SIDE_NONE);
	sp_mover_free(m);
	close(in);
	close(out);
}
END_TEST

START_TEST(bad_output_is_an_output_error)
{
	struct sp_result res = RESULT_INIT;
	struct way way = all_ways[_i];
	int in = pattern_file(SIZE, 8), out = open("/dev/full", O_WRONLY);
	ck_assert_int_ge(out, 0);
	struct sp_mover *m = mover(way, 0);
	/* /dev/full takes no splice: splice only says so, the others write. */
	int want = way.policy == SP_POLICY_ONLY && way.path == SP_PATH_SPLICE ? -EINVAL : -ENOSPC;
	ck_assert_int_eq(copy_range(m, in, out, 0, SP_LENGTH_EOF, &res), want);
	ck_assert_int_eq(res.side, SP_SIDE_OUTPUT);
	/* Nothing moved, yet a path was taken and failed: result says which
	 * (sp_copy(3): SP_PATH_NONE only when none was started). */
	ck_assert_uint_eq(res.bytes, 0);
	ck_assert_int_ne(res.path, SP_PATH_NONE);
	/* Nothing to move: no path. */
	ck_assert_int_eq(copy_range(m, in, out, 0, 0, &res), 0);
	ck_assert_int_eq(res.path, SP_PATH_NONE);
	sp_mover_free(m);
	close(in);
	close(out);
}
END_TEST

START_TEST(path_names_round_trip)
{
	enum sp_path back;
	const char *name = sp_path_name(all_paths[_i]);
	ck_assert_ptr_nonnull(name);
	ck_assert_int_eq(sp_path_parse(name, &back), 0);
	ck_assert_int_eq(back, all_paths[_i]);
}
END_TEST

START_TEST(no_path_is_called_none)
{
	ck_assert_str_eq(sp_path_name(SP_PATH_NONE), "none");
}
END_TEST

START_TEST(none_is_not_a_path_to_ask_for)
{
	enum sp_path p;
	ck_assert_int_eq(sp_path_parse("none", &p), -EINVAL);
}
END_TEST

START_TEST(auto_is_not_a_path)
{
	enum sp_path p;
	ck_assert_int_eq(sp_path_parse("auto", &p), -EINVAL);
}
END_TEST

START_TEST(misspelt_path_refused)
{
	enum sp_path p;
	ck_assert_int_eq(sp_path_parse("splcie", &p), -EINVAL);
}
END_TEST

/* A clone has a name but is sp_copy()'s flag, no path for a mover. */
START_TEST(clone_is_named_not_parsed)
{
	enum sp_path p = SP_PATH_NONE;
	ck_assert_str_eq(sp_path_name(SP_PATH_CLONE), "clone");
	ck_assert_int_eq(sp_path_parse("clone", &p), -EINVAL);
	ck_assert_int_eq(p, SP_PATH_NONE);
}
END_TEST

START_TEST(unknown_path_has_no_name)
{
	ck_assert_ptr_null(sp_path_name((enum sp_path)(SP_PATH_CLONE + 1)));
}
END_TEST

START_TEST(unknown_path_makes_no_mover)
{
	struct sp_mover *mv;
	struct sp_options o = { .size = sizeof(struct sp_options), .policy = SP_POLICY_PREFER,
				.path = (enum sp_path)(SP_PATH_SENDFILE + 1) };
	ck_assert_int_eq(sp_mover_new(&mv, &o), -EINVAL);
}
END_TEST

/* With SP_POLICY_ONLY an added path that does not apply is an error, not a
 * fallback: a pipe is no regular input. */
START_TEST(only_path_refuses_to_fall_back)
{
	int p[2], out = temp_file(0);
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(write(p[1], "x", 1), 1);
	close(p[1]);
	struct sp_options o = { .size = sizeof(struct sp_options), .policy = SP_POLICY_ONLY, .path = all_paths[2 + _i] };
	struct sp_mover *m;
	ck_assert_int_eq(sp_mover_new(&m, &o), 0);
	ck_assert_int_eq(copy_range(m, p[0], out, SP_OFFSET_CURRENT, SP_LENGTH_EOF, NULL), -EINVAL);
	ck_assert_uint_eq(stats_of(m).bytes, 0);
	ck_assert_uint_eq(stats_of(m).fallbacks, 0);
	sp_mover_free(m);
	close(p[0]);
	close(out);
}
END_TEST

/* Two files of the pattern, 300000 bytes each, and a third one byte shorter. */
struct trio {
	int a, b, c;
};

static struct trio trio_open(void)
{
	return (struct trio){ pattern_file(300000, 9), pattern_file(300000, 9),
			      pattern_file(299999, 9) };
}

static void trio_close(struct trio t)
{
	close(t.a);
	close(t.b);
	close(t.c);
}

START_TEST(compare_equal_files)
{
	struct trio t = trio_open();
	ck_assert_int_eq(sp_compare(t.a, 0, t.b, 0, SP_LENGTH_EOF), 0);
	trio_close(t);
}
END_TEST

START_TEST(compare_shorter_file_differs)
{
	struct trio t = trio_open();
	ck_assert_int_eq(sp_compare(t.a, 0, t.c, 0, SP_LENGTH_EOF), 1);
	trio_close(t);
}
END_TEST

START_TEST(compare_equal_prefix)
{
	struct trio t = trio_open();
	ck_assert_int_eq(sp_compare(t.a, 0, t.c, 0, 299999), 0);
	trio_close(t);
}
END_TEST

START_TEST(compare_changed_byte_differs)
{
	struct trio t = trio_open();
	ck_assert_int_eq(pwrite(t.b, "!", 1, 299000), 1);
	ck_assert_int_eq(sp_compare(t.a, 0, t.b, 0, SP_LENGTH_EOF), 1);
	trio_close(t);
}
END_TEST

START_TEST(compare_shifted_offset_differs)
{
	struct trio t = trio_open();
	ck_assert_int_eq(sp_compare(t.a, 1, t.b, 0, 1000), 1);
	trio_close(t);
}
END_TEST

START_TEST(compare_negative_offset_refused)
{
	struct trio t = trio_open();
	ck_assert_int_eq(sp_compare(t.a, -1, t.b, 0, 1), -EINVAL);
	trio_close(t);
}
END_TEST

START_TEST(compare_bad_fd_refused)
{
	struct trio t = trio_open();
	ck_assert_int_eq(sp_compare(-1, 0, t.b, 0, 1), -EBADF);
	trio_close(t);
}
END_TEST

static Suite *methods_suite(void)
{
	Suite *s = suite_create("methods");
	TCase *tc = tcase_create("paths");
	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, each_method_copies_a_file, 0, N_METHODS);
	tcase_add_loop_test(tc, each_method_honours_an_offset, 0, N_METHODS);
	tcase_add_loop_test(tc, each_method_honours_the_file_position, 0, N_METHODS);
	tcase_add_loop_test(tc, each_method_moves_nothing_past_the_end, 0, N_METHODS);
	tcase_add_loop_test(tc, pipe_input_takes_the_splice_path, 0, N_METHODS);
	tcase_add_loop_test(tc, append_output_is_appended_to, 0, N_METHODS);
	tcase_add_loop_test(tc, progress_callback_stops_every_method, 0, N_METHODS);
	tcase_add_loop_test(tc, bad_output_is_an_output_error, 0, N_METHODS);
	tcase_add_test(tc, best_splices_when_asked_to_move);
	tcase_add_test(tc, gift_counts_bytes_as_copied);
	suite_add_tcase(s, tc);
	TCase *names = tcase_create("names");
	tcase_add_loop_test(names, path_names_round_trip, 0, N_PATHS);
	tcase_add_test(names, no_path_is_called_none);
	tcase_add_test(names, none_is_not_a_path_to_ask_for);
	tcase_add_test(names, auto_is_not_a_path);
	tcase_add_test(names, misspelt_path_refused);
	tcase_add_test(names, clone_is_named_not_parsed);
	tcase_add_test(names, unknown_path_has_no_name);
	tcase_add_test(names, unknown_path_makes_no_mover);
	tcase_add_loop_test(names, only_path_refuses_to_fall_back, 0, N_PATHS - 2);
	tcase_add_test(names, compare_equal_files);
	tcase_add_test(names, compare_shorter_file_differs);
	tcase_add_test(names, compare_equal_prefix);
	tcase_add_test(names, compare_changed_byte_differs);
	tcase_add_test(names, compare_shifted_offset_differs);
	tcase_add_test(names, compare_negative_offset_refused);
	tcase_add_test(names, compare_bad_fd_refused);
	suite_add_tcase(s, names);
	return s;
}

Suite *(*const harness_suites[])(void) = { methods_suite, NULL };
