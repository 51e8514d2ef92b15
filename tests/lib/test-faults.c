/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for sp_copy() under injected system call failures. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "faults.h"
#include "harness.h"
#include "libsplice.h"
#include "copy-calls.h"
#include "ways.h"

#define MiB (1024 * 1024)
#define CHUNK 65536

/* The outcome of one injected transfer. */
struct outcome {
	int64_t ret;
	enum sp_side side;
	struct sp_stats stats;
	uint64_t last;
};

enum endpoint { TO_FILE, TO_PIPE, FROM_PIPE };

/* Move n pattern bytes file->file (or file->pipe, pipe->file) with a
 * 64 KiB pipe and method, after fault_reset() and the caller's injections
 * (made by arm()).  On success the output is checked byte for byte. */
static struct outcome run(enum endpoint how, size_t n, struct way way,
			  void (*arm)(void))
{
	struct sp_result res = RESULT_INIT;
	char *data;
	const char *src = make_file("src", n, 21, &data);
	struct sp_options o = { .size = sizeof(struct sp_options), .policy = way.policy, .path = way.path, .pipe_size = CHUNK,
				.buffer_size = CHUNK };
	struct sp_mover *m;
	ck_assert_int_eq(sp_mover_new(&m, &o), 0);
	int in = open(src, O_RDONLY | O_CLOEXEC), out = -1, p[2] = { -1, -1 };
	struct drain *d = NULL;
	struct feed *f = NULL;
	ck_assert_int_ge(in, 0);
	if (how == TO_PIPE) {
		ck_assert_int_eq(pipe(p), 0);
		d = drain_start(p[0]);
		out = p[1];
	} else {
		out = open_scratch("dst", O_WRONLY | O_TRUNC);
	}
	if (how == FROM_PIPE) {
		close(in);
		ck_assert_int_eq(pipe(p), 0);
		f = feed_start(p[1], data, n);
		in = p[0];
	}
	fault_reset();
	if (arm)
		arm();
	struct outcome r;
	r.ret = copy_range(m, in, out, SP_OFFSET_CURRENT, SP_LENGTH_EOF, &res);
	r.side = res.side;
	r.stats = stats_of(m);
	r.last = res.bytes;
	fault_reset();

	close(out);
	close(in);
	size_t got;
	char *back = d ? drain_finish(d, &got) : slurp(scratch_path("dst"), &got);
	if (f)
		feed_finish(f);
	if (r.ret >= 0) {
		ck_assert_uint_eq(got, n);
		ck_assert(memcmp(back, data, n) == 0);
	}
	ck_assert_uint_eq(got, r.last);
	ck_assert(memcmp(back, data, got) == 0); /* what arrived is right, even on error */

	/* The same mover must still work: nothing stale in its private pipe. */
	if (how == TO_FILE) {
		char *again;
		const char *src2 = make_file("src2", 3 * CHUNK + 1, 5, &again);
		int in2 = open(src2, O_RDONLY | O_CLOEXEC), out2 = open_scratch("dst2", O_WRONLY | O_TRUNC);
		ck_assert_int_eq(copy_range(m, in2, out2, SP_OFFSET_CURRENT, SP_LENGTH_EOF, &res), 3 * CHUNK + 1);
		close(in2);
		close(out2);
		size_t got2;
		char *back2 = slurp(scratch_path("dst2"), &got2);
		ck_assert_uint_eq(got2, 3 * CHUNK + 1);
		ck_assert(memcmp(back2, again, got2) == 0);
		free(back2);
		free(again);
	}
	free(back);
	free(data);
	sp_mover_free(m);
	return r;
}

/* Splice calls through the private pipe alternate: odd = input -> pipe,
 * even = pipe -> output. */
static void splice1_einval(void) { fault_inject(FAULT_SPLICE, 1, 1, EINVAL); }
static void splice1_enosys(void) { fault_inject(FAULT_SPLICE, 1, 1, ENOSYS); }
static void splice2_einval(void) { fault_inject(FAULT_SPLICE, 2, 1, EINVAL); }
static void splice3_einval(void) { fault_inject(FAULT_SPLICE, 3, 1, EINVAL); }
static void splice3_eio(void) { fault_inject(FAULT_SPLICE, 3, 1, EIO); }
static void splice4_eio(void) { fault_inject(FAULT_SPLICE, 4, 1, EIO); }
static void splice4_enospc(void) { fault_inject(FAULT_SPLICE, 4, 1, ENOSPC); }
static void splice2_eio(void) { fault_inject(FAULT_SPLICE, 2, 1, EIO); }
static void pipe2_emfile(void) { fault_inject(FAULT_PIPE2, 1, 1, EMFILE); }
static void read2_eio(void) { fault_inject(FAULT_READ, 2, 1, EIO); }
static void write2_enospc(void) { fault_inject(FAULT_WRITE, 2, 1, ENOSPC); }
static void splice_short(void) { fault_cap(FAULT_SPLICE, 1000); }
static void write_short(void) { fault_cap(FAULT_WRITE, 777); }
static void read_short(void) { fault_cap(FAULT_READ, 333); }

/* Copy three files of n bytes, one after the other, file -> file with one
 * mover taking way, copy_file_range failing with err every time; each copy
 * must succeed byte for byte (or, with ok false, fail with -err).  Returns
 * the copy_file_range calls made. */
static unsigned three_copies_refused(struct way way, int err, bool ok)
{
	struct sp_options o = { .size = sizeof(struct sp_options), .policy = way.policy, .path = way.path, .pipe_size = CHUNK,
				.buffer_size = CHUNK };
	struct sp_mover *m;
	ck_assert_int_eq(sp_mover_new(&m, &o), 0);
	fault_reset();
	fault_inject(FAULT_COPY_FILE_RANGE, 1, 1000, err);
	for (int i = 0; i < 3; i++) {
		char *data, name[16];
		size_t n = 3 * CHUNK + (size_t)i, got;
		snprintf(name, sizeof(name), "src%d", i);
		const char *src = make_file(name, n, 7 + i, &data);
		snprintf(name, sizeof(name), "dst%d", i);
		int in = open(src, O_RDONLY | O_CLOEXEC), out = open_scratch(name, O_WRONLY | O_TRUNC);
		ck_assert_int_ge(in, 0);
		int64_t ret = copy_range(m, in, out, SP_OFFSET_CURRENT, SP_LENGTH_EOF, NULL);
		close(in);
		close(out);
		if (ok) {
			ck_assert_int_eq(ret, (int64_t)n);
			char *back = slurp(scratch_path(name), &got);
			ck_assert_uint_eq(got, n);
			ck_assert(memcmp(back, data, n) == 0);
			free(back);
		} else {
			ck_assert_int_eq(ret, -err);
		}
		free(data);
	}
	unsigned calls = fault_count(FAULT_COPY_FILE_RANGE);
	fault_reset();
	sp_mover_free(m);
	return calls;
}

/* EXDEV is the kernel's answer for a pair of file systems: asked once,
 * then the mover splices the pair's later files without asking. */
START_TEST(copy_range_exdev_is_asked_once_per_pair)
{
	ck_assert_uint_eq(three_copies_refused(WAY_AUTO, EXDEV, true), 1);
	ck_assert_uint_eq(three_copies_refused(WAY_PREFER(SP_PATH_COPY_FILE_RANGE), EXDEV, true), 1);
}
END_TEST

/* Copy a fresh n-byte file src (made in directory in_dir) into a new file
 * of out_dir the way a copying program does (SP_COPY_WHOLE |
 * SP_COPY_NEW_OUTPUT, nothing but the new file told), with m; check the
 * bytes. */
static void copy_new_between(struct sp_mover *m, const char *in_dir, const char *out_dir, int i)
{
	char src[PATH_MAX], dst[PATH_MAX];
	size_t n = 3 * CHUNK + (size_t)i, got;
	char *data = malloc(n);
	ck_assert_ptr_nonnull(data);
	for (size_t k = 0; k < n; k++)
		data[k] = (char)(k * 7 + (size_t)i);
	snprintf(src, sizeof(src), "%s/pair-src%d", in_dir, i);
	snprintf(dst, sizeof(dst), "%s/pair-dst%d", out_dir, i);
	int in = open(src, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ck_assert_int_ge(in, 0);
	ck_assert_int_eq(pwrite(in, data, n, 0), (ssize_t)n);
	unlink(dst);
	int out = open(dst, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	ck_assert_int_ge(out, 0);
	ck_assert_int_eq(copy_all(m, in, NULL, out, SP_HOLES_KEEP, true, NULL), (int64_t)n);
	close(in);
	close(out);
	char *back = slurp(dst, &got);
	ck_assert_uint_eq(got, n);
	ck_assert(memcmp(back, data, n) == 0);
	free(back);
	free(data);
	unlink(src);
	unlink(dst);
}

/* The EXDEV memo is per pair of file systems, the real pair even for new
 * files the caller tells nothing about: copying on within one pair asks
 * nothing more, and a change of the output's file system, or of the
 * input's, asks again. */
START_TEST(copy_range_exdev_memo_follows_the_pair)
{
	struct stat a, b;
	const char *here = scratch_path("."), *other = "/dev/shm";
	ck_assert_int_eq(stat(here, &a), 0);
	if (stat(other, &b) < 0 || a.st_dev == b.st_dev)
		return; /* no second file system to change to */
	struct sp_options o = { .size = sizeof(struct sp_options), .pipe_size = CHUNK, .buffer_size = CHUNK };
	struct sp_mover *m;
	ck_assert_int_eq(sp_mover_new(&m, &o), 0);
	fault_reset();
	fault_inject(FAULT_COPY_FILE_RANGE, 1, 1000, EXDEV);
	copy_new_between(m, here, here, 0);
	ck_assert_uint_eq(fault_count(FAULT_COPY_FILE_RANGE), 1);
	copy_new_between(m, here, here, 1);
	ck_assert_uint_eq(fault_count(FAULT_COPY_FILE_RANGE), 1); /* same pair */
	copy_new_between(m, here, other, 2);
	ck_assert_uint_eq(fault_count(FAULT_COPY_FILE_RANGE), 2); /* another output fs */
	copy_new_between(m, here, other, 3);
	ck_assert_uint_eq(fault_count(FAULT_COPY_FILE_RANGE), 2);
	copy_new_between(m, other, other, 4);
	ck_assert_uint_eq(fault_count(FAULT_COPY_FILE_RANGE), 3); /* another input fs */
	fault_reset();
	sp_mover_free(m);
}
END_TEST

/* Other refusals may depend on the file (EINVAL, EOPNOTSUPP): asked for
 * each; and where copy_file_range is the only path, each copy gets its
 * own answer. */
START_TEST(copy_range_other_refusals_are_asked_each_time)
{
	ck_assert_uint_eq(three_copies_refused(WAY_AUTO, EOPNOTSUPP, true), 3);
	ck_assert_uint_eq(three_copies_refused(WAY_AUTO, EINVAL, true), 3);
	ck_assert_uint_eq(three_copies_refused((struct way){ SP_POLICY_ONLY,
							     SP_PATH_COPY_FILE_RANGE },
					       EXDEV, false), 3);
}
END_TEST

START_TEST(einval_at_first_splice_falls_back)
{
	struct outcome r = run(TO_FILE, MiB + 3, WAY_SPLICE_OR_RW, splice1_einval);
	ck_assert_int_eq(r.ret, MiB + 3);
	ck_assert_uint_eq(r.stats.fallbacks, 1);
	ck_assert_uint_eq(r.stats.bytes_copied, MiB + 3);
}
END_TEST

START_TEST(enosys_at_first_splice_falls_back)
{
	struct outcome r = run(TO_FILE, 100, WAY_SPLICE_OR_RW, splice1_enosys);
	ck_assert_int_eq(r.ret, 100);
	ck_assert_uint_eq(r.stats.fallbacks, 1);
}
END_TEST

START_TEST(einval_into_a_pipe_falls_back)
{
	struct outcome r = run(TO_PIPE, MiB + 3, WAY_SPLICE_OR_RW, splice1_einval);
	ck_assert_int_eq(r.ret, MiB + 3);
	ck_assert_uint_eq(r.stats.fallbacks, 1);
}
END_TEST

START_TEST(einval_from_a_pipe_falls_back)
{
	struct outcome r = run(FROM_PIPE, MiB + 3, WAY_SPLICE_OR_RW, splice1_einval);
	ck_assert_int_eq(r.ret, MiB + 3);
	ck_assert_uint_eq(r.stats.fallbacks, 1);
}
END_TEST

START_TEST(output_refusal_drains_the_private_pipe)
{
	struct outcome r = run(TO_FILE, MiB + 3, WAY_SPLICE_OR_RW, splice2_einval);
	ck_assert_int_eq(r.ret, MiB + 3);
	ck_assert_uint_eq(r.stats.fallbacks, 1);
	ck_assert_uint_eq(r.stats.bytes_copied, MiB + 3);
	ck_assert_uint_eq(r.stats.splice_calls, 2);
}
END_TEST

START_TEST(refusal_after_data_is_an_error)
{
	struct outcome r = run(TO_FILE, MiB, WAY_SPLICE_OR_RW, splice3_einval);
	ck_assert_int_eq(r.ret, -EINVAL);
	ck_assert_int_eq(r.side, SP_SIDE_INPUT);
	ck_assert_uint_eq(r.last, CHUNK);
	ck_assert_uint_eq(r.stats.fallbacks, 0);
}
END_TEST

START_TEST(splice_only_refusal_is_an_error)
{
	struct outcome r = run(TO_FILE, 1000, WAY_SPLICE_ONLY, splice1_einval);
	ck_assert_int_eq(r.ret, -EINVAL);
	ck_assert_int_eq(r.side, SP_SIDE_INPUT);
}
END_TEST

START_TEST(splice_only_without_a_pipe_is_an_error)
{
	struct outcome r = run(TO_FILE, 1000, WAY_SPLICE_ONLY, pipe2_emfile);
	ck_assert_int_eq(r.ret, -EMFILE);
}
END_TEST

START_TEST(input_splice_error_is_an_input_error)
{
	struct outcome r = run(TO_FILE, MiB, WAY_SPLICE_OR_RW, splice3_eio);
	ck_assert_int_eq(r.ret, -EIO);
	ck_assert_int_eq(r.side, SP_SIDE_INPUT);
	ck_assert_uint_eq(r.last, CHUNK);
}
END_TEST

START_TEST(output_splice_error_is_an_output_error)
{
	struct outcome r = run(TO_FILE, MiB, WAY_SPLICE_OR_RW, splice4_eio);
	ck_assert_int_eq(r.ret, -EIO);
	ck_assert_int_eq(r.side, SP_SIDE_OUTPUT);
	ck_assert_uint_eq(r.last, CHUNK);
}
END_TEST

START_TEST(output_full_is_an_output_error)
{
	struct outcome r = run(TO_FILE, MiB, WAY_SPLICE_OR_RW, splice4_enospc);
	ck_assert_int_eq(r.ret, -ENOSPC);
	ck_assert_int_eq(r.side, SP_SIDE_OUTPUT);
}
END_TEST

/* A file of more than two pipe-fulls goes into a pipe through the private
 * pipe: splice 1 reads the file, 2 writes the pipe, 3 reads the file. */
START_TEST(error_into_a_pipe_is_the_input_s)
{
	struct outcome r = run(TO_PIPE, MiB, WAY_SPLICE_OR_RW, splice3_eio);
	ck_assert_int_eq(r.ret, -EIO);
	ck_assert_int_eq(r.side, SP_SIDE_INPUT);
	ck_assert_uint_eq(r.last, CHUNK);
}
END_TEST

START_TEST(error_out_of_the_relay_is_the_output_s)
{
	struct outcome r = run(TO_PIPE, MiB, WAY_SPLICE_OR_RW, splice2_eio);
	ck_assert_int_eq(r.ret, -EIO);
	ck_assert_int_eq(r.side, SP_SIDE_OUTPUT);
	ck_assert_uint_eq(r.last, 0);
}
END_TEST

START_TEST(error_from_a_pipe_is_the_output_s)
{
	struct outcome r = run(FROM_PIPE, MiB, WAY_SPLICE_OR_RW, splice2_eio);
	ck_assert_int_eq(r.ret, -EIO);
	ck_assert_int_eq(r.side, SP_SIDE_OUTPUT);
}
END_TEST

START_TEST(read_error_is_an_input_error)
{
	struct outcome r = run(TO_FILE, MiB, WAY_RW_ONLY, read2_eio);
	ck_assert_int_eq(r.ret, -EIO);
	ck_assert_int_eq(r.side, SP_SIDE_INPUT);
}
END_TEST

START_TEST(write_error_is_an_output_error)
{
	struct outcome r = run(TO_FILE, MiB, WAY_RW_ONLY, write2_enospc);
	ck_assert_int_eq(r.ret, -ENOSPC);
	ck_assert_int_eq(r.side, SP_SIDE_OUTPUT);
}
END_TEST

static unsigned nth_call;
static int nth_errno;
static enum fault_call nth_kind;
static void nth_fault(void) { fault_inject(nth_kind, nth_call, 1, nth_errno); }

static const int transient[] = { EINTR, EAGAIN };

/* Loop index i: the transient errno, the endpoints and which splice call
 * (1 to SPLICE_CALLS) fails. */
#define SPLICE_CALLS 6
static const enum endpoint ends[] = { TO_FILE, TO_PIPE, FROM_PIPE };
#define SPLICE_CASES (2 * 3 * SPLICE_CALLS)

START_TEST(eintr_and_eagain_on_splice_change_nothing)
{
	int err = transient[_i / (3 * SPLICE_CALLS)];
	nth_kind = FAULT_SPLICE;
	nth_errno = err;
	nth_call = (unsigned)(_i % SPLICE_CALLS) + 1;
	struct outcome r = run(ends[_i / SPLICE_CALLS % 3], 3 * CHUNK + 5, WAY_SPLICE_OR_RW, nth_fault);
	ck_assert_int_eq(r.ret, 3 * CHUNK + 5);
	ck_assert_uint_eq(r.stats.fallbacks, 0);
	ck_assert_uint_eq(r.stats.bytes_spliced, 3 * CHUNK + 5);
	if (err == EAGAIN && r.stats.splice_calls >= nth_call)
		ck_assert_uint_ge(r.stats.poll_calls, 1);
}
END_TEST

/* Loop index i: the transient errno, read or write, and which call (1 to
 * RW_CALLS) fails. */
#define RW_CALLS 4
static const enum fault_call rw[] = { FAULT_READ, FAULT_WRITE };
#define RW_CASES (2 * 2 * RW_CALLS)

START_TEST(eintr_and_eagain_on_read_and_write_change_nothing)
{
	nth_errno = transient[_i / (2 * RW_CALLS)];
	nth_kind = rw[_i / RW_CALLS % 2];
	nth_call = (unsigned)(_i % RW_CALLS) + 1;
	struct outcome r = run(TO_FILE, 3 * CHUNK + 5, WAY_RW_ONLY, nth_fault);
	ck_assert_int_eq(r.ret, 3 * CHUNK + 5);
}
END_TEST

START_TEST(pipe_creation_failure_falls_back)
{
	struct outcome r = run(TO_FILE, MiB + 1, WAY_SPLICE_OR_RW, pipe2_emfile);
	ck_assert_int_eq(r.ret, MiB + 1);
	ck_assert_uint_eq(r.stats.fallbacks, 1);
	ck_assert_uint_eq(r.stats.bytes_copied, MiB + 1);
}
END_TEST

START_TEST(short_splices_through_the_private_pipe)
{
	struct outcome r = run(TO_FILE, 200001, WAY_SPLICE_OR_RW, splice_short);
	ck_assert_int_eq(r.ret, 200001);
	ck_assert_uint_ge(r.stats.splice_calls, 400);
}
END_TEST

START_TEST(short_splices_into_a_pipe)
{
	struct outcome r = run(TO_PIPE, 200001, WAY_SPLICE_OR_RW, splice_short);
	ck_assert_int_eq(r.ret, 200001);
}
END_TEST

START_TEST(short_writes)
{
	struct outcome r = run(TO_FILE, 200001, WAY_RW_ONLY, write_short);
	ck_assert_int_eq(r.ret, 200001);
	ck_assert_uint_ge(r.stats.write_calls, 200001 / 777);
}
END_TEST

START_TEST(short_reads)
{
	struct outcome r = run(TO_FILE, 200001, WAY_RW_ONLY, read_short);
	ck_assert_int_eq(r.ret, 200001);
}
END_TEST

/* The output refuses splice with the first chunk in the private pipe, the
 * size no multiple of the chunk. */
START_TEST(output_refusal_with_an_uneven_size)
{
	struct outcome r = run(TO_FILE, 200001, WAY_SPLICE_OR_RW, splice2_einval);
	ck_assert_int_eq(r.ret, 200001);
}
END_TEST

/* The output refuses splice while the private pipe holds short splices. */
static void short_splices_output_refuses(void)
{
	splice_short();
	splice2_einval();
}

START_TEST(output_refusal_after_short_splices)
{
	struct outcome r = run(TO_FILE, 200001, WAY_SPLICE_OR_RW, short_splices_output_refuses);
	ck_assert_int_eq(r.ret, 200001);
}
END_TEST

/* A pipe that refuses to grow (EBUSY; EPERM over pipe-max-size for a
 * user) is used at the size it has: sp_pipe_grow() returns that size, and
 * a mover asked for a 1 MiB pipe still splices through its 64 KiB one. */
START_TEST(pipe_that_refuses_to_grow_keeps_its_size)
{
	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	long cur = fcntl(p[1], F_GETPIPE_SZ);
	ck_assert_int_gt(cur, 0);
	fault_reset();
	fault_inject(FAULT_SETPIPE_SZ, 1, 1000, EBUSY);
	ck_assert_int_eq(sp_pipe_grow(p[1], (size_t)cur * 4), cur);
	ck_assert_uint_eq(fault_count(FAULT_SETPIPE_SZ), 1);
	ck_assert_int_eq(fault_pipe_size_asked(), cur * 4);
	ck_assert_int_eq(fcntl(p[1], F_GETPIPE_SZ), cur);
	/* Nothing asked when the pipe is already large enough. */
	fault_reset();
	ck_assert_int_eq(sp_pipe_grow(p[1], (size_t)cur), cur);
	ck_assert_uint_eq(fault_count(FAULT_SETPIPE_SZ), 0);
	close(p[0]);
	close(p[1]);

	/* A mover's private pipe, splice and nothing else. */
	size_t n = 3 * MiB + 1, got;
	char *data;
	const char *src = make_file("src", n, 9, &data);
	struct sp_options o = { .size = sizeof(struct sp_options), .policy = SP_POLICY_ONLY,
				.path = SP_PATH_SPLICE, .pipe_size = MiB };
	struct sp_mover *m;
	struct sp_result res = RESULT_INIT;
	ck_assert_int_eq(sp_mover_new(&m, &o), 0);
	int in = open(src, O_RDONLY | O_CLOEXEC), out = open_scratch("dst", O_WRONLY | O_TRUNC);
	ck_assert_int_ge(in, 0);
	fault_reset();
	fault_inject(FAULT_SETPIPE_SZ, 1, 1000, EBUSY);
	ck_assert_int_eq(copy_range(m, in, out, SP_OFFSET_CURRENT, SP_LENGTH_EOF, &res),
			 (int64_t)n);
	ck_assert_uint_ge(fault_count(FAULT_SETPIPE_SZ), 1);
	ck_assert_int_eq(fault_pipe_size_asked(), MiB);
	ck_assert_uint_eq(sp_pipe_size(m), (size_t)cur);
	struct sp_stats st = stats_of(m);
	ck_assert_uint_gt(st.splice_calls, 0);
	ck_assert_uint_eq(st.fallbacks, 0);
	fault_reset();
	close(in);
	close(out);
	char *back = slurp(scratch_path("dst"), &got);
	ck_assert_uint_eq(got, n);
	ck_assert(memcmp(back, data, n) == 0);
	free(back);
	free(data);
	sp_mover_free(m);
}
END_TEST

Suite *faults_suite(void);
Suite *faults_suite(void)
{
	Suite *s = suite_create("sp_copy faults");
	TCase *tc = tcase_create("injected");
	tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, einval_at_first_splice_falls_back);
	tcase_add_test(tc, copy_range_exdev_is_asked_once_per_pair);
	tcase_add_test(tc, copy_range_exdev_memo_follows_the_pair);
	tcase_add_test(tc, copy_range_other_refusals_are_asked_each_time);
	tcase_add_test(tc, enosys_at_first_splice_falls_back);
	tcase_add_test(tc, einval_into_a_pipe_falls_back);
	tcase_add_test(tc, einval_from_a_pipe_falls_back);
	tcase_add_test(tc, output_refusal_drains_the_private_pipe);
	tcase_add_test(tc, refusal_after_data_is_an_error);
	tcase_add_test(tc, splice_only_refusal_is_an_error);
	tcase_add_test(tc, splice_only_without_a_pipe_is_an_error);
	tcase_add_test(tc, input_splice_error_is_an_input_error);
	tcase_add_test(tc, output_splice_error_is_an_output_error);
	tcase_add_test(tc, output_full_is_an_output_error);
	tcase_add_test(tc, error_into_a_pipe_is_the_input_s);
	tcase_add_test(tc, error_out_of_the_relay_is_the_output_s);
	tcase_add_test(tc, error_from_a_pipe_is_the_output_s);
	tcase_add_test(tc, read_error_is_an_input_error);
	tcase_add_test(tc, write_error_is_an_output_error);
	tcase_add_loop_test(tc, eintr_and_eagain_on_splice_change_nothing, 0, SPLICE_CASES);
	tcase_add_loop_test(tc, eintr_and_eagain_on_read_and_write_change_nothing, 0, RW_CASES);
	tcase_add_test(tc, pipe_creation_failure_falls_back);
	tcase_add_test(tc, short_splices_through_the_private_pipe);
	tcase_add_test(tc, short_splices_into_a_pipe);
	tcase_add_test(tc, short_writes);
	tcase_add_test(tc, short_reads);
	tcase_add_test(tc, output_refusal_with_an_uneven_size);
	tcase_add_test(tc, output_refusal_after_short_splices);
	tcase_add_test(tc, pipe_that_refuses_to_grow_keeps_its_size);
	suite_add_tcase(s, tc);
	return s;
}
