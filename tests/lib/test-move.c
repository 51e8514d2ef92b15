/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for sp_copy(): every path, fallback and error of the mover. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "faults.h"
#include "harness.h"
#include "libsplice.h"
#include "copy-calls.h"
#include "ways.h"

#define MiB (1024 * 1024)

/* Copy a fresh n-byte file to a scratch output opened with out_flags and
 * check the output; returns what sp_copy() returned (res: its outcome,
 * may be NULL). */
static int64_t copy_file(struct sp_mover *m, size_t n, int out_flags, struct sp_result *res)
{
	char *data;
	const char *src = make_file("src", n, (unsigned)n, &data);
	int in = open_path(src, O_RDONLY);
	int out = open_scratch("dst", O_WRONLY | O_TRUNC | out_flags);
	int64_t r = copy_range(m, in, out, SP_OFFSET_CURRENT, SP_LENGTH_EOF, res);
	close(in);
	close(out);
	if (r >= 0) {
		expect_file("dst", data, n);
	}
	free(data);
	return r;
}

/* Move n pattern bytes from a file into a pipe read by a thread; check them. */
static int64_t file_to_pipe(struct sp_mover *m, size_t n)
{
	char *data;
	const char *src = make_file("src", n, 7, &data);
	int in = open_path(src, O_RDONLY), p[2];
	ck_assert_int_eq(pipe(p), 0);
	struct drain *d = drain_start(p[0]);
	int64_t r = copy_range(m, in, p[1], SP_OFFSET_CURRENT, SP_LENGTH_EOF, NULL);
	close(p[1]);
	size_t got;
	char *back = drain_finish(d, &got);
	if (r >= 0) {
		ck_assert_uint_eq(got, n);
		ck_assert(memcmp(back, data, n) == 0);
	}
	free(back);
	free(data);
	close(in);
	return r;
}

static const size_t file_sizes[] = { 0, 1, 4095, 4096, 4097, 65535, 65536, 65537,
				     MiB - 1, MiB, MiB + 1, 3 * MiB + 123 };
#define N_FILE_SIZES (sizeof(file_sizes) / sizeof(file_sizes[0]))

START_TEST(file_to_file_sizes)
{
	size_t size = file_sizes[_i];
	struct sp_mover *m = mover_with(NULL);
	ck_assert_int_eq(copy_file(m, size, 0, NULL), (int64_t)size);
	const struct sp_stats s_now = stats_of(m), *s = &s_now;
	ck_assert_uint_eq(s->bytes, size);
	ck_assert_uint_eq(s->bytes_spliced, size);
	ck_assert_uint_eq(s->bytes_copied, 0);
	ck_assert_uint_eq(s->fallbacks, 0);
	ck_assert_uint_eq(s->read_calls + s->write_calls, 0);
	ck_assert_uint_ge(sp_pipe_size(m), 65536);
	sp_mover_free(m);
}
END_TEST

/* Two pipe-fulls or less of a file: one splice at a time straight in. */
START_TEST(file_to_pipe_direct)
{
	struct sp_mover *m = mover_with(NULL);
	ck_assert_int_eq(file_to_pipe(m, 2 * MiB), 2 * MiB);
	ck_assert_uint_eq(stats_of(m).bytes_spliced, 2 * MiB);
	ck_assert_uint_ge(stats_of(m).splice_calls, 3); /* the last finds the end */
	ck_assert_uint_eq(sp_pipe_size(m), 0); /* no private pipe needed */
	sp_mover_free(m);
}
END_TEST

/* More: through the private pipe, two splices a chunk (cat 9.11's way). */
START_TEST(file_to_pipe_relayed)
{
	struct sp_mover *m = mover_with(NULL);
	ck_assert_int_eq(file_to_pipe(m, 5 * MiB + 17), 5 * MiB + 17);
	ck_assert_uint_eq(stats_of(m).bytes_spliced, 5 * MiB + 17);
	ck_assert_uint_eq(sp_pipe_size(m), MiB);
	ck_assert_uint_ge(stats_of(m).splice_calls, 2 * 6 + 1); /* in, out; the end */
	ck_assert_uint_eq(stats_of(m).read_calls + stats_of(m).write_calls, 0);
	sp_mover_free(m);
}
END_TEST

/* The counters say which pipe size the mover picked: the output pipe's,
 * grown to the asked 128 KiB (within pipe-max-size, which is larger). */
START_TEST(stats_name_the_pipe_size)
{
	struct sp_options o = { .size = sizeof(struct sp_options), .policy = SP_POLICY_PREFER, .path = SP_PATH_SPLICE,
				.pipe_size = 128 * 1024 };
	struct sp_mover *m = mover_with(&o);
	ck_assert_uint_eq(stats_of(m).pipe_size, 0);
	ck_assert_int_eq(file_to_pipe(m, 300000), 300000);
	ck_assert_uint_eq(stats_of(m).pipe_size, 128 * 1024);
	sp_mover_free(m);
}
END_TEST

/* sp_copy() with in_st and out_st with the caller's fstat of both fds moves the same bytes
 * as sp_copy() with two system calls fewer (the fstats it does not make). */
START_TEST(move_stat_skips_the_fstats)
{
	char *data;
	const char *src = make_file("src", 10000, 7, &data);
	uint64_t calls[2];
	for (int with_stat = 0; with_stat < 2; with_stat++) {
		struct sp_mover *m = mover_with(NULL);
		int in = open_path(src, O_RDONLY);
		int out = open_scratch("dst", O_WRONLY | O_TRUNC);
		struct stat in_st, out_st;
		ck_assert_int_eq(fstat(in, &in_st), 0);
		ck_assert_int_eq(fstat(out, &out_st), 0);
		int64_t r = with_stat ? copy_range_stat(m, in, &in_st, out, &out_st, SP_OFFSET_CURRENT, SP_LENGTH_EOF, NULL)
				      : copy_range(m, in, out, SP_OFFSET_CURRENT, SP_LENGTH_EOF, NULL);
		ck_assert_int_eq(r, 10000);
		calls[with_stat] = stats_of(m).syscalls;
		close(in);
		close(out);
		expect_file("dst", data, 10000);
		sp_mover_free(m);
	}
	ck_assert_uint_eq(calls[1] + 2, calls[0]);
	free(data);
}
END_TEST

START_TEST(pipe_to_file)
{
	size_t n = 3 * MiB + 5;
	char *data = pattern_data(n, 3);
	struct sp_mover *m = mover_with(NULL);
	struct feed *f;
	int in = feed_pipe(data, n, &f);
	int out = open_scratch("dst", O_WRONLY | O_TRUNC);
	ck_assert_int_eq(copy_range(m, in, out, SP_OFFSET_CURRENT, SP_LENGTH_EOF, NULL), (int64_t)n);
	feed_finish(f);
	close(in);
	close(out);
	expect_file("dst", data, n);
	ck_assert_uint_eq(stats_of(m).bytes_copied, 0);
	free(data);
	sp_mover_free(m);
}
END_TEST

START_TEST(pipe_to_pipe)
{
	size_t n = 3 * MiB + 5;
	char *data = pattern_data(n, 3);
	struct sp_mover *m = mover_with(NULL);
	struct feed *f;
	int in = feed_pipe(data, n, &f), b[2];
	ck_assert_int_eq(pipe(b), 0);
	struct drain *d = drain_start(b[0]);
	ck_assert_int_eq(copy_range(m, in, b[1], SP_OFFSET_CURRENT, SP_LENGTH_EOF, NULL), (int64_t)n);
	close(b[1]);
	feed_finish(f);
	size_t got;
	char *back = drain_finish(d, &got);
	ck_assert_uint_eq(got, n);
	ck_assert(memcmp(back, data, n) == 0);
	ck_assert_uint_eq(stats_of(m).bytes_copied, 0);
	close(in);
	free(back);
	free(data);
	sp_mover_free(m);
}
END_TEST

/* Move a fresh 2 MiB + 3 file into a connected stream socket with mover m
 * (sv: the socketpair, sv[0] the end written to; closed here) and check
 * what came out of the other end; res (may be NULL) gets the outcome. */
static void file_to_socket_with(struct sp_mover *m, int sv[2], struct sp_result *res)
{
	size_t n = 2 * MiB + 3;
	char *data;
	const char *src = make_file("src", n, 11, &data);
	struct drain *d = drain_start(sv[1]);
	int in = open_path(src, O_RDONLY);
	ck_assert_int_eq(copy_range(m, in, sv[0], SP_OFFSET_CURRENT, SP_LENGTH_EOF, res), (int64_t)n);
	shutdown(sv[0], SHUT_WR); /* the end of data even where a dup stays open */
	close(sv[0]);
	size_t got;
	char *back = drain_finish(d, &got);
	ck_assert_uint_eq(got, n);
	ck_assert(memcmp(back, data, n) == 0);
	free(back);
	close(in);
	free(data);
}

START_TEST(file_to_socket)
{
	struct sp_mover *m = mover_with(NULL);
	int sv[2];
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	file_to_socket_with(m, sv, NULL);
	sp_mover_free(m);
}
END_TEST

START_TEST(auto_policy_sends_a_file_to_a_socket_with_sendfile)
{
	struct sp_result res = RESULT_INIT;
	struct sp_mover *m = mover_with(&(struct sp_options){ .size = sizeof(struct sp_options) });
	int sv[2];
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	file_to_socket_with(m, sv, &res);
	ck_assert_int_eq(res.path, SP_PATH_SENDFILE);
	ck_assert_uint_eq(stats_of(m).splice_calls, 0);
	sp_mover_free(m);
}
END_TEST

START_TEST(socket_send_buffer_grows_and_is_reported)
{
	struct sp_mover *m = mover_with(NULL);
	int sv[2];
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	int small = 4096, before, after;
	socklen_t len = sizeof(int);
	ck_assert_int_eq(setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof(small)), 0);
	ck_assert_int_eq(getsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &before, &len), 0);
	int keep = dup(sv[0]);
	file_to_socket_with(m, sv, NULL);
	ck_assert_int_eq(getsockopt(keep, SOL_SOCKET, SO_SNDBUF, &after, &len), 0);
	close(keep);
	ck_assert_int_gt(after, before);
	ck_assert_uint_eq(stats_of(m).socket_buffer, (uint64_t)after);
	sp_mover_free(m);
}
END_TEST

START_TEST(socket_to_file)
{
	size_t n = 2 * MiB + 3;
	char *data = pattern_data(n, 11);
	struct sp_mover *m = mover_with(NULL);
	int sv[2];
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	struct feed *f = feed_start(sv[1], data, n);
	int out = open_scratch("dst", O_WRONLY | O_TRUNC);
	ck_assert_int_eq(copy_range(m, sv[0], out, SP_OFFSET_CURRENT, SP_LENGTH_EOF, NULL), (int64_t)n);
	feed_finish(f);
	close(sv[0]);
	close(out);
	expect_file("dst", data, n);
	free(data);
	sp_mover_free(m);
}
END_TEST

/* The 100000-byte pattern file the offset tests read, open read-only; its
 * bytes in *data. */
static int offset_source(char **data)
{
	return open_path(make_file("src", 100000, 5, data), O_RDONLY);
}

/* sp_copy() from in at offset, length bytes, into a pipe read by a thread;
 * returns what it returned and what came out of the pipe (*back, *got). */
static int64_t move_to_pipe(struct sp_mover *m, int in, int64_t offset, uint64_t length,
			    char **back, size_t *got)
{
	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	struct drain *d = drain_start(p[0]);
	int64_t r = copy_range(m, in, p[1], offset, length, NULL);
	close(p[1]);
	*back = drain_finish(d, got);
	return r;
}

START_TEST(explicit_offset_leaves_the_position)
{
	char *data, *back;
	size_t got;
	struct sp_mover *m = mover_with(NULL);
	int in = offset_source(&data);
	ck_assert_int_eq(move_to_pipe(m, in, 12345, 5000, &back, &got), 5000);
	ck_assert_int_eq(lseek(in, 0, SEEK_CUR), 0); /* an explicit offset leaves the position */
	ck_assert_uint_eq(got, 5000);
	ck_assert(memcmp(back, data + 12345, 5000) == 0);
	free(back);
	free(data);
	close(in);
	sp_mover_free(m);
}
END_TEST

START_TEST(length_stops_at_end_of_file)
{
	char *data, *back;
	size_t got;
	struct sp_mover *m = mover_with(NULL);
	int in = offset_source(&data);
	ck_assert_int_eq(move_to_pipe(m, in, 99000, 5000, &back, &got), 1000);
	ck_assert_uint_eq(got, 1000);
	ck_assert(memcmp(back, data + 99000, 1000) == 0);
	free(back);
	free(data);
	close(in);
	sp_mover_free(m);
}
END_TEST

START_TEST(offset_past_the_end_moves_nothing)
{
	char *data, *back;
	size_t got;
	struct sp_mover *m = mover_with(NULL);
	int in = offset_source(&data);
	ck_assert_int_eq(move_to_pipe(m, in, 200000, 5000, &back, &got), 0);
	ck_assert_uint_eq(got, 0);
	free(back);
	free(data);
	close(in);
	sp_mover_free(m);
}
END_TEST

START_TEST(current_offset_advances_the_position)
{
	char *data, *back;
	size_t got;
	struct sp_mover *m = mover_with(NULL);
	int in = offset_source(&data), p[2];
	ck_assert_int_eq(pipe(p), 0);
	struct drain *d = drain_start(p[0]);
	ck_assert_int_eq(copy_range(m, in, p[1], SP_OFFSET_CURRENT, 10, NULL), 10);
	ck_assert_int_eq(copy_range(m, in, p[1], SP_OFFSET_CURRENT, 10, NULL), 10);
	ck_assert_int_eq(lseek(in, 0, SEEK_CUR), 20);
	close(p[1]);
	back = drain_finish(d, &got);
	ck_assert_uint_eq(got, 20);
	ck_assert(memcmp(back, data, 20) == 0);
	free(back);
	free(data);
	close(in);
	sp_mover_free(m);
}
END_TEST

START_TEST(zero_length_moves_nothing)
{
	char *data, *back;
	size_t got;
	struct sp_mover *m = mover_with(NULL);
	int in = offset_source(&data);
	ck_assert_int_eq(move_to_pipe(m, in, 0, 0, &back, &got), 0);
	ck_assert_uint_eq(got, 0);
	free(back);
	free(data);
	close(in);
	sp_mover_free(m);
}
END_TEST

START_TEST(negative_offset_refused)
{
	char *data;
	struct sp_mover *m = mover_with(NULL);
	int in = offset_source(&data);
	ck_assert_int_eq(copy_range(m, in, 1, -5, 1, NULL), -EINVAL);
	free(data);
	close(in);
	sp_mover_free(m);
}
END_TEST

START_TEST(offset_on_pipe_skips)
{
	size_t n = 300000;
	char *data = pattern_data(n, 9);
	struct feed *f;
	int in = feed_pipe(data, n, &f);
	struct sp_mover *m = mover_with(NULL);
	int out = open_scratch("dst", O_WRONLY | O_TRUNC);
	ck_assert_int_eq(copy_range(m, in, out, 70001, SP_LENGTH_EOF, NULL), (int64_t)(n - 70001));
	feed_finish(f);
	close(out);
	size_t got;
	char *back = slurp(scratch_path("dst"), &got);
	ck_assert_uint_eq(got, n - 70001);
	ck_assert(memcmp(back, data + 70001, got) == 0);
	free(back);
	free(data);
	close(in);
	sp_mover_free(m);
}
END_TEST

START_TEST(offset_past_4gib)
{
	static const char marker[] = "data beyond four gibibytes";
	const int64_t at = (INT64_C(4) << 30) + 4093; /* unaligned, past 2^32 */
	int fd = open_scratch("sparse", O_RDWR | O_TRUNC);
	ck_assert_int_eq(ftruncate(fd, INT64_C(5) << 30), 0);
	ck_assert_int_eq(pwrite(fd, marker, sizeof(marker), at), (ssize_t)sizeof(marker));
	static const struct way ways[] = { WAY_SPLICE_OR_RW, WAY_SPLICE_ONLY, WAY_RW_ONLY };
	struct sp_options o = { .size = sizeof(struct sp_options), .policy = ways[_i].policy, .path = ways[_i].path };
	struct sp_mover *m = mover_with(&o);
	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	struct drain *d = drain_start(p[0]);
	ck_assert_int_eq(copy_range(m, fd, p[1], at, sizeof(marker), NULL), (int64_t)sizeof(marker));
	close(p[1]);
	size_t got;
	char *back = drain_finish(d, &got);
	ck_assert_uint_eq(got, sizeof(marker));
	ck_assert_str_eq(back, marker);
	free(back);
	sp_mover_free(m);
	close(fd);
}
END_TEST

START_TEST(append_output_falls_back)
{
	int out = open_scratch("dst", O_WRONLY | O_TRUNC);
	ck_assert_int_eq(write(out, "old\n", 4), 4);
	close(out);
	char *data;
	const char *src = make_file("src", 2 * MiB + 1, 2, &data);
	struct sp_mover *m = mover_with(NULL);
	int in = open_path(src, O_RDONLY);
	out = open_scratch("dst", O_WRONLY | O_APPEND);
	ck_assert_int_eq(copy_range(m, in, out, SP_OFFSET_CURRENT, SP_LENGTH_EOF, NULL), 2 * MiB + 1);
	close(out);
	close(in);
	size_t got;
	char *back = slurp(scratch_path("dst"), &got);
	ck_assert_uint_eq(got, 2 * MiB + 5);
	ck_assert(memcmp(back, "old\n", 4) == 0);
	ck_assert(memcmp(back + 4, data, 2 * MiB + 1) == 0);
	const struct sp_stats s_now = stats_of(m), *s = &s_now;
	ck_assert_uint_eq(s->fallbacks, 1);
	ck_assert_uint_eq(s->bytes_copied, 2 * MiB + 1);
	ck_assert_uint_eq(s->splice_calls, 0); /* known refusal: not even tried */
	free(back);
	free(data);
	sp_mover_free(m);
}
END_TEST

START_TEST(splice_only_refuses_append)
{
	struct sp_result res = RESULT_INIT;
	struct sp_options o = { .size = sizeof(struct sp_options), .policy = SP_POLICY_ONLY, .path = SP_PATH_SPLICE };
	struct sp_mover *m = mover_with(&o);
	errno = 4242;
	ck_assert_int_eq(copy_file(m, 1000, O_APPEND, &res), -EINVAL);
	ck_assert_int_eq(errno, 4242);
	ck_assert_int_eq(res.side, SP_SIDE_OUTPUT);
	sp_mover_free(m);
}
END_TEST

START_TEST(method_rw_copies)
{
	struct sp_options o = { .size = sizeof(struct sp_options), .policy = SP_POLICY_ONLY, .path = SP_PATH_RW, .buffer_size = 4096 };
	struct sp_mover *m = mover_with(&o);
	ck_assert_int_eq(copy_file(m, 100000, 0, NULL), 100000);
	const struct sp_stats s_now = stats_of(m), *s = &s_now;
	ck_assert_uint_eq(s->bytes_copied, 100000);
	ck_assert_uint_eq(s->splice_calls, 0);
	ck_assert_uint_eq(s->read_calls, 100000 / 4096 + 2);
	sp_mover_free(m);
}
END_TEST

/* sp_copy() from in_fd to out_fd until end of input, for the tests of bad
 * fds; returns what it returned and the side it blamed in *side. */
static int64_t move_fds(int in_fd, int out_fd, enum sp_side *side)
{
	struct sp_result res = RESULT_INIT;
	struct sp_mover *m = mover_with(NULL);
	int64_t r = copy_range(m, in_fd, out_fd, SP_OFFSET_CURRENT, SP_LENGTH_EOF, &res);
	*side = res.side;
	sp_mover_free(m);
	return r;
}

START_TEST(directory_input_refused)
{
	enum sp_side side;
	int dir = open_path(harness_dir, O_RDONLY | O_DIRECTORY);
	int out = open_scratch("dst", O_WRONLY);
	ck_assert_int_eq(move_fds(dir, out, &side), -EISDIR);
	ck_assert_int_eq(side, SP_SIDE_INPUT);
	close(dir);
	close(out);
}
END_TEST

START_TEST(bad_input_fd_is_an_input_error)
{
	enum sp_side side;
	int out = open_scratch("dst", O_WRONLY);
	ck_assert_int_eq(move_fds(-1, out, &side), -EBADF);
	ck_assert_int_eq(side, SP_SIDE_INPUT);
	close(out);
}
END_TEST

START_TEST(bad_output_fd_is_an_output_error)
{
	enum sp_side side;
	int in = open_path(make_file("src", 10, 1, NULL), O_RDONLY);
	ck_assert_int_eq(move_fds(in, -1, &side), -EBADF);
	ck_assert_int_eq(side, SP_SIDE_OUTPUT);
	close(in);
}
END_TEST

/* Opened the wrong way round: the side is still told apart. */
START_TEST(write_only_input_is_an_input_error)
{
	enum sp_side side;
	int wronly = open_path(make_file("src", 10, 1, NULL), O_WRONLY);
	int out = open_scratch("dst", O_WRONLY);
	ck_assert_int_eq(move_fds(wronly, out, &side), -EBADF);
	ck_assert_int_eq(side, SP_SIDE_INPUT);
	close(wronly);
	close(out);
}
END_TEST

START_TEST(read_only_output_is_an_output_error)
{
	enum sp_side side;
	const char *src = make_file("src", 10, 1, NULL);
	int in = open_path(src, O_RDONLY), rdonly = open_path(src, O_RDONLY);
	ck_assert_int_eq(move_fds(in, rdonly, &side), -EBADF);
	ck_assert_int_eq(side, SP_SIDE_OUTPUT);
	close(in);
	close(rdonly);
}
END_TEST

START_TEST(success_clears_the_error_side)
{
	struct sp_result res = RESULT_INIT;
	struct sp_mover *m = mover_with(NULL);
	int in = open_path(make_file("src", 10, 1, NULL), O_RDONLY);
	int out = open_scratch("dst", O_WRONLY);
	ck_assert_int_eq(copy_range(m, -1, out, SP_OFFSET_CURRENT, SP_LENGTH_EOF, &res), -EBADF);
	ck_assert_int_eq(res.side, SP_SIDE_INPUT);
	ck_assert_int_eq(copy_range(m, in, out, 0, SP_LENGTH_EOF, &res), 10);
	ck_assert_int_eq(res.side, SP_SIDE_NONE);
	close(out);
	close(in);
	sp_mover_free(m);
}
END_TEST

START_TEST(broken_pipe_is_output_error)
{
	struct sp_result res = RESULT_INIT;
	signal(SIGPIPE, SIG_IGN);
	const char *src = make_file("src", 100000, 1, NULL);
	struct sp_mover *m = mover_with(NULL);
	int in = open_path(src, O_RDONLY), p[2];
	ck_assert_int_eq(pipe(p), 0);
	close(p[0]);
	ck_assert_int_eq(copy_range(m, in, p[1], SP_OFFSET_CURRENT, SP_LENGTH_EOF, &res), -EPIPE);
	ck_assert_int_eq(res.side, SP_SIDE_OUTPUT);
	close(p[1]);
	close(in);
	sp_mover_free(m);
}
END_TEST

START_TEST(nonblocking_ends)
{
	size_t n = 6 * MiB + 1;
	char *data = pattern_data(n, 4);
	struct sp_options o = { .size = sizeof(struct sp_options), .pipe_size = 65536 };
	struct sp_mover *m = mover_with(&o);
	int a[2], b[2];
	ck_assert_int_eq(pipe2(a, O_NONBLOCK), 0);
	ck_assert_int_eq(pipe2(b, O_NONBLOCK), 0);
	ck_assert_int_eq(fcntl(a[1], F_SETFL, 0), 0);  /* only our ends stay non-blocking */
	ck_assert_int_eq(fcntl(b[0], F_SETFL, 0), 0);
	struct feed *f = feed_start(a[1], data, n);
	struct drain *d = drain_start(b[0]);
	ck_assert_int_eq(copy_range(m, a[0], b[1], SP_OFFSET_CURRENT, SP_LENGTH_EOF, NULL), (int64_t)n);
	close(b[1]);
	feed_finish(f);
	size_t got;
	char *back = drain_finish(d, &got);
	ck_assert_uint_eq(got, n);
	ck_assert(memcmp(back, data, n) == 0);
	close(a[0]);
	free(back);
	free(data);
	sp_mover_free(m);
}
END_TEST

static int count_progress(const struct sp_stats *s, void *arg)
{
	int *calls = arg;
	ck_assert_uint_gt(s->bytes, 0);
	return ++*calls >= calls[1];
}

START_TEST(progress_after_each_chunk)
{
	int calls[2] = { 0, 1000 };
	struct sp_options o = { .size = sizeof(struct sp_options), .policy = SP_POLICY_PREFER, .path = SP_PATH_SPLICE,
				.pipe_size = 65536, .progress = count_progress, .progress_arg = calls };
	struct sp_mover *m = mover_with(&o);
	ck_assert_int_eq(copy_file(m, MiB, 0, NULL), MiB);
	ck_assert_int_ge(calls[0], MiB / 65536);
	sp_mover_free(m);
}
END_TEST

START_TEST(progress_callback_stops)
{
	struct sp_result res = RESULT_INIT;
	int calls[2] = { 0, 2 }; /* stop after the second chunk */
	struct sp_options o = { .size = sizeof(struct sp_options), .policy = SP_POLICY_PREFER, .path = SP_PATH_SPLICE,
				.pipe_size = 65536, .progress = count_progress, .progress_arg = calls };
	struct sp_mover *m = mover_with(&o);
	ck_assert_int_eq(copy_file(m, MiB, 0, &res), -ECANCELED);
	ck_assert_int_eq(res.side, SP_SIDE_NONE);
	ck_assert_uint_eq(res.bytes, 2 * 65536);
	sp_mover_free(m);
}
END_TEST

START_TEST(cancel_flag_stops)
{
	struct sp_result res = RESULT_INIT;
	volatile sig_atomic_t stop = 1;
	struct sp_options c = { .size = sizeof(struct sp_options), .policy = SP_POLICY_PREFER, .path = SP_PATH_SPLICE,
				.cancel = &stop, .pipe_size = 65536 };
	struct sp_mover *m = mover_with(&c);
	ck_assert_int_eq(copy_file(m, MiB, 0, &res), -ECANCELED);
	ck_assert_uint_eq(res.bytes, 65536);
	sp_mover_free(m);
}
END_TEST

START_TEST(unknown_policy_refused)
{
	struct sp_mover *m = NULL;
	struct sp_options bad_policy = { .size = sizeof(struct sp_options), .policy = 99, .path = SP_PATH_SPLICE };
	ck_assert_int_eq(sp_mover_new(&m, &bad_policy), -EINVAL);
	ck_assert_ptr_null(m);
}
END_TEST

START_TEST(unknown_path_refused)
{
	struct sp_mover *m = NULL;
	struct sp_options bad_path = { .size = sizeof(struct sp_options), .policy = SP_POLICY_PREFER, .path = SP_PATH_SENDFILE + 1 };
	ck_assert_int_eq(sp_mover_new(&m, &bad_path), -EINVAL);
	ck_assert_ptr_null(m);
}
END_TEST

START_TEST(prefer_without_path_refused)
{
	struct sp_mover *m = NULL;
	struct sp_options no_path = { .size = sizeof(struct sp_options), .policy = SP_POLICY_PREFER };
	ck_assert_int_eq(sp_mover_new(&m, &no_path), -EINVAL);
	ck_assert_ptr_null(m);
}
END_TEST

START_TEST(auto_with_path_refused)
{
	struct sp_mover *m = NULL;
	struct sp_options both = { .size = sizeof(struct sp_options), .policy = SP_POLICY_AUTO, .path = SP_PATH_RW };
	ck_assert_int_eq(sp_mover_new(&m, &both), -EINVAL);
	ck_assert_ptr_null(m);
}
END_TEST

START_TEST(options_size_checked)
{
	struct sp_mover *m = NULL;
	/* A size of 0 (a caller that forgot it) or below 1.0's struct. */
	struct sp_options none = { .pipe_size = 65536 };
	ck_assert_int_eq(sp_mover_new(&m, &none), -EINVAL);
	ck_assert_ptr_null(m);
	none.size = offsetof(struct sp_options, flags);
	ck_assert_int_eq(sp_mover_new(&m, &none), -EINVAL);
	ck_assert_ptr_null(m);
	/* A later release's caller: an option set past this release's
	 * fields is refused, zero there is today's behaviour. */
	struct {
		struct sp_options o;
		uint64_t later;
	} newer = { .o = { .size = sizeof(newer), .pipe_size = 65536 }, .later = 1 };
	ck_assert_int_eq(sp_mover_new(&m, &newer.o), -EINVAL);
	ck_assert_ptr_null(m);
	newer.later = 0;
	ck_assert_int_eq(sp_mover_new(&m, &newer.o), 0);
	ck_assert_uint_eq(stats_of(m).pipe_size, 0);
	sp_mover_free(m);
}
END_TEST

/* The descriptors this process has open. */
static int open_fds(void)
{
	int n = 0;
	for (int fd = 0; fd < 1024; fd++)
		n += fcntl(fd, F_GETFD) >= 0;
	return n;
}

/* SP_RELEASE_PIPE: the private pipe a splice between two files needs is
 * closed when sp_copy() returns (kept for the next call without it). */
START_TEST(release_pipe)
{
	for (int release = 0; release <= 1; release++) {
		char in_path[] = "/tmp/test-move.XXXXXX", out_path[] = "/tmp/test-move.XXXXXX";
		int in = mkstemp(in_path), out = mkstemp(out_path);
		ck_assert_int_ge(in, 0);
		ck_assert_int_ge(out, 0);
		unlink(in_path);
		unlink(out_path);
		ck_assert_int_eq(write(in, "0123456789", 10), 10);
		struct sp_options o = { .size = sizeof(o), .policy = SP_POLICY_ONLY,
					.path = SP_PATH_SPLICE,
					.flags = release ? SP_RELEASE_PIPE : 0 };
		struct sp_mover *m;
		ck_assert_int_eq(sp_mover_new(&m, &o), 0);
		int before = open_fds();
		struct sp_copy_args a = { .size = sizeof(a), .in_fd = in, .out_fd = out,
					  .offset = 0, .length = SP_LENGTH_EOF };
		ck_assert_int_eq(sp_copy(m, &a, NULL), 10);
		ck_assert_int_eq(open_fds(), before + (release ? 0 : 2));
		sp_mover_free(m);
		ck_assert_int_eq(open_fds(), before);
		close(in);
		close(out);
	}
}
END_TEST

/* SP_NOCACHE takes read/write: not under SP_POLICY_ONLY of another path;
 * no flag past SP_RELEASE_PIPE is known. */
START_TEST(nocache_flags_checked)
{
	struct sp_mover *m = NULL;
	struct sp_options unknown = { .size = sizeof(struct sp_options), .flags = SP_RELEASE_PIPE << 1 };
	ck_assert_int_eq(sp_mover_new(&m, &unknown), -EINVAL);
	struct sp_options only_splice = { .size = sizeof(struct sp_options), .flags = SP_NOCACHE, .policy = SP_POLICY_ONLY,
					  .path = SP_PATH_SPLICE };
	ck_assert_int_eq(sp_mover_new(&m, &only_splice), -EINVAL);
	ck_assert_ptr_null(m);
	struct sp_options only_rw = { .size = sizeof(struct sp_options), .flags = SP_NOCACHE, .policy = SP_POLICY_ONLY,
				      .path = SP_PATH_RW };
	ck_assert_int_eq(sp_mover_new(&m, &only_rw), 0);
	sp_mover_free(m);
	struct sp_options nocache = { .size = sizeof(struct sp_options), .flags = SP_NOCACHE };
	ck_assert_int_eq(sp_mover_new(&m, &nocache), 0);
	sp_mover_free(m);
}
END_TEST

START_TEST(unknown_splice_flags_refused)
{
	struct sp_mover *m = NULL;
	struct sp_options bad_flags = { .size = sizeof(struct sp_options), .splice_flags = 0x100 };
	ck_assert_int_eq(sp_mover_new(&m, &bad_flags), -EINVAL);
	ck_assert_ptr_null(m);
}
END_TEST

START_TEST(no_place_for_the_mover_refused)
{
	ck_assert_int_eq(sp_mover_new(NULL, NULL), -EINVAL);
}
END_TEST

START_TEST(move_and_more_flags_copy)
{
	struct sp_options flags = { .size = sizeof(struct sp_options), .splice_flags = SPLICE_F_MOVE | SPLICE_F_MORE };
	struct sp_mover *m = mover_with(&flags);
	ck_assert_int_eq(copy_file(m, 3 * MiB, 0, NULL), 3 * MiB);
	sp_mover_free(m);
}
END_TEST

START_TEST(no_mover_refused)
{
	ck_assert_int_eq(copy_range(NULL, 0, 1, 0, 1, NULL), -EINVAL);
}
END_TEST

/* sp_copy() checks its argument struct: its size, its flags and the
 * fields a flag rules out; and the size of the result struct. */
START_TEST(copy_args_checked)
{
	struct sp_mover *m = mover_with(NULL);
	struct sp_copy_args ok = { .size = sizeof(ok), .in_fd = -1, .out_fd = -1,
				   .offset = SP_OFFSET_CURRENT, .length = 0 };
	ck_assert_int_eq(sp_copy(m, &ok, NULL), 0);
	ck_assert_int_eq(sp_copy(m, NULL, NULL), -EINVAL);
	struct sp_copy_args a = ok;
	a.size = sizeof(a) - 1;
	ck_assert_int_eq(sp_copy(m, &a, NULL), -EINVAL);
	a = ok;
	a.size = 0;
	ck_assert_int_eq(sp_copy(m, &a, NULL), -EINVAL);
	for (unsigned bit = 2; bit < 32; bit++) {
		a = ok;
		a.flags = 1u << bit;
		ck_assert_int_eq(sp_copy(m, &a, NULL), -EINVAL);
	}
	a = ok;
	a.flags = SP_COPY_NEW_OUTPUT; /* only with SP_COPY_WHOLE */
	ck_assert_int_eq(sp_copy(m, &a, NULL), -EINVAL);
	a = ok;
	a.holes = SP_HOLES_PUNCH; /* only with SP_COPY_WHOLE */
	ck_assert_int_eq(sp_copy(m, &a, NULL), -EINVAL);
	a = (struct sp_copy_args){ .size = sizeof(a), .flags = SP_COPY_WHOLE, .length = 1 };
	ck_assert_int_eq(sp_copy(m, &a, NULL), -EINVAL);
	a = (struct sp_copy_args){ .size = sizeof(a), .flags = SP_COPY_WHOLE, .offset = 1 };
	ck_assert_int_eq(sp_copy(m, &a, NULL), -EINVAL);
	a = (struct sp_copy_args){ .size = sizeof(a), .flags = SP_COPY_WHOLE,
				   .holes = (enum sp_holes)(SP_HOLES_FILL + 1) };
	ck_assert_int_eq(sp_copy(m, &a, NULL), -EINVAL);
	struct sp_result small = { .size = sizeof(small) - 1 };
	ck_assert_int_eq(sp_copy(m, &ok, &small), -EINVAL);
	sp_mover_free(m);
}
END_TEST

/* A caller built against a later release passes larger structs: fields
 * this release does not know must be zero in the arguments, and are
 * zeroed in the result. */
START_TEST(larger_structs_of_later_releases)
{
	struct sp_mover *m = mover_with(NULL);
	struct {
		struct sp_copy_args a;
		uint64_t later[2];
	} args = { .a = { .size = sizeof(args), .in_fd = -1, .out_fd = -1 } };
	struct {
		struct sp_result r;
		unsigned char later[16];
	} res;
	memset(&res, 0xA5, sizeof(res));
	res.r.size = sizeof(res);
	ck_assert_int_eq(sp_copy(m, &args.a, &res.r), 0);
	ck_assert_uint_eq(res.r.bytes, 0);
	ck_assert_int_eq(res.r.path, SP_PATH_NONE);
	ck_assert_int_eq(res.r.side, SP_SIDE_NONE);
	for (size_t i = 0; i < sizeof(res.later); i++)
		ck_assert_uint_eq(res.later[i], 0);
	args.later[1] = 1;
	ck_assert_int_eq(sp_copy(m, &args.a, NULL), -EINVAL);
	sp_mover_free(m);
}
END_TEST

/* The result tells the bytes, the path and the failed side of its own
 * call: a failure after a success does not keep the success's path. */
START_TEST(result_is_the_calls_own)
{
	struct sp_mover *m = mover_with(NULL);
	struct sp_result res = RESULT_INIT;
	ck_assert_int_eq(copy_file(m, 100000, 0, &res), 100000);
	ck_assert_uint_eq(res.bytes, 100000);
	ck_assert_int_ne(res.path, SP_PATH_NONE);
	ck_assert_int_eq(res.side, SP_SIDE_NONE);
	int out = open_scratch("dst", O_WRONLY | O_TRUNC);
	ck_assert_int_eq(copy_range(m, -1, out, SP_OFFSET_CURRENT, SP_LENGTH_EOF, &res), -EBADF);
	ck_assert_uint_eq(res.bytes, 0);
	ck_assert_int_eq(res.path, SP_PATH_NONE);
	ck_assert_int_eq(res.side, SP_SIDE_INPUT);
	close(out);
	sp_mover_free(m);
}
END_TEST

START_TEST(freeing_no_mover_is_harmless)
{
	errno = 4242;
	sp_mover_free(NULL);
	ck_assert_int_eq(errno, 4242);
}
END_TEST

START_TEST(version_is_the_package_version)
{
	ck_assert_str_eq(sp_version(), PACKAGE_VERSION);
}
END_TEST

START_TEST(zero_device_to_null_device)
{
	struct sp_mover *m = mover_with(NULL);
	int zero = open_path("/dev/zero", O_RDONLY), null = open_path("/dev/null", O_WRONLY);
	ck_assert_int_eq(copy_range(m, zero, null, SP_OFFSET_CURRENT, 3 * MiB, NULL), 3 * MiB);
	close(zero);
	close(null);
	sp_mover_free(m);
}
END_TEST

START_TEST(zero_device_at_an_offset_to_a_file)
{
	struct sp_mover *m = mover_with(NULL);
	int zero = open_path("/dev/zero", O_RDONLY);
	int out = open_scratch("zeros", O_WRONLY | O_TRUNC);
	ck_assert_int_eq(copy_range(m, zero, out, 12345, 100000, NULL), 100000);
	close(out);
	size_t got;
	char *back = slurp(scratch_path("zeros"), &got);
	ck_assert_uint_eq(got, 100000);
	for (size_t i = 0; i < got; i++)
		ck_assert_int_eq(back[i], 0);
	free(back);
	close(zero);
	sp_mover_free(m);
}
END_TEST

START_TEST(proc_file_to_a_file)
{
	struct sp_mover *m = mover_with(NULL);
	int proc = open_path("/proc/version", O_RDONLY);
	char want[4096];
	ssize_t wn = pread(proc, want, sizeof(want), 0);
	ck_assert_int_gt(wn, 0);
	int out = open_scratch("version", O_WRONLY | O_TRUNC);
	ck_assert_int_eq(copy_range(m, proc, out, SP_OFFSET_CURRENT, SP_LENGTH_EOF, NULL), wn);
	close(out);
	size_t got;
	char *back = slurp(scratch_path("version"), &got);
	ck_assert(memcmp(back, want, (size_t)wn) == 0);
	free(back);
	close(proc);
	sp_mover_free(m);
}
END_TEST

START_TEST(input_refusing_splice_falls_back)
{
	/* An eventfd has no splice_read: the kernel says EINVAL. */
	int efd = eventfd(5, 0);
	ck_assert_int_ge(efd, 0);
	struct sp_mover *m = mover_with(NULL);
	int out = open_scratch("dst", O_WRONLY | O_TRUNC);
	ck_assert_int_eq(copy_range(m, efd, out, SP_OFFSET_CURRENT, 8, NULL), 8);
	const struct sp_stats s_now = stats_of(m), *s = &s_now;
	ck_assert_uint_eq(s->fallbacks, 1);
	ck_assert_uint_eq(s->bytes_copied, 8);
	uint64_t v;
	ck_assert_int_eq(pread(out, &v, 8, 0), -1); /* write-only: read back by path */
	close(out);
	size_t got;
	char *back = slurp(scratch_path("dst"), &got);
	ck_assert_uint_eq(got, 8);
	memcpy(&v, back, 8);
	ck_assert_uint_eq(v, 5);
	free(back);
	close(efd);
	sp_mover_free(m);
}
END_TEST

START_TEST(pipe_grow_grows)
{
	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_ge(sp_pipe_grow(p[1], 256 * 1024), 256 * 1024);
	close(p[0]);
	close(p[1]);
}
END_TEST

START_TEST(pipe_grow_never_shrinks)
{
	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_ge(sp_pipe_grow(p[1], 256 * 1024), 256 * 1024);
	long sz = sp_pipe_grow(p[1], 4096);
	ck_assert_int_ge(sz, 256 * 1024);
	close(p[0]);
	close(p[1]);
}
END_TEST

START_TEST(pipe_grow_refuses_a_file)
{
	int fd = open_scratch("f", O_RDWR);
	ck_assert_int_eq(sp_pipe_grow(fd, 65536), -EBADF);
	close(fd);
}
END_TEST

START_TEST(private_pipe_has_the_size_asked_for)
{
	struct sp_options o = { .size = sizeof(struct sp_options), .policy = SP_POLICY_PREFER, .path = SP_PATH_SPLICE,
				.pipe_size = 131072 };
	struct sp_mover *m = mover_with(&o);
	ck_assert_int_eq(copy_file(m, 1000, 0, NULL), 1000);
	ck_assert_uint_eq(sp_pipe_size(m), 131072);
	sp_mover_free(m);
}
END_TEST

/* Progress callback that changes the input file once, after the first chunk. */
struct change { int fd; off_t new_size; int done; };
static int change_input(const struct sp_stats *s, void *arg)
{
	struct change *c = arg;
	if (!c->done++) {
		if (c->new_size > 0) {
			char block[8192];
			fill_pattern(block, sizeof(block), 99);
			struct stat st;
			fstat(c->fd, &st);
			for (off_t at = st.st_size; at < c->new_size; at += (off_t)sizeof(block))
				ck_assert_int_eq(pwrite(c->fd, block, sizeof(block), at), sizeof(block));
		} else {
			ck_assert_int_eq(ftruncate(c->fd, -c->new_size), 0);
		}
	}
	return 0;
}

START_TEST(input_grows_or_shrinks)
{
	bool grow = _i;
	char *data;
	const char *src = make_file("src", MiB, 8, &data);
	int rw = open_path(src, O_RDWR);
	struct change c = { rw, grow ? MiB + 10 * 8192 : -(MiB / 2 + 3), 0 };
	struct sp_options o = { .size = sizeof(struct sp_options), .pipe_size = 65536, .progress = change_input, .progress_arg = &c };
	struct sp_mover *m = mover_with(&o);
	int in = open_path(src, O_RDONLY), p[2];
	ck_assert_int_eq(pipe(p), 0);
	struct drain *d = drain_start(p[0]);
	int64_t r = copy_range(m, in, p[1], SP_OFFSET_CURRENT, SP_LENGTH_EOF, NULL);
	close(p[1]);
	size_t got, final;
	char *back = drain_finish(d, &got);
	char *now = slurp(src, &final);
	ck_assert_int_eq(r, (int64_t)final);
	ck_assert_uint_eq(got, final);
	ck_assert(memcmp(back, now, final) == 0);
	free(back);
	free(now);
	free(data);
	close(in);
	close(rw);
	sp_mover_free(m);
}
END_TEST

Suite *move_suite(void);
Suite *move_suite(void)
{
	Suite *s = suite_create("sp_copy");
	TCase *tc = tcase_create("paths");
	tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, file_to_file_sizes, 0, N_FILE_SIZES);
	tcase_add_test(tc, file_to_pipe_direct);
	tcase_add_test(tc, file_to_pipe_relayed);
	tcase_add_test(tc, move_stat_skips_the_fstats);
	tcase_add_test(tc, stats_name_the_pipe_size);
	tcase_add_test(tc, pipe_to_file);
	tcase_add_test(tc, pipe_to_pipe);
	tcase_add_test(tc, file_to_socket);
	tcase_add_test(tc, auto_policy_sends_a_file_to_a_socket_with_sendfile);
	tcase_add_test(tc, socket_send_buffer_grows_and_is_reported);
	tcase_add_test(tc, socket_to_file);
	tcase_add_test(tc, explicit_offset_leaves_the_position);
	tcase_add_test(tc, length_stops_at_end_of_file);
	tcase_add_test(tc, offset_past_the_end_moves_nothing);
	tcase_add_test(tc, current_offset_advances_the_position);
	tcase_add_test(tc, zero_length_moves_nothing);
	tcase_add_test(tc, negative_offset_refused);
	tcase_add_test(tc, offset_on_pipe_skips);
	tcase_add_loop_test(tc, offset_past_4gib, 0, 3);
	tcase_add_test(tc, append_output_falls_back);
	tcase_add_test(tc, splice_only_refuses_append);
	tcase_add_test(tc, method_rw_copies);
	tcase_add_test(tc, directory_input_refused);
	tcase_add_test(tc, bad_input_fd_is_an_input_error);
	tcase_add_test(tc, bad_output_fd_is_an_output_error);
	tcase_add_test(tc, write_only_input_is_an_input_error);
	tcase_add_test(tc, read_only_output_is_an_output_error);
	tcase_add_test(tc, success_clears_the_error_side);
	tcase_add_test(tc, broken_pipe_is_output_error);
	tcase_add_test(tc, nonblocking_ends);
	tcase_add_test(tc, progress_after_each_chunk);
	tcase_add_test(tc, progress_callback_stops);
	tcase_add_test(tc, cancel_flag_stops);
	tcase_add_test(tc, unknown_policy_refused);
	tcase_add_test(tc, unknown_path_refused);
	tcase_add_test(tc, prefer_without_path_refused);
	tcase_add_test(tc, auto_with_path_refused);
	tcase_add_test(tc, options_size_checked);
	tcase_add_test(tc, nocache_flags_checked);
	tcase_add_test(tc, release_pipe);
	tcase_add_test(tc, unknown_splice_flags_refused);
	tcase_add_test(tc, no_place_for_the_mover_refused);
	tcase_add_test(tc, move_and_more_flags_copy);
	tcase_add_test(tc, no_mover_refused);
	tcase_add_test(tc, copy_args_checked);
	tcase_add_test(tc, larger_structs_of_later_releases);
	tcase_add_test(tc, result_is_the_calls_own);
	tcase_add_test(tc, freeing_no_mover_is_harmless);
	tcase_add_test(tc, version_is_the_package_version);
	tcase_add_test(tc, zero_device_to_null_device);
	tcase_add_test(tc, zero_device_at_an_offset_to_a_file);
	tcase_add_test(tc, proc_file_to_a_file);
	tcase_add_test(tc, input_refusing_splice_falls_back);
	tcase_add_test(tc, pipe_grow_grows);
	tcase_add_test(tc, pipe_grow_never_shrinks);
	tcase_add_test(tc, pipe_grow_refuses_a_file);
	tcase_add_test(tc, private_pipe_has_the_size_asked_for);
	tcase_add_loop_test(tc, input_grows_or_shrinks, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
