/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for sp_stats_add(): every field of struct sp_stats merged by
 * its own rule, and no field left without one. */
#include "config.h"

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "libsplice.h"

/* How sp_stats_add() merges a field: counts add up; the time is the longer
 * of the two (the movers ran at once); buffer sizes are the larger. */
enum merge { SUM, LARGER };

/* The one list of the fields and their rules.  A field added to struct
 * sp_stats without an entry here fails stats_rules_cover_the_struct. */
#define FIELD(name, rule) { offsetof(struct sp_stats, name), sizeof(((struct sp_stats *)0)->name), #name, rule }
static const struct field {
	size_t offset, size;
	const char *name;
	enum merge rule;
} fields[] = {
	FIELD(bytes, SUM),
	FIELD(bytes_spliced, SUM),
	FIELD(bytes_copied, SUM),
	FIELD(syscalls, SUM),
	FIELD(splice_calls, SUM),
	FIELD(tee_calls, SUM),
	FIELD(vmsplice_calls, SUM),
	FIELD(read_calls, SUM),
	FIELD(write_calls, SUM),
	FIELD(poll_calls, SUM),
	FIELD(fallbacks, SUM),
	FIELD(elapsed_ns, LARGER),
	FIELD(copy_file_range_calls, SUM),
	FIELD(sendfile_calls, SUM),
	FIELD(pipe_size, LARGER),
	FIELD(socket_buffer, LARGER),
};
#undef FIELD
#define N_FIELDS (sizeof(fields) / sizeof(fields[0]))

static uint64_t get(const struct sp_stats *s, const struct field *f)
{
	uint64_t v;
	memcpy(&v, (const char *)s + f->offset, sizeof(v));
	return v;
}

static void set(struct sp_stats *s, const struct field *f, uint64_t v)
{
	memcpy((char *)s + f->offset, &v, sizeof(v));
}

/* Every byte of struct sp_stats belongs to exactly one listed field. */
START_TEST(stats_rules_cover_the_struct)
{
	unsigned char owner[sizeof(struct sp_stats)] = { 0 };
	/* The size header is the caller's, not merged. */
	memset(owner + offsetof(struct sp_stats, size), 1, sizeof(((struct sp_stats *)0)->size));
	for (size_t i = 0; i < N_FIELDS; i++) {
		ck_assert_msg(fields[i].size == sizeof(uint64_t), "%s: not a uint64_t", fields[i].name);
		for (size_t b = fields[i].offset; b < fields[i].offset + fields[i].size; b++) {
			ck_assert_msg(!owner[b], "%s: overlaps another field", fields[i].name);
			owner[b] = 1;
		}
	}
	for (size_t b = 0; b < sizeof(owner); b++)
		ck_assert_msg(owner[b], "struct sp_stats: byte %zu is in no field listed in test-stats.c", b);
}
END_TEST

/* Each field on its own: distinct values everywhere, so that a field
 * dropped, merged by the wrong rule or taken from a neighbour shows. */
static void check_merge(bool from_larger)
{
	struct sp_stats to, from;
	memset(&to, 0, sizeof(to));
	memset(&from, 0, sizeof(from));
	to.size = from.size = sizeof(struct sp_stats);
	for (size_t i = 0; i < N_FIELDS; i++) {
		uint64_t small = 1000 + 17 * i, large = 100000 + 31 * i;
		set(&to, &fields[i], from_larger ? small : large);
		set(&from, &fields[i], from_larger ? large : small);
	}
	struct sp_stats before_to = to, before_from = from;
	ck_assert_int_eq(sp_stats_add(&to, &from), 0);
	ck_assert_msg(memcmp(&from, &before_from, sizeof(from)) == 0, "the source was changed");
	for (size_t i = 0; i < N_FIELDS; i++) {
		uint64_t a = get(&before_to, &fields[i]), b = get(&from, &fields[i]);
		uint64_t want = fields[i].rule == SUM ? a + b : a > b ? a : b;
		ck_assert_msg(get(&to, &fields[i]) == want, "%s: %llu merged with %llu gave %llu, not %llu",
			      fields[i].name, (unsigned long long)a, (unsigned long long)b,
			      (unsigned long long)get(&to, &fields[i]), (unsigned long long)want);
	}
}

START_TEST(stats_merge_each_field_source_larger)
{
	check_merge(true);
}
END_TEST

START_TEST(stats_merge_each_field_target_larger)
{
	check_merge(false);
}
END_TEST

/* Adding an empty set changes nothing; adding to an empty set copies. */
START_TEST(stats_merge_with_zeros)
{
	struct sp_stats zero, s, t;
	memset(&zero, 0, sizeof(zero));
	memset(&s, 0, sizeof(s));
	zero.size = s.size = sizeof(struct sp_stats);
	for (size_t i = 0; i < N_FIELDS; i++)
		set(&s, &fields[i], 7 + i);
	t = s;
	ck_assert_int_eq(sp_stats_add(&t, &zero), 0);
	ck_assert(memcmp(&t, &s, sizeof(s)) == 0);
	t = zero;
	ck_assert_int_eq(sp_stats_add(&t, &s), 0);
	ck_assert(memcmp(&t, &s, sizeof(s)) == 0);
}
END_TEST

Suite *stats_suite(void);
Suite *stats_suite(void)
{
	Suite *s = suite_create("sp_stats_add");
	TCase *tc = tcase_create("fields");
	tcase_add_test(tc, stats_rules_cover_the_struct);
	tcase_add_test(tc, stats_merge_each_field_source_larger);
	tcase_add_test(tc, stats_merge_each_field_target_larger);
	tcase_add_test(tc, stats_merge_with_zeros);
	suite_add_tcase(s, tc);
	return s;
}
