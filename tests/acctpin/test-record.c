/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for acctpin's acct_v3 decoder (src/acctpin/record.c). */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/acct.h>

#include "acctpin.h"
#include "harness.h"

/* A valid record as the kernel writes it for a forked child that called _exit(3). */
static void sample(struct acct_v3 *a)
{
	memset(a, 0, sizeof *a);
	a->ac_flag = AFORK;
	a->ac_version = 3 | ACCT_BYTEORDER;
	a->ac_tty = 136 << 8 | 2;
	a->ac_exitcode = 3 << 8;
	a->ac_uid = 1000;
	a->ac_gid = 100;
	a->ac_pid = 4242;
	a->ac_ppid = 1;
	a->ac_btime = 1764732000;
	a->ac_etime = 250.0f;
	a->ac_utime = 100;
	a->ac_stime = (1 << 13) | 5;   /* 5 * 8 */
	a->ac_mem = (2 << 13) | 2476;  /* 2476 * 64 */
	a->ac_minflt = (7u << 13) | 0x1fff;
	strcpy(a->ac_comm, "apm-plain-1");
}

START_TEST(comp_t_expands)
{
	ck_assert_uint_eq(ap_comp_decode(0), 0);
	ck_assert_uint_eq(ap_comp_decode(1), 1);
	ck_assert_uint_eq(ap_comp_decode(0x1fff), 8191);
	ck_assert_uint_eq(ap_comp_decode(1 << 13 | 1), 8);
	ck_assert_uint_eq(ap_comp_decode(2 << 13 | 3), 192);
	ck_assert_uint_eq(ap_comp_decode(0xffff), (uint64_t)8191 << 21);
}
END_TEST

START_TEST(decodes_every_field)
{
	struct acct_v3 a;
	struct ap_record r;
	char why[120];
	sample(&a);
	ck_assert_int_eq(ap_record_decode((const unsigned char *)&a, &r, why, sizeof why), 0);
	ck_assert_uint_eq(r.flags, AFORK);
	ck_assert_uint_eq(r.version, 3);
	ck_assert_uint_eq(r.tty, 136 << 8 | 2);
	ck_assert_uint_eq(r.exitcode, 768);
	ck_assert_uint_eq(r.uid, 1000);
	ck_assert_uint_eq(r.gid, 100);
	ck_assert_uint_eq(r.pid, 4242);
	ck_assert_uint_eq(r.ppid, 1);
	ck_assert_uint_eq(r.btime, 1764732000);
	ck_assert(r.etime == 250.0f);
	ck_assert_uint_eq(r.utime, 100);
	ck_assert_uint_eq(r.stime, 40);
	ck_assert_uint_eq(r.mem, 2476 * 64);
	ck_assert_uint_eq(r.minflt, (uint64_t)8191 << 21);
	ck_assert_str_eq(r.comm, "apm-plain-1");
}
END_TEST

START_TEST(full_length_name)
{
	struct acct_v3 a;
	struct ap_record r;
	char why[120];
	sample(&a);
	memset(a.ac_comm, 0, sizeof a.ac_comm);
	memcpy(a.ac_comm, "abcdefghijklmno", 15);
	ck_assert_int_eq(ap_record_decode((const unsigned char *)&a, &r, why, sizeof why), 0);
	ck_assert_str_eq(r.comm, "abcdefghijklmno");
}
END_TEST

/* Decode a, which must be refused; returns the reason. */
static const char *refusal(const struct acct_v3 *a)
{
	static char why[120];
	struct ap_record r;
	ck_assert_int_eq(ap_record_decode((const unsigned char *)a, &r, why, sizeof why), -EINVAL);
	return why;
}

START_TEST(refuses_other_version)
{
	struct acct_v3 a;
	sample(&a);
	a.ac_version = 2;
	ck_assert_str_eq(refusal(&a), "record of version 2; only version 3 (acct_v3) is supported");
}
END_TEST

START_TEST(refuses_other_byte_order)
{
	struct acct_v3 a;
	sample(&a);
	a.ac_version = (char)(3 | (ACCT_BYTEORDER ^ 0x80));
	ck_assert_ptr_nonnull(strstr(refusal(&a), "other byte order"));
}
END_TEST

START_TEST(refuses_unknown_flags)
{
	struct acct_v3 a;
	sample(&a);
	a.ac_flag = (char)0x40;
	ck_assert_str_eq(refusal(&a), "unknown flag bits 0x40");
}
END_TEST

START_TEST(refuses_unterminated_name)
{
	struct acct_v3 a;
	sample(&a);
	memset(a.ac_comm, 'x', sizeof a.ac_comm);
	ck_assert_str_eq(refusal(&a), "command name is not a NUL-padded string");
}
END_TEST

START_TEST(refuses_garbage_after_name)
{
	struct acct_v3 a;
	sample(&a);
	a.ac_comm[14] = 'z';   /* garbage after the terminating NUL */
	ck_assert_str_eq(refusal(&a), "command name is not a NUL-padded string");
}
END_TEST

START_TEST(refuses_empty_name)
{
	struct acct_v3 a;
	sample(&a);
	memset(a.ac_comm, 0, sizeof a.ac_comm);   /* no name at all */
	ck_assert_str_eq(refusal(&a), "command name is not a NUL-padded string");
}
END_TEST

/* A FILE holding n sample records followed by extra bytes of a record. */
static FILE *file_of(size_t n, size_t extra)
{
	FILE *f = tmpfile();
	ck_assert_ptr_nonnull(f);
	struct acct_v3 a;
	sample(&a);
	for (size_t i = 0; i < n; i++)
		ck_assert_uint_eq(fwrite(&a, sizeof a, 1, f), 1);
	ck_assert_uint_eq(fwrite(&a, 1, extra, f), extra);
	rewind(f);
	return f;
}

/* Read whole records from f, each one must come back (1); return what
 * the read after them returns, with its message in msg. */
static int read_after(FILE *f, int whole, uint64_t *offset, char msg[200])
{
	struct ap_record r;
	*offset = 0;
	for (int i = 0; i < whole; i++)
		ck_assert_int_eq(ap_record_read(f, offset, &r, msg, 200), 1);
	ck_assert_uint_eq(*offset, (uint64_t)whole * AP_RECORD_SIZE);
	int rc = ap_record_read(f, offset, &r, msg, 200);
	fclose(f);
	return rc;
}

START_TEST(reads_until_truncation)
{
	uint64_t offset;
	char msg[200];
	ck_assert_int_eq(read_after(file_of(2, 10), 2, &offset, msg), -EINVAL);
	ck_assert_str_eq(msg, "truncated record at byte offset 128 (10 of 64 bytes)");
}
END_TEST

START_TEST(clean_end_after_records)
{
	uint64_t offset;
	char msg[200];
	ck_assert_int_eq(read_after(file_of(1, 0), 1, &offset, msg), 0);
	ck_assert_uint_eq(offset, AP_RECORD_SIZE);
}
END_TEST

START_TEST(empty_file_ends_at_once)
{
	uint64_t offset;
	char msg[200];
	ck_assert_int_eq(read_after(file_of(0, 0), 0, &offset, msg), 0);
	ck_assert_uint_eq(offset, 0);
}
END_TEST

START_TEST(bad_record_names_offset)
{
	FILE *f = file_of(1, 0);
	struct acct_v3 a;
	sample(&a);
	a.ac_version = 1;
	fseek(f, 0, SEEK_END);
	fwrite(&a, sizeof a, 1, f);
	rewind(f);
	uint64_t offset;
	char msg[200];
	ck_assert_int_eq(read_after(f, 1, &offset, msg), -EINVAL);
	ck_assert_str_eq(msg, "bad record at byte offset 64: record of version 1; only version 3 "
			      "(acct_v3) is supported");
}
END_TEST

/* A file of three sample records (pids 100, 101, 102) and 5 bytes of a
 * fourth, at path (a mkstemp template). */
static void three_and_a_bit(char *path)
{
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	struct acct_v3 a;
	sample(&a);
	for (int i = 0; i < 3; i++) {
		a.ac_pid = 100 + (unsigned)i;
		ck_assert_int_eq(write(fd, &a, sizeof a), sizeof a);
	}
	ck_assert_int_eq(write(fd, &a, 5), 5);
	close(fd);
}

START_TEST(loads_from_offset_until_damage)
{
	char path[] = "/tmp/test-acctpin-record.XXXXXX";
	three_and_a_bit(path);
	struct ap_records recs;
	ck_assert_int_eq(ap_records_load(path, 64, 100, &recs), 0);
	unlink(path);
	ck_assert_uint_eq(recs.n, 2);
	ck_assert(recs.damaged);
	ck_assert_str_eq(recs.error, "truncated record at byte offset 192 (5 of 64 bytes)");
	ap_records_free(&recs);
}
END_TEST

START_TEST(finds_by_pid_and_name)
{
	char path[] = "/tmp/test-acctpin-record.XXXXXX";
	three_and_a_bit(path);
	struct ap_records recs;
	ck_assert_int_eq(ap_records_load(path, 64, 100, &recs), 0);
	unlink(path);
	ck_assert_int_eq(ap_records_find(&recs, 102, "apm-plain-1"), 1);
	ck_assert_int_eq(ap_records_find(&recs, 100, "apm-plain-1"), -1);
	ck_assert_int_eq(ap_records_find(&recs, 101, "other"), -1);
	ap_records_free(&recs);
}
END_TEST

START_TEST(load_stops_at_max)
{
	char path[] = "/tmp/test-acctpin-record.XXXXXX";
	three_and_a_bit(path);
	struct ap_records recs;
	ck_assert_int_eq(ap_records_load(path, 0, 2, &recs), 0);
	unlink(path);
	ck_assert(recs.damaged);
	ck_assert_uint_eq(recs.n, 2);
	ap_records_free(&recs);
}
END_TEST

START_TEST(load_of_missing_file_fails)
{
	char path[] = "/tmp/test-acctpin-record.XXXXXX";
	three_and_a_bit(path);
	unlink(path);
	struct ap_records recs;
	ck_assert_int_eq(ap_records_load(path, 0, 2, &recs), -ENOENT);
}
END_TEST

static Suite *record_suite(void)
{
	Suite *s = suite_create("acctpin-record");
	TCase *tc = tcase_create("decode");
	tcase_add_test(tc, comp_t_expands);
	tcase_add_test(tc, decodes_every_field);
	tcase_add_test(tc, full_length_name);
	tcase_add_test(tc, refuses_other_version);
	tcase_add_test(tc, refuses_other_byte_order);
	tcase_add_test(tc, refuses_unknown_flags);
	tcase_add_test(tc, refuses_unterminated_name);
	tcase_add_test(tc, refuses_garbage_after_name);
	tcase_add_test(tc, refuses_empty_name);
	tcase_add_test(tc, reads_until_truncation);
	tcase_add_test(tc, clean_end_after_records);
	tcase_add_test(tc, empty_file_ends_at_once);
	tcase_add_test(tc, bad_record_names_offset);
	tcase_add_test(tc, loads_from_offset_until_damage);
	tcase_add_test(tc, finds_by_pid_and_name);
	tcase_add_test(tc, load_stops_at_max);
	tcase_add_test(tc, load_of_missing_file_fails);
	suite_add_tcase(s, tc);
	return s;
}

Suite *(*const harness_suites[])(void) = { record_suite, NULL };
