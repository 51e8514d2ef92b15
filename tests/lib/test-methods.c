/* Unit tests for libsplice's added data paths: vmsplice, gift,
 * copy_file_range, sendfile, SP_METHOD_BEST, method names, sp_compare. */
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

#define SIZE ((3u << 20) + 4321)

static const enum sp_method all_methods[] = {
	SP_METHOD_SPLICE, SP_METHOD_RW, SP_METHOD_VMSPLICE, SP_METHOD_GIFT,
	SP_METHOD_COPY_FILE_RANGE, SP_METHOD_SENDFILE, SP_METHOD_BEST,
};
#define N_METHODS (sizeof(all_methods) / sizeof(all_methods[0]))

/* An unlinked temporary file holding n bytes of a pattern. */
static int pattern_file(size_t n, unsigned seed)
{
	char path[] = "/tmp/test-methods.XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	unlink(path);
	char *buf = malloc(n);
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)(i * 7 + i / 4096 + seed);
	ck_assert_int_eq(pwrite(fd, buf, n, 0), (ssize_t)n);
	free(buf);
	return fd;
}

static int empty_file(void)
{
	return pattern_file(0, 0);
}

static struct sp_mover *mover(enum sp_method method, unsigned flags)
{
	struct sp_options o = { .method = method, .splice_flags = flags };
	struct sp_mover *m;
	ck_assert_int_eq(sp_mover_new(&m, &o), 0);
	return m;
}

START_TEST(each_method_copies_a_file)
{
	enum sp_method method = all_methods[_i];
	int in = pattern_file(SIZE, 1), out = empty_file();
	struct sp_mover *m = mover(method, 0);
	ck_assert_int_eq(sp_move(m, in, out, 0, SP_LENGTH_EOF), SIZE);
	ck_assert_int_eq(sp_compare(in, 0, out, 0, SIZE), 0);
	ck_assert_int_eq(lseek(out, 0, SEEK_END), SIZE);
	enum sp_method used = sp_last_method(m);
	ck_assert_int_eq(used, method == SP_METHOD_BEST ? SP_METHOD_COPY_FILE_RANGE : method);
	ck_assert_uint_eq(sp_get_stats(m)->fallbacks, 0);
	ck_assert_uint_eq(sp_get_stats(m)->bytes, SIZE);
	sp_mover_free(m);
	close(in);
	close(out);
}
END_TEST

/* A positional part: the file position stays where it is. */
START_TEST(each_method_honours_an_offset)
{
	enum sp_method method = all_methods[_i];
	int in = pattern_file(SIZE, 2), out = empty_file();
	struct sp_mover *m = mover(method, 0);
	ck_assert_int_eq(sp_move(m, in, out, 5000, 70000), 70000);
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
	enum sp_method method = all_methods[_i];
	int in = pattern_file(SIZE, 2), out = empty_file();
	struct sp_mover *m = mover(method, 0);
	ck_assert_int_eq(lseek(in, 12345, SEEK_SET), 12345);
	ck_assert_int_eq(sp_move(m, in, out, SP_OFFSET_CURRENT, 100000), 100000);
	ck_assert_int_eq(lseek(in, 0, SEEK_CUR), 112345);
	ck_assert_int_eq(sp_compare(in, 12345, out, 0, 100000), 0);
	sp_mover_free(m);
	close(in);
	close(out);
}
END_TEST

START_TEST(each_method_moves_nothing_past_the_end)
{
	enum sp_method method = all_methods[_i];
	int in = pattern_file(SIZE, 2), out = empty_file();
	struct sp_mover *m = mover(method, 0);
	ck_assert_int_eq(sp_move(m, in, out, SIZE, SP_LENGTH_EOF), 0);
	sp_mover_free(m);
	close(in);
	close(out);
}
END_TEST

START_TEST(pipe_input_takes_the_splice_path)
{
	enum sp_method method = all_methods[_i];
	int p[2], out = empty_file();
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(write(p[1], "hello, pipe", 11), 11);
	close(p[1]);
	struct sp_mover *m = mover(method, 0);
	ck_assert_int_eq(sp_move(m, p[0], out, SP_OFFSET_CURRENT, SP_LENGTH_EOF), 11);
	ck_assert_int_eq(sp_last_method(m), method == SP_METHOD_RW ? SP_METHOD_RW : SP_METHOD_SPLICE);
	bool asked_for_file_path = method > SP_METHOD_RW && method != SP_METHOD_BEST;
	ck_assert_uint_eq(sp_get_stats(m)->fallbacks, asked_for_file_path ? 1 : 0);
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
	enum sp_method method = all_methods[_i];
	int in = pattern_file(100000, 3), out = pattern_file(10, 4);
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", out);
	int app = open(path, O_WRONLY | O_APPEND);
	ck_assert_int_ge(app, 0);
	struct sp_mover *m = mover(method, 0);
	if (method == SP_METHOD_SPLICE) {
		/* splice only: the kernel's refusal is the answer. */
		ck_assert_int_eq(sp_move(m, in, app, 0, SP_LENGTH_EOF), -EINVAL);
	} else {
		ck_assert_int_eq(sp_move(m, in, app, 0, SP_LENGTH_EOF), 100000);
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
	int in = pattern_file(SIZE, 5), out = empty_file();
	struct sp_mover *m = mover(SP_METHOD_BEST, SPLICE_F_MOVE);
	ck_assert_int_eq(sp_move(m, in, out, 0, SP_LENGTH_EOF), SIZE);
	ck_assert_int_eq(sp_last_method(m), SP_METHOD_SPLICE);
	ck_assert_int_eq(sp_compare(in, 0, out, 0, SIZE), 0);
	sp_mover_free(m);
	close(in);
	close(out);
}
END_TEST

START_TEST(gift_counts_bytes_as_copied)
{
	int in = pattern_file(SIZE, 6), out = empty_file();
	struct sp_mover *m = mover(SP_METHOD_GIFT, 0);
	ck_assert_int_eq(sp_move(m, in, out, 0, SP_LENGTH_EOF), SIZE);
	const struct sp_stats *st = sp_get_stats(m);
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
	enum sp_method method = all_methods[_i];
	int in = pattern_file(SIZE, 7), out = empty_file();
	struct sp_options o = { .method = method, .progress = stop_now };
	struct sp_mover *m;
	ck_assert_int_eq(sp_mover_new(&m, &o), 0);
	ck_assert_int_eq(sp_move(m, in, out, 0, SP_LENGTH_EOF), -ECANCELED);
	ck_assert_int_eq(sp_error_side(m), SP_SIDE_NONE);
	sp_mover_free(m);
	close(in);
	close(out);
}
END_TEST

START_TEST(bad_output_is_an_output_error)
{
	enum sp_method method = all_methods[_i];
	int in = pattern_file(SIZE, 8), out = open("/dev/full", O_WRONLY);
	ck_assert_int_ge(out, 0);
	struct sp_mover *m = mover(method, 0);
	/* /dev/full takes no splice: splice only says so, the others write. */
	int want = method == SP_METHOD_SPLICE ? -EINVAL : -ENOSPC;
	ck_assert_int_eq(sp_move(m, in, out, 0, SP_LENGTH_EOF), want);
	ck_assert_int_eq(sp_error_side(m), SP_SIDE_OUTPUT);
	sp_mover_free(m);
	close(in);
	close(out);
}
END_TEST

START_TEST(method_names_round_trip)
{
	enum sp_method back;
	const char *name = sp_method_name(all_methods[_i]);
	ck_assert_ptr_nonnull(name);
	ck_assert_int_eq(sp_method_parse(name, &back), 0);
	ck_assert_int_eq(back, all_methods[_i]);
}
END_TEST

START_TEST(best_is_called_auto)
{
	ck_assert_str_eq(sp_method_name(SP_METHOD_BEST), "auto");
}
END_TEST

START_TEST(misspelt_method_refused)
{
	enum sp_method m;
	ck_assert_int_eq(sp_method_parse("splcie", &m), -EINVAL);
}
END_TEST

START_TEST(unknown_method_has_no_name)
{
	ck_assert_ptr_null(sp_method_name((enum sp_method)(SP_METHOD_BEST + 1)));
}
END_TEST

START_TEST(unknown_method_makes_no_mover)
{
	struct sp_mover *mv;
	struct sp_options o = { .method = (enum sp_method)(SP_METHOD_BEST + 1) };
	ck_assert_int_eq(sp_mover_new(&mv, &o), -EINVAL);
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
	tcase_add_loop_test(names, method_names_round_trip, 0, N_METHODS);
	tcase_add_test(names, best_is_called_auto);
	tcase_add_test(names, misspelt_method_refused);
	tcase_add_test(names, unknown_method_has_no_name);
	tcase_add_test(names, unknown_method_makes_no_mover);
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

int main(void)
{
	SRunner *sr = srunner_create(methods_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
