/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for sp_probe(): the caller's size is honoured, each page
 * verdict agrees with what this test observes of the kernel by itself
 * (its own splice and tee, written here without the library), and the
 * path verdicts agree with what the paths are known to do. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libsplice.h"
#include "harness.h"

/* Probe a new scratch directory with size into r.  Returns sp_probe()'s
 * result. */
static int probe_scratch(struct sp_probe *r, size_t size)
{
	char dir[] = "/tmp/test-probe.XXXXXX";
	if (!mkdtemp(dir))
		return -errno;
	memset(r, 0, sizeof(size_t));
	r->size = size;
	int rc = sp_probe(dir, r, NULL, 0, 0);
	rmdir(dir);
	return rc;
}

/* Probe a scratch directory into r; fails the test when it cannot. */
static void probe_here(struct sp_probe *r)
{
	ck_assert_int_eq(probe_scratch(r, sizeof(*r)), 0);
}

#define PAGES 16

/* The first byte in a pipe holding n bytes, read out with the rest. */
static int pipe_first(int fd, size_t n)
{
	char *buf = malloc(n);
	ck_assert_ptr_nonnull(buf);
	size_t got = 0;
	while (got < n) {
		ssize_t k = read(fd, buf + got, n - got);
		ck_assert_int_gt(k, 0);
		got += (size_t)k;
	}
	int first = buf[0];
	free(buf);
	return first;
}

/* What this test sees by itself, without libsplice: splice PAGES pages of
 * a file starting with 'A' into a pipe (tee_too: tee them on into a second
 * pipe and empty the first), make the 'A' a 'B', and read the (last)
 * pipe: SP_PAGES_SHARED when it shows the 'B', SP_PAGES_COPIED for 'A'. */
static enum sp_page_fate observe_splice(bool tee_too)
{
	char path[] = "/tmp/test-probe-own.XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	unlink(path);
	size_t len = PAGES * (size_t)sysconf(_SC_PAGESIZE);
	char *data = malloc(len);
	ck_assert_ptr_nonnull(data);
	memset(data, 'A', len);
	ck_assert_int_eq(pwrite(fd, data, len, 0), (ssize_t)len);
	free(data);
	int p[2], q[2];
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(pipe(q), 0);
	ck_assert_int_ge(fcntl(p[1], F_SETPIPE_SZ, (int)len), (int)len);
	ck_assert_int_ge(fcntl(q[1], F_SETPIPE_SZ, (int)len), (int)len);
	loff_t off = 0;
	ck_assert_int_eq(splice(fd, &off, p[1], NULL, len, 0), (ssize_t)len);
	int from = p[0];
	if (tee_too) {
		ck_assert_int_eq(tee(p[0], q[1], len, 0), (ssize_t)len);
		ck_assert_int_eq(pipe_first(p[0], len), 'A');
		from = q[0];
	}
	ck_assert_int_eq(pwrite(fd, "B", 1, 0), 1);
	int first = pipe_first(from, len);
	ck_assert(first == 'A' || first == 'B');
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
	close(fd);
	return first == 'B' ? SP_PAGES_SHARED : SP_PAGES_COPIED;
}

/* A caller built against a later release passes a larger struct: this
 * release fills its part and zeroes the rest. */
START_TEST(larger_size_zeroes_the_rest)
{
	size_t size = sizeof(struct sp_probe) + 64;
	unsigned char *buf = malloc(size);
	ck_assert_ptr_nonnull(buf);
	memset(buf, 0xA5, size);
	ck_assert_int_eq(probe_scratch((struct sp_probe *)buf, size), 0);
	ck_assert_uint_ne(((struct sp_probe *)buf)->page_size, 0);
	for (size_t i = sizeof(struct sp_probe); i < size; i++)
		ck_assert_uint_eq(buf[i], 0);
	free(buf);
}
END_TEST

/* Smaller than release 1.0's struct: refused. */
START_TEST(smaller_size_refused)
{
	struct sp_probe r;
	ck_assert_int_eq(probe_scratch(&r, sizeof(r) - 1), -EINVAL);
}
END_TEST

/* splice from a file into a pipe: the probe's verdict is what this test
 * sees doing the same by itself, and its evidence is the byte that says so. */
START_TEST(splice_in_verdict_matches_an_own_observation)
{
	struct sp_probe r;
	probe_here(&r);
	enum sp_page_fate seen = observe_splice(false);
	ck_assert_int_eq(r.splice_in.fate, seen);
	ck_assert_int_eq(r.evidence.splice_in.byte_after_write,
			 seen == SP_PAGES_SHARED ? 'B' : 'A');
	ck_assert_int_eq(r.splice_in.pages, PAGES);
}
END_TEST

/* tee(2) from a pipe that references the file: measured whenever the
 * splice shares, and judged as this test sees it. */
START_TEST(tee_verdict_matches_an_own_observation)
{
	struct sp_probe r;
	probe_here(&r);
	if (observe_splice(false) != SP_PAGES_SHARED) {
		ck_assert_int_eq(r.tee.fate, SP_PAGES_UNKNOWN);
		return;
	}
	enum sp_page_fate seen = observe_splice(true);
	ck_assert_int_eq(r.tee.fate, seen);
	ck_assert_int_eq(r.evidence.tee.byte_after_write, seen == SP_PAGES_SHARED ? 'B' : 'A');
}
END_TEST

/* The path verdicts: read/write and the auto policy move every byte on any
 * file system, by the path asked for (rw) or one of their own; a path the
 * kernel refuses would be told as such, never as working. */
START_TEST(path_verdicts_match_what_the_paths_do)
{
	struct sp_probe r;
	struct sp_probe_method m[2 * 9];
	memset(m, 0xA5, sizeof(m));
	char dir[] = "/tmp/test-probe.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	r.size = sizeof(r);
	ck_assert_int_eq(sp_probe(dir, &r, m, sizeof(m[0]), sizeof(m) / sizeof(m[0])), 0);
	rmdir(dir);
	ck_assert_uint_ge(r.methods_tried, 7);
	ck_assert_uint_le(r.methods_tried, sizeof(m) / sizeof(m[0]));
	size_t seen_rw = 0, seen_auto = 0;
	for (size_t i = 0; i < r.methods_tried; i++) {
		if (m[i].policy == SP_POLICY_AUTO) {
			seen_auto++;
			ck_assert_int_eq(m[i].verdict, SP_PROBE_WORKS);
			ck_assert_int_ne(m[i].used, SP_PATH_NONE);
		} else if (m[i].path == SP_PATH_RW) {
			seen_rw++;
			ck_assert_int_eq(m[i].verdict, SP_PROBE_WORKS);
			ck_assert_int_eq(m[i].used, SP_PATH_RW);
			ck_assert_uint_eq(m[i].bytes_spliced, 0);
		} else if (m[i].verdict == SP_PROBE_WORKS) {
			ck_assert_int_eq(m[i].used, m[i].path);
		} else if (m[i].verdict == SP_PROBE_FALLS_BACK) {
			ck_assert_int_ne(m[i].used, m[i].path);
		}
		if (m[i].verdict == SP_PROBE_WORKS || m[i].verdict == SP_PROBE_FALLS_BACK)
			ck_assert_uint_eq(m[i].bytes, (1u << 20) + 123);
	}
	ck_assert_uint_eq(seen_auto, 1);
	ck_assert_uint_eq(seen_rw, 1);
	/* Entries past the paths tried are cleared. */
	for (size_t i = r.methods_tried; i < sizeof(m) / sizeof(m[0]); i++)
		ck_assert_int_eq(m[i].verdict, SP_PROBE_NOT_RUN);
}
END_TEST

/* As root the page-cache move is judged by frame numbers: moved exactly
 * when a destination frame is a source frame (unless shared); otherwise
 * the frames are hidden (EPERM) and gifted pages cannot be told. */
START_TEST(page_move_verdict_follows_the_frames)
{
	struct sp_probe r;
	probe_here(&r);
	const struct sp_probe_evidence *e = &r.evidence.pagecache_move;
	if (geteuid() != 0) {
		ck_assert_int_eq(r.frames_readable, 0);
		ck_assert_int_eq(r.evidence.gift_move.frames_error, EPERM);
		ck_assert_int_eq(r.gift_move.fate, SP_PAGES_UNKNOWN);
		return;
	}
	ck_assert_int_ne(r.frames_readable, 0);
	ck_assert_int_eq(e->frames_checked, 16);
	if (r.pagecache_move.fate != SP_PAGES_SHARED)
		ck_assert_int_eq(r.pagecache_move.fate,
				 e->frames_same ? SP_PAGES_MOVED : SP_PAGES_COPIED);
}
END_TEST

/* Pages written into a pipe, spliced on outside stealfs: nothing can tell
 * whether they moved, and the probe says so. */
START_TEST(pipe_pages_outside_stealfs_cannot_be_told)
{
	struct sp_probe r;
	probe_here(&r);
	ck_assert_int_eq(r.anon_move.fate, SP_PAGES_UNKNOWN);
	ck_assert_int_eq(r.evidence.anon_move.frames_checked, -1);
}
END_TEST

/* The methods are an array of the caller's element size: a 1.0 caller's
 * array is written no further than its n elements of 1.0's size, a later
 * caller's larger elements get their unknown tail zeroed. */
START_TEST(method_elements_have_the_callers_size)
{
	size_t old = offsetof(struct sp_probe_method, pages_copied) + sizeof(int64_t);
	for (size_t stride = old; stride <= old + 16; stride += 16) {
		unsigned char buf[2 * (sizeof(struct sp_probe_method) + 16) + 64];
		memset(buf, 0xA5, sizeof(buf));
		struct sp_probe r = { .size = sizeof(r) };
		char dir[] = "/tmp/test-probe.XXXXXX";
		ck_assert_ptr_nonnull(mkdtemp(dir));
		ck_assert_int_eq(sp_probe(dir, &r, (struct sp_probe_method *)buf, stride, 2), 0);
		rmdir(dir);
		for (size_t i = 0; i < 2; i++) {
			const struct sp_probe_method *m = (const void *)(buf + i * stride);
			ck_assert_int_eq(m->policy, i ? SP_POLICY_PREFER : SP_POLICY_AUTO);
			if (i == 0)
				ck_assert_int_eq(m->verdict, SP_PROBE_WORKS);
			for (size_t k = old; k < stride; k++)
				ck_assert_uint_eq(buf[i * stride + k], 0);
		}
		for (size_t k = 2 * stride; k < sizeof(buf); k++)
			ck_assert_uint_eq(buf[k], 0xA5);
		ck_assert_int_eq(sp_probe(dir, &r, (struct sp_probe_method *)buf, old - 1, 2), -EINVAL);
	}
}
END_TEST

/* The stealfs counters' struct is sized too; without the module the
 * call says so and leaves the struct alone. */
START_TEST(stealfs_counts_sized)
{
	struct sp_stealfs_counts c = { .size = 0 };
	ck_assert_int_eq(sp_stealfs_read(&c), -EINVAL);
	ck_assert_int_eq(sp_stealfs_read(NULL), -EINVAL);
	c = (struct sp_stealfs_counts){ .size = sizeof(c), .stolen = 5 };
	int rc = sp_stealfs_read(&c);
	if (rc == -ENOENT)
		ck_assert_uint_eq(c.stolen, 5);
	else
		ck_assert_int_eq(rc, 0);
}
END_TEST

static Suite *probe_suite(void)
{
	Suite *s = suite_create("probe");
	TCase *t = tcase_create("probe");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, larger_size_zeroes_the_rest);
	tcase_add_test(t, smaller_size_refused);
	tcase_add_test(t, method_elements_have_the_callers_size);
	tcase_add_test(t, stealfs_counts_sized);
	tcase_add_test(t, splice_in_verdict_matches_an_own_observation);
	tcase_add_test(t, tee_verdict_matches_an_own_observation);
	tcase_add_test(t, path_verdicts_match_what_the_paths_do);
	tcase_add_test(t, page_move_verdict_follows_the_frames);
	tcase_add_test(t, pipe_pages_outside_stealfs_cannot_be_told);
	suite_add_tcase(s, t);
	return s;
}

Suite *(*const harness_suites[])(void) = { probe_suite, NULL };
