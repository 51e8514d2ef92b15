/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the sized structs: every struct that crosses the ABI
 * carries the caller's size (or, for an array, an element size per call),
 * and the library reads and writes only what both sides know.  A caller
 * built against release 1.0 is played by a struct of 1.0's size followed
 * by a canary, which must come out untouched; a caller of a later release
 * by a larger struct, whose unknown tail the library zeroes where it
 * writes and refuses where it reads, when set. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libsplice.h"
#include "internal.h"
#include "harness.h"

/* The sizes of release 1.0's structs: each the end of its last field in
 * 1.0, as the library's own minimums (lib/internal.h) are. */
#define STATS_1_0 (offsetof(struct sp_stats, socket_buffer) + sizeof(uint64_t))
#define STATUS_1_0 (offsetof(struct sp_fanout_status, copied) + sizeof(int))
#define CANARY 0xA5

/* Whether the n bytes at p are all b. */
static bool all(const void *p, size_t n, unsigned char b)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++)
		if (c[i] != b)
			return false;
	return true;
}

/* A mover that has copied size bytes from a file to a file. */
static struct sp_mover *busy_mover(size_t size)
{
	struct sp_mover *m;
	ck_assert_int_eq(sp_mover_new(&m, NULL), 0);
	int in = pattern_file(size, 3), out = temp_file(0);
	struct sp_copy_args a = { .size = sizeof(a), .in_fd = in, .out_fd = out,
				  .offset = 0, .length = SP_LENGTH_EOF };
	ck_assert_int_eq(sp_copy(m, &a, NULL), (int64_t)size);
	close(in);
	close(out);
	return m;
}

START_TEST(get_stats_writes_no_further_than_the_callers_size)
{
	struct sp_mover *m = busy_mover(100000);
	unsigned char buf[STATS_1_0 + 64];
	memset(buf, CANARY, sizeof(buf));
	struct sp_stats *old = (struct sp_stats *)buf;
	old->size = STATS_1_0;
	ck_assert_int_eq(sp_get_stats(m, old), 0);
	ck_assert_uint_eq(old->size, STATS_1_0);
	ck_assert_uint_eq(old->bytes, 100000);
	ck_assert(all(buf + STATS_1_0, sizeof(buf) - STATS_1_0, CANARY));
	/* A later caller's fields the library does not know come back zero. */
	memset(buf, CANARY, sizeof(buf));
	old->size = sizeof(buf);
	ck_assert_int_eq(sp_get_stats(m, old), 0);
	ck_assert_uint_eq(old->size, sizeof(buf));
	ck_assert_uint_eq(old->bytes, 100000);
	ck_assert(all(buf + sizeof(struct sp_stats), sizeof(buf) - sizeof(struct sp_stats), 0));
	/* Smaller than 1.0's, or no size at all: refused, nothing written. */
	memset(buf, CANARY, sizeof(buf));
	old->size = STATS_1_0 - 1;
	ck_assert_int_eq(sp_get_stats(m, old), -EINVAL);
	ck_assert(all(buf + sizeof(size_t), sizeof(buf) - sizeof(size_t), CANARY));
	ck_assert_int_eq(sp_get_stats(m, NULL), -EINVAL);
	sp_mover_free(m);
}
END_TEST

START_TEST(stats_add_stays_within_both_sizes)
{
	struct sp_mover *m = busy_mover(4096);
	struct sp_stats from = stats_of(m);
	/* A 1.0 caller's total with a canary after it; from as a later
	 * release's, larger, with a field past what to knows. */
	unsigned char buf[STATS_1_0 + 64];
	memset(buf, CANARY, sizeof(buf));
	struct sp_stats *to = (struct sp_stats *)buf;
	memset(to, 0, STATS_1_0);
	to->size = STATS_1_0;
	struct {
		struct sp_stats s;
		uint64_t later;
	} newer = { .s = from, .later = 12345 };
	newer.s.size = sizeof(newer);
	ck_assert_int_eq(sp_stats_add(to, &newer.s), 0);
	ck_assert_int_eq(sp_stats_add(to, &newer.s), 0);
	ck_assert_uint_eq(to->size, STATS_1_0);
	ck_assert_uint_eq(to->bytes, 2 * 4096);
	ck_assert_uint_eq(to->syscalls, 2 * from.syscalls);
	ck_assert_uint_eq(to->elapsed_ns, from.elapsed_ns); /* the longer, not the sum */
	ck_assert(all(buf + STATS_1_0, sizeof(buf) - STATS_1_0, CANARY));
	/* A to larger than this release knows keeps its tail: the library
	 * cannot tell how to merge a field it does not know. */
	newer.s = from;
	newer.s.size = sizeof(newer);
	newer.later = 7;
	ck_assert_int_eq(sp_stats_add(&newer.s, &from), 0);
	ck_assert_uint_eq(newer.s.bytes, 2 * 4096);
	ck_assert_uint_eq(newer.later, 7);
	/* Sizes under 1.0's: nothing added. */
	from.size = 8;
	ck_assert_int_eq(sp_stats_add(to, &from), -EINVAL);
	ck_assert_uint_eq(to->bytes, 2 * 4096);
	ck_assert_int_eq(sp_stats_add(NULL, &from), -EINVAL);
	sp_mover_free(m);
}
END_TEST

/* on_error: the caller's element for the failed output is up to date
 * when the callback runs (arg: the array, 1.0's stride). */
static int element_published(size_t index, int err, void *arg)
{
	const struct sp_fanout_status *st =
		(const struct sp_fanout_status *)((const char *)arg + index * STATUS_1_0);
	ck_assert_int_eq(st->error, err);
	return 0;
}

/* The status array at a stride of stride bytes, each element's tail past
 * the struct and a canary after the last element filled with CANARY. */
static void fan_out_with_stride(size_t stride, unsigned char tail)
{
	size_t size = 300000, n = 3;
	int in = pattern_file(size, 4);
	ck_assert_int_eq(lseek(in, 0, SEEK_SET), 0);
	int outs[3] = { temp_file(0), open("/dev/full", O_WRONLY | O_CLOEXEC), temp_file(0) };
	ck_assert_int_ge(outs[1], 0);
	unsigned char *buf = malloc(n * stride + 64);
	ck_assert_ptr_nonnull(buf);
	memset(buf, CANARY, n * stride + 64);
	struct sp_mover *m;
	ck_assert_int_eq(sp_mover_new(&m, NULL), 0);
	ck_assert_int_eq(sp_fanout(m, in, outs, n, (struct sp_fanout_status *)buf, stride,
				   stride == STATUS_1_0 ? element_published : NULL, buf, NULL),
			 (int64_t)size);
	for (size_t i = 0; i < n; i++) {
		const struct sp_fanout_status *st = (const void *)(buf + i * stride);
		ck_assert_uint_eq(st->bytes, i == 1 ? 0 : size);
		ck_assert_int_eq(st->error, i == 1 ? ENOSPC : 0);
		ck_assert(all(buf + i * stride + STATUS_1_0, stride - STATUS_1_0, tail));
	}
	ck_assert(all(buf + n * stride, 64, CANARY));
	sp_mover_free(m);
	free(buf);
	for (size_t i = 0; i < n; i++)
		close(outs[i]);
	close(in);
}

START_TEST(fanout_status_elements_have_the_callers_size)
{
	/* A 1.0 caller: elements back to back, nothing written past them. */
	fan_out_with_stride(STATUS_1_0, CANARY);
	/* A later caller's larger elements: what the library does not know
	 * is cleared. */
	fan_out_with_stride(STATUS_1_0 + 24, 0);
}
END_TEST

START_TEST(fanout_refuses_a_small_element_size)
{
	struct sp_mover *m;
	ck_assert_int_eq(sp_mover_new(&m, NULL), 0);
	int in = pattern_file(10, 5), out = temp_file(0);
	struct sp_fanout_status st[1];
	ck_assert_int_eq(sp_fanout(m, in, &out, 1, st, STATUS_1_0 - 1, NULL, NULL, NULL), -EINVAL);
	ck_assert_int_eq(sp_fanout(m, in, &out, 1, st, 0, NULL, NULL, NULL), -EINVAL);
	sp_mover_free(m);
	close(in);
	close(out);
}
END_TEST

START_TEST(result_written_no_further_than_its_size)
{
	struct sp_mover *m;
	ck_assert_int_eq(sp_mover_new(&m, NULL), 0);
	int in = pattern_file(5000, 6), out = temp_file(0);
	size_t old = offsetof(struct sp_result, side) + sizeof(enum sp_side);
	unsigned char buf[sizeof(struct sp_result) + 64];
	memset(buf, CANARY, sizeof(buf));
	struct sp_result *res = (struct sp_result *)buf;
	res->size = old;
	struct sp_copy_args a = { .size = sizeof(a), .in_fd = in, .out_fd = out,
				  .offset = 0, .length = SP_LENGTH_EOF };
	ck_assert_int_eq(sp_copy(m, &a, res), 5000);
	ck_assert_uint_eq(res->bytes, 5000);
	ck_assert(all(buf + old, sizeof(buf) - old, CANARY));
	sp_mover_free(m);
	close(in);
	close(out);
}
END_TEST

/* The library's one pair of helpers behind every sized struct, with a
 * struct of this release larger than the caller's, as a later release's
 * library meets a 1.0 caller: what it writes stops at the caller's size,
 * what it reads is refused when a field it does not know is set. */
START_TEST(helpers_stop_at_the_smaller_size)
{
	struct later {
		size_t size;
		uint64_t known, added;
	} mine = { .size = sizeof(mine), .known = 1, .added = 2 };
	size_t old = offsetof(struct later, added);
	unsigned char buf[sizeof(mine) + 8];
	memset(buf, CANARY, sizeof(buf));
	struct later *caller = (struct later *)buf;
	caller->size = old;
	lsp_sized_store(caller, caller->size, &mine, sizeof(mine), sizeof(size_t));
	ck_assert_uint_eq(caller->size, old);
	ck_assert_uint_eq(caller->known, 1);
	ck_assert(all(buf + old, sizeof(buf) - old, CANARY));
	/* The other way round: a caller newer than the library. */
	memset(buf, CANARY, sizeof(buf));
	caller->size = sizeof(buf);
	lsp_sized_store(caller, caller->size, &mine, old, sizeof(size_t));
	ck_assert_uint_eq(caller->known, 1);
	ck_assert(all(buf + old, sizeof(buf) - old, 0));
	/* Reading: at least the minimum, nothing set past what is known. */
	struct later in = { .size = sizeof(in), .known = 1 };
	ck_assert(lsp_sized_valid(&in, in.size, old, old));
	ck_assert(!lsp_sized_valid(&in, in.size, sizeof(in) + 1, sizeof(in)));
	in.added = 3;
	ck_assert(!lsp_sized_valid(&in, in.size, old, old));
	ck_assert(lsp_sized_valid(&in, in.size, old, sizeof(in)));
}
END_TEST

Suite *sized_suite(void);
Suite *sized_suite(void)
{
	Suite *s = suite_create("sized structs");
	TCase *tc = tcase_create("sizes");
	tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
	tcase_add_test(tc, helpers_stop_at_the_smaller_size);
	tcase_add_test(tc, get_stats_writes_no_further_than_the_callers_size);
	tcase_add_test(tc, stats_add_stays_within_both_sizes);
	tcase_add_test(tc, fanout_status_elements_have_the_callers_size);
	tcase_add_test(tc, fanout_refuses_a_small_element_size);
	tcase_add_test(tc, result_written_no_further_than_its_size);
	suite_add_tcase(s, tc);
	return s;
}
