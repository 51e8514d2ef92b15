/* Unit tests for sp_probe(): the caller's size is honoured, and each
 * page verdict agrees with the evidence it reports (the byte read back
 * after the source changed, frame numbers as root). */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libsplice.h"

/* Probe a new scratch directory with size into r.  Returns sp_probe()'s
 * result. */
static int probe_scratch(struct sp_probe *r, size_t size)
{
	char dir[] = "/tmp/test-probe.XXXXXX";
	if (!mkdtemp(dir))
		return -errno;
	int rc = sp_probe(dir, r, size, NULL, 0);
	rmdir(dir);
	return rc;
}

/* Probe a scratch directory into r; fails the test when it cannot. */
static void probe_here(struct sp_probe *r)
{
	ck_assert_int_eq(probe_scratch(r, sizeof(*r)), 0);
}

/* The verdict of a write-after-splice measurement is what its byte shows:
 * 'B' shared, 'A' copied. */
static void verdict_follows_byte(const struct sp_probe_pages *p, const struct sp_probe_evidence *e)
{
	ck_assert(e->byte_after_write == 'A' || e->byte_after_write == 'B');
	ck_assert_int_eq(p->fate, e->byte_after_write == 'B' ? SP_PAGES_SHARED : SP_PAGES_COPIED);
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

/* Smaller than release 0.2's struct: refused. */
START_TEST(smaller_size_refused)
{
	struct sp_probe r;
	ck_assert_int_eq(probe_scratch(&r, sizeof(r) - 1), -EINVAL);
}
END_TEST

/* splice from a file into a pipe: "shared" exactly when the pipe showed the
 * 'B' written to the file after the splice. */
START_TEST(splice_in_verdict_follows_the_byte_read_back)
{
	struct sp_probe r;
	probe_here(&r);
	verdict_follows_byte(&r.splice_in, &r.evidence.splice_in);
}
END_TEST

/* tee(2) is measured whenever the pipe it copies from references the file. */
START_TEST(tee_measured_when_the_pipe_shares)
{
	struct sp_probe r;
	probe_here(&r);
	if (r.splice_in.fate == SP_PAGES_SHARED)
		verdict_follows_byte(&r.tee, &r.evidence.tee);
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

static Suite *probe_suite(void)
{
	Suite *s = suite_create("probe");
	TCase *t = tcase_create("probe");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, larger_size_zeroes_the_rest);
	tcase_add_test(t, smaller_size_refused);
	tcase_add_test(t, splice_in_verdict_follows_the_byte_read_back);
	tcase_add_test(t, tee_measured_when_the_pipe_shares);
	tcase_add_test(t, page_move_verdict_follows_the_frames);
	tcase_add_test(t, pipe_pages_outside_stealfs_cannot_be_told);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(probe_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
