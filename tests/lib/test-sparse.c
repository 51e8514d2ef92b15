/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for sp_copy(SP_COPY_WHOLE): holes kept, punched or filled, into
 * files and into fds that cannot seek. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "faults.h"
#include "harness.h"
#include "libsplice.h"
#include "copy-calls.h"

#define KiB 1024
#define MiB (1024 * 1024)

/* Where the test file's data is: the rest is holes, up to SIZE. */
struct extent {
	off_t at;
	size_t len;
};
static const struct extent layout[] = {
	{ 1 * MiB, 64 * KiB },
	{ 4 * MiB, 128 * KiB + 100 },
	{ 6 * MiB, 4 * KiB },
};
#define N_EXTENTS (sizeof(layout) / sizeof(layout[0]))
#define SIZE (8 * MiB)

/* Most data extents a test looks at. */
#define MAX_EXTENTS 16

/* Make the scratch file name, size bytes long, with pattern data at the n
 * extents ext and holes elsewhere; the filesystem must keep the holes.
 * Returns its path. */
static const char *sparse_file(const char *name, off_t size, const struct extent *ext,
			       size_t n)
{
	int fd = open_scratch(name, O_WRONLY | O_TRUNC);
	for (size_t i = 0; i < n; i++) {
		char *buf = malloc(ext[i].len);
		ck_assert_ptr_nonnull(buf);
		fill_pattern(buf, ext[i].len, (unsigned)i + 1);
		ck_assert_int_eq(pwrite(fd, buf, ext[i].len, ext[i].at), (ssize_t)ext[i].len);
		free(buf);
	}
	ck_assert_int_eq(ftruncate(fd, size), 0);
	struct stat st;
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_lt(st.st_blocks, size / 512); /* this filesystem keeps holes */
	close(fd);
	return scratch_path(name);
}

/* The test file: SIZE bytes, data at layout. */
static const char *test_file(void)
{
	return sparse_file("sparse", SIZE, layout, N_EXTENTS);
}

/* The data extents of fd as (start, end) pairs in list; returns how many. */
static size_t data_extents(int fd, off_t list[][2])
{
	size_t n = 0;
	off_t size = lseek(fd, 0, SEEK_END);
	for (off_t pos = 0; pos < size && n < MAX_EXTENTS; n++) {
		off_t data = lseek(fd, pos, SEEK_DATA);
		if (data < 0) {
			ck_assert_int_eq(errno, ENXIO);
			break;
		}
		list[n][0] = data;
		list[n][1] = pos = lseek(fd, data, SEEK_HOLE);
	}
	return n;
}

/* The bytes of data (holes aside) fd holds. */
static uint64_t data_bytes(int fd)
{
	off_t list[MAX_EXTENTS][2];
	size_t n = data_extents(fd, list);
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += (uint64_t)(list[i][1] - list[i][0]);
	return total;
}

static blkcnt_t blocks(int fd)
{
	struct stat st;
	ck_assert_int_eq(fstat(fd, &st), 0);
	return st.st_blocks;
}

/* Whether the files at paths a and b hold the same bytes. */
static bool same_bytes(const char *a, const char *b)
{
	size_t na, nb;
	char *da = slurp(a, &na), *db = slurp(b, &nb);
	bool same = na == nb && memcmp(da, db, na) == 0;
	free(da);
	free(db);
	return same;
}

/* Copy the file at src into the scratch file "copy" (opened O_RDWR) as
 * how says; returns what sp_copy(SP_COPY_WHOLE) returned and the mover in *mp
 * (NULL: free it). */
static int64_t copy_to_file(const char *src, enum sp_holes how, struct sp_mover **mp)
{
	struct sp_mover *m = mover_with(NULL);
	int in = open_path(src, O_RDONLY);
	int out = open_scratch("copy", O_RDWR | O_TRUNC);
	int64_t r = copy_all(m, in, NULL, out, how, false, NULL);
	close(in);
	close(out);
	if (mp)
		*mp = m;
	else
		sp_mover_free(m);
	return r;
}

/* Copy the test file into the write end of a pipe or FIFO whose read end
 * is rd, with how; check that every byte, holes as zeros, came out.
 * Returns what sp_copy(SP_COPY_WHOLE) returned. */
static int64_t copy_to_reader(int rd, int wr, enum sp_holes how)
{
	struct sp_result res = RESULT_INIT;
	const char *src = test_file();
	struct drain *d = drain_start(rd);
	struct sp_mover *m = mover_with(NULL);
	int in = open_path(src, O_RDONLY);
	int64_t r = copy_all(m, in, NULL, wr, how, false, &res);
	close(wr);
	size_t got, want;
	char *back = drain_finish(d, &got), *data = slurp(src, &want);
	ck_assert_uint_eq(got, want);
	ck_assert(memcmp(back, data, got) == 0);
	ck_assert_uint_eq(res.bytes, SIZE);
	free(back);
	free(data);
	close(in);
	sp_mover_free(m);
	return r;
}

START_TEST(holes_kept_in_a_file)
{
	const char *src = test_file();
	int in = open_path(src, O_RDONLY);
	ck_assert_int_eq(copy_to_file(src, SP_HOLES_KEEP, NULL), (int64_t)data_bytes(in));
	int out = open_path(scratch_path("copy"), O_RDONLY);
	ck_assert(same_bytes(src, scratch_path("copy")));
	ck_assert_int_le(blocks(out), blocks(in));
	off_t want[MAX_EXTENTS][2], got[MAX_EXTENTS][2];
	size_t n = data_extents(in, want);
	ck_assert_uint_eq(n, N_EXTENTS);
	ck_assert_uint_eq(data_extents(out, got), n);
	ck_assert(memcmp(want, got, n * sizeof(want[0])) == 0);
	close(in);
	close(out);
}
END_TEST

START_TEST(trailing_hole_gives_the_exact_size)
{
	static const struct extent head = { 0, 10000 };
	const char *src = sparse_file("tail", 3 * MiB + 5, &head, 1);
	ck_assert_int_ge(copy_to_file(src, SP_HOLES_KEEP, NULL), 10000);
	int out = open_path(scratch_path("copy"), O_RDONLY);
	ck_assert_int_eq(lseek(out, 0, SEEK_END), 3 * MiB + 5);
	ck_assert_int_eq(lseek(out, 64 * KiB, SEEK_DATA), -1); /* a hole up to the end */
	ck_assert_int_eq(errno, ENXIO);
	ck_assert(same_bytes(src, scratch_path("copy")));
	close(out);
}
END_TEST

START_TEST(zero_blocks_punched)
{
	/* No holes, but 1 MiB of written zeros before and after some data. */
	char *data = calloc(1, 3 * MiB);
	ck_assert_ptr_nonnull(data);
	fill_pattern(data + MiB, 5000, 3);
	int fd = open_scratch("zeros", O_WRONLY | O_TRUNC);
	ck_assert_int_eq(pwrite(fd, data, 3 * MiB, 0), 3 * MiB);
	close(fd);
	free(data);
	const char *src = scratch_path("zeros");
	ck_assert_int_eq(copy_to_file(src, SP_HOLES_PUNCH, NULL), 3 * MiB);
	int in = open_path(src, O_RDONLY), out = open_path(scratch_path("copy"), O_RDONLY);
	ck_assert(same_bytes(src, scratch_path("copy")));
	ck_assert_int_ge(blocks(in), 3 * MiB / 512);
	ck_assert_int_le(blocks(out), 8 * KiB / 512);
	ck_assert_int_eq(lseek(out, 0, SEEK_HOLE), 0);
	ck_assert_int_eq(lseek(out, 0, SEEK_DATA), MiB);
	ck_assert_int_eq(lseek(out, 0, SEEK_END), 3 * MiB);
	close(in);
	close(out);
}
END_TEST

START_TEST(fill_writes_holes_as_zeros)
{
	const char *src = test_file();
	ck_assert_int_eq(copy_to_file(src, SP_HOLES_FILL, NULL), SIZE);
	int out = open_path(scratch_path("copy"), O_RDONLY);
	ck_assert(same_bytes(src, scratch_path("copy")));
	ck_assert_int_ge(blocks(out), SIZE / 512);
	close(out);
}
END_TEST

START_TEST(holes_as_zeros_into_a_pipe)
{
	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(copy_to_reader(p[0], p[1], SP_HOLES_KEEP), SIZE);
}
END_TEST

START_TEST(holes_as_zeros_into_a_fifo)
{
	const char *fifo = scratch_path("fifo");
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	/* A reader first, so that opening for writing does not block. */
	int rd = open_path(fifo, O_RDONLY | O_NONBLOCK);
	int wr = open_path(fifo, O_WRONLY);
	ck_assert_int_eq(fcntl(rd, F_SETFL, 0), 0);
	ck_assert_int_eq(copy_to_reader(rd, wr, SP_HOLES_PUNCH), SIZE);
}
END_TEST

START_TEST(holes_as_zeros_into_dev_null)
{
	struct sp_result res = RESULT_INIT;
	struct sp_mover *m = mover_with(NULL);
	int in = open_path(test_file(), O_RDONLY), out = open_path("/dev/null", O_WRONLY);
	ck_assert_int_eq(copy_all(m, in, NULL, out, SP_HOLES_KEEP, false, &res), SIZE);
	ck_assert_uint_eq(res.bytes, SIZE);
	ck_assert_uint_eq(stats_of(m).bytes, SIZE);
	ck_assert_int_eq(res.side, SP_SIDE_NONE);
	close(in);
	close(out);
	sp_mover_free(m);
}
END_TEST

START_TEST(holes_as_zeros_into_an_appended_file)
{
	int out = open_scratch("log", O_WRONLY | O_TRUNC);
	ck_assert_int_eq(write(out, "old\n", 4), 4);
	close(out);
	struct sp_mover *m = mover_with(NULL);
	const char *src = test_file();
	int in = open_path(src, O_RDONLY);
	out = open_scratch("log", O_WRONLY | O_APPEND);
	ck_assert_int_eq(copy_all(m, in, NULL, out, SP_HOLES_KEEP, false, NULL), SIZE);
	close(out);
	size_t got, want;
	char *back = slurp(scratch_path("log"), &got), *data = slurp(src, &want);
	ck_assert_uint_eq(got, want + 4);
	ck_assert(memcmp(back, "old\n", 4) == 0);
	ck_assert(memcmp(back + 4, data, want) == 0);
	free(back);
	free(data);
	close(in);
	sp_mover_free(m);
}
END_TEST

START_TEST(input_without_holes)
{
	const char *src = make_file("full", MiB + 3, 4, NULL);
	ck_assert_int_eq(copy_to_file(src, SP_HOLES_KEEP, NULL), MiB + 3);
	ck_assert(same_bytes(src, scratch_path("copy")));
	int in = open_path(src, O_RDONLY), out = open_path(scratch_path("copy"), O_RDONLY);
	ck_assert_int_eq(blocks(out), blocks(in));
	close(in);
	close(out);
}
END_TEST

START_TEST(empty_input)
{
	struct sp_result res = RESULT_INIT;
	const char *src = make_file("empty", 0, 0, NULL);
	struct sp_mover *m;
	ck_assert_int_eq(copy_to_file(src, SP_HOLES_KEEP, &m), 0);
	ck_assert_uint_eq(res.bytes, 0);
	int out = open_path(scratch_path("copy"), O_RDONLY);
	ck_assert_int_eq(lseek(out, 0, SEEK_END), 0);
	close(out);
	sp_mover_free(m);
}
END_TEST

START_TEST(pipe_input_copied_from_where_it_is)
{
	size_t n = 300000;
	char *data = pattern_data(n, 5);
	struct feed *f;
	int in = feed_pipe(data, n, &f);
	struct sp_mover *m = mover_with(NULL);
	int out = open_scratch("copy", O_RDWR | O_TRUNC);
	ck_assert_int_eq(copy_all(m, in, NULL, out, SP_HOLES_KEEP, false, NULL), (int64_t)n);
	feed_finish(f);
	close(in);
	close(out);
	expect_file("copy", data, n);
	free(data);
	sp_mover_free(m);
}
END_TEST

START_TEST(input_position_left_alone)
{
	struct sp_mover *m = mover_with(NULL);
	int in = open_path(test_file(), O_RDONLY), out = open_scratch("copy", O_RDWR | O_TRUNC);
	ck_assert_int_eq(lseek(in, 12345, SEEK_SET), 12345);
	ck_assert_int_gt(copy_all(m, in, NULL, out, SP_HOLES_KEEP, false, NULL), 0);
	ck_assert_int_eq(lseek(in, 0, SEEK_CUR), 12345);
	close(in);
	close(out);
	sp_mover_free(m);
}
END_TEST

START_TEST(output_written_from_its_position)
{
	struct sp_mover *m = mover_with(NULL);
	const char *src = test_file();
	int in = open_path(src, O_RDONLY), out = open_scratch("copy", O_RDWR | O_TRUNC);
	char head[4 * KiB];
	fill_pattern(head, sizeof(head), 9);
	ck_assert_int_eq(write(out, head, sizeof(head)), (ssize_t)sizeof(head));
	ck_assert_int_gt(copy_all(m, in, NULL, out, SP_HOLES_KEEP, false, NULL), 0);
	ck_assert_int_eq(lseek(out, 0, SEEK_CUR), sizeof(head) + SIZE);
	ck_assert_int_eq(lseek(out, 0, SEEK_END), sizeof(head) + SIZE);
	ck_assert_int_eq(lseek(out, sizeof(head), SEEK_DATA), sizeof(head) + layout[0].at);
	ck_assert_int_eq(sp_compare(in, 0, out, sizeof(head), SIZE), 0);
	close(in);
	close(out);
	sp_mover_free(m);
}
END_TEST

/* A progress callback that keeps the byte count it was last given. */
static int note_bytes(const struct sp_stats *s, void *arg)
{
	uint64_t *seen = arg;
	ck_assert_uint_ge(s->bytes, seen[0]);
	seen[0] = s->bytes;
	seen[1]++;
	return 0;
}

START_TEST(progress_and_totals_across_extents)
{
	struct sp_result res = RESULT_INIT;
	uint64_t seen[2] = { 0, 0 };
	struct sp_options o = { .size = sizeof(struct sp_options), .pipe_size = 64 * KiB, .progress = note_bytes, .progress_arg = seen };
	struct sp_mover *m = mover_with(&o);
	int in = open_path(test_file(), O_RDONLY), out = open_scratch("copy", O_RDWR | O_TRUNC);
	int64_t r = copy_all(m, in, NULL, out, SP_HOLES_KEEP, false, &res);
	ck_assert_int_eq(r, (int64_t)data_bytes(in));
	ck_assert_uint_eq(seen[0], (uint64_t)r);
	ck_assert_uint_ge(seen[1], N_EXTENTS);
	ck_assert_uint_eq(res.bytes, (uint64_t)r);
	ck_assert_uint_eq(stats_of(m).bytes, (uint64_t)r);
	close(in);
	close(out);
	sp_mover_free(m);
}
END_TEST

/* The bytes of the file at path, read to its end (whatever its size
 * says); their count in *n. */
static char *read_to_end(const char *path, size_t *n)
{
	size_t cap = 64 * KiB;
	char *buf = malloc(cap);
	ck_assert_ptr_nonnull(buf);
	int fd = open_path(path, O_RDONLY);
	ssize_t got;
	*n = 0;
	while ((got = read(fd, buf + *n, cap - *n)) > 0) {
		*n += (size_t)got;
		ck_assert_uint_lt(*n, cap);
	}
	ck_assert_int_eq(got, 0);
	close(fd);
	return buf;
}

/* Copy the pseudo-file path (a size, no blocks) with sp_copy(SP_COPY_WHOLE) in
 * each hole policy and check that the copy is what reading it to its end
 * gives, not its st_size padded with zeros.  Returns false when path is
 * not such a file here (the check is then left out). */
static bool copies_pseudo_file(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size == 0 || st.st_blocks)
		return false;
	size_t want_len;
	char *want = read_to_end(path, &want_len);
	ck_assert_uint_lt(want_len, (size_t)st.st_size); /* the size is a guess */
	for (int how = SP_HOLES_KEEP; how <= SP_HOLES_FILL; how++) {
		ck_assert_int_eq(copy_to_file(path, (enum sp_holes)how, NULL), (int64_t)want_len);
		size_t got_len;
		char *got = read_to_end(scratch_path("copy"), &got_len);
		ck_assert_uint_eq(got_len, want_len);
		ck_assert(memcmp(got, want, want_len) == 0);
		free(got);
	}
	free(want);
	return true;
}

/* A /sys file: 4096 bytes by fstat(2), no blocks, SEEK_HOLE at 4096, a
 * few bytes of text (issue 23: the copy was 4096 bytes, NULs after the
 * text).  A /proc file whose size is its length: SEEK_DATA refused
 * (EINVAL), which failed the copy. */
START_TEST(pseudo_files_read_to_their_end)
{
	copies_pseudo_file("/sys/kernel/mm/transparent_hugepage/enabled");
	copies_pseudo_file("/sys/kernel/mm/transparent_hugepage/defrag");
	struct stat st;
	if (stat("/proc/cmdline", &st) == 0 && st.st_size > 0 && !st.st_blocks) {
		size_t want_len, got_len;
		char *want = read_to_end("/proc/cmdline", &want_len);
		ck_assert_int_eq(copy_to_file("/proc/cmdline", SP_HOLES_KEEP, NULL),
				 (int64_t)want_len);
		char *got = read_to_end(scratch_path("copy"), &got_len);
		ck_assert_uint_eq(got_len, want_len);
		ck_assert(memcmp(got, want, want_len) == 0);
		free(got);
		free(want);
	}
}
END_TEST

/* Splice calls of a file-to-file copy alternate input -> private pipe,
 * private pipe -> output: the third is the second extent's first read. */
static void splice3_eio(void) { fault_inject(FAULT_SPLICE, 3, 1, EIO); }

START_TEST(input_error_mid_way)
{
	struct sp_result res = RESULT_INIT;
	struct sp_mover *m = mover_with(NULL);
	int in = open_path(test_file(), O_RDONLY), out = open_scratch("copy", O_RDWR | O_TRUNC);
	off_t list[MAX_EXTENTS][2];
	ck_assert_uint_eq(data_extents(in, list), N_EXTENTS);
	fault_reset();
	splice3_eio();
	int64_t r = copy_all(m, in, NULL, out, SP_HOLES_KEEP, false, &res);
	fault_reset();
	ck_assert_int_eq(r, -EIO);
	ck_assert_int_eq(res.side, SP_SIDE_INPUT);
	ck_assert_uint_eq(res.bytes, (uint64_t)(list[0][1] - list[0][0]));
	close(in);
	close(out);
	sp_mover_free(m);
}
END_TEST

START_TEST(unknown_hole_policy_refused)
{
	struct sp_mover *m = mover_with(NULL);
	ck_assert_int_eq(copy_all(m, 0, NULL, 1, (enum sp_holes)(SP_HOLES_FILL + 1), false, NULL), -EINVAL);
	sp_mover_free(m);
}
END_TEST

START_TEST(no_mover_refused)
{
	ck_assert_int_eq(copy_all(NULL, 0, NULL, 1, SP_HOLES_KEEP, false, NULL), -EINVAL);
}
END_TEST

/* Copy the test file into a new scratch file "new" with sp_copy(SP_COPY_WHOLE | SP_COPY_NEW_OUTPUT)
 * (with_stat: given the input's fstat and the output's file system, the
 * directory's st_dev, as a copying program knows them), holes kept; check
 * the bytes and return the system calls the mover made. */
static uint64_t copy_to_new_file(bool with_stat)
{
	const char *src = test_file();
	struct sp_mover *m = mover_with(NULL);
	int in = open_path(src, O_RDONLY);
	struct stat st;
	ck_assert_int_eq(fstat(in, &st), 0);
	unlink(scratch_path("new"));
	int out = open_path(scratch_path("new"), O_RDWR | O_CREAT | O_EXCL);
	struct stat dir;
	ck_assert_int_eq(stat(scratch_path("."), &dir), 0);
	struct stat out_st = { .st_mode = S_IFREG, .st_dev = dir.st_dev };
	struct sp_copy_args a = { .size = sizeof(a), .in_fd = in, .out_fd = out,
				  .flags = SP_COPY_WHOLE | SP_COPY_NEW_OUTPUT,
				  .in_st = with_stat ? &st : NULL, .out_st = with_stat ? &out_st : NULL };
	ck_assert_int_eq(sp_copy(m, &a, NULL), (int64_t)data_bytes(in));
	ck_assert(same_bytes(src, scratch_path("new")));
	ck_assert_int_eq(lseek(out, 0, SEEK_CUR), SIZE); /* left after the copy */
	uint64_t calls = stats_of(m).syscalls;
	close(in);
	close(out);
	sp_mover_free(m);
	return calls;
}

/* Into a file it is told is new, the copy asks nothing about it but its
 * file system (flags, position: two calls fewer than sp_copy(SP_COPY_WHOLE)),
 * and given that and the input's fstat, nothing at all (two more fewer). */
START_TEST(copy_to_new_asks_less)
{
	struct sp_mover *m;
	int in = open_path(test_file(), O_RDONLY);
	ck_assert_int_eq(copy_to_file(test_file(), SP_HOLES_KEEP, &m), (int64_t)data_bytes(in));
	close(in);
	uint64_t sparse_calls = stats_of(m).syscalls;
	sp_mover_free(m);
	ck_assert_uint_eq(copy_to_new_file(false), sparse_calls - 2);
	ck_assert_uint_eq(copy_to_new_file(true), sparse_calls - 4);
}
END_TEST

/* Clone the test file into a new scratch file with flags (SP_COPY_CLONE or
 * SP_COPY_CLONE_ONLY) and mover m; res gets the outcome.  Returns what
 * sp_copy() returned; on success the copy has the same bytes. */
static int64_t clone_to_new_file(struct sp_mover *m, unsigned flags, struct sp_result *res)
{
	const char *src = test_file();
	int in = open_path(src, O_RDONLY);
	unlink(scratch_path("clone"));
	int out = open_path(scratch_path("clone"), O_RDWR | O_CREAT | O_EXCL);
	struct sp_copy_args a = { .size = sizeof(a), .in_fd = in, .out_fd = out,
				  .flags = SP_COPY_WHOLE | SP_COPY_NEW_OUTPUT | flags };
	int64_t r = sp_copy(m, &a, res);
	if (r >= 0)
		ck_assert(same_bytes(src, scratch_path("clone")));
	close(in);
	close(out);
	return r;
}

/* FICLONE is the first rung: where the file system clones, the copy is a
 * clone; where it refuses, the data is copied, and the pair of file
 * systems is not asked again; SP_COPY_CLONE_ONLY fails instead, with the
 * clone as its path. */
START_TEST(clone_first_then_copy)
{
	struct sp_mover *m = mover_with(NULL);
	struct sp_result res = RESULT_INIT;
	int64_t r = clone_to_new_file(m, SP_COPY_CLONE, &res);
	ck_assert_int_ge(r, 0);
	if (res.path == SP_PATH_CLONE) { /* btrfs, XFS: a clone every time */
		ck_assert_int_eq(clone_to_new_file(m, SP_COPY_CLONE_ONLY, &res), r);
		ck_assert_int_eq(res.path, SP_PATH_CLONE);
		sp_mover_free(m);
		return;
	}
	/* Asked again, the pair costs no more calls than a copy without a
	 * clone: FICLONE is not asked again. */
	uint64_t before = stats_of(m).syscalls;
	ck_assert_int_eq(clone_to_new_file(m, SP_COPY_CLONE, &res), r);
	uint64_t memo = stats_of(m).syscalls - before;
	ck_assert_int_ne(res.path, SP_PATH_CLONE);
	before = stats_of(m).syscalls;
	ck_assert_int_eq(clone_to_new_file(m, 0, &res), r);
	ck_assert_uint_eq(memo, stats_of(m).syscalls - before);
	ck_assert_int_lt(clone_to_new_file(m, SP_COPY_CLONE_ONLY, &res), 0);
	ck_assert_int_eq(res.path, SP_PATH_CLONE);
	ck_assert_int_eq(res.side, SP_SIDE_NONE);
	ck_assert_uint_eq(res.bytes, 0);
	sp_mover_free(m);
}
END_TEST

/* Whether the file at fd is on a file system that keeps a file's length
 * in its inode, where a whole copy stops at the size it was given. */
static bool size_is_exact(int fd)
{
	struct statfs sf;
	ck_assert_int_eq(fstatfs(fd, &sf), 0);
	switch ((unsigned long)sf.f_type) {
	case TMPFS_MAGIC:
	case EXT4_SUPER_MAGIC:
	case XFS_SUPER_MAGIC:
	case BTRFS_SUPER_MAGIC:
		return true;
	}
	return false;
}

/* Copy the file at src, seen as st, whole into the scratch file "copy";
 * *calls gets the calls the mover made to move data. */
static int64_t copy_seen(const char *src, const struct stat *st, uint64_t *calls)
{
	struct sp_mover *m = mover_with(NULL);
	int in = open_path(src, O_RDONLY);
	int out = open_scratch("copy", O_RDWR | O_TRUNC);
	int64_t r = copy_all(m, in, st, out, SP_HOLES_KEEP, false, NULL);
	struct sp_stats s = stats_of(m);
	*calls = s.copy_file_range_calls + s.sendfile_calls + s.splice_calls + s.read_calls +
		 s.write_calls;
	close(in);
	close(out);
	sp_mover_free(m);
	return r;
}

/* Given the input's fstat, a whole copy on tmpfs, ext4, XFS or btrfs asks
 * for the bytes the size says and no more: one call fewer than reading to
 * the end, as it does for a file whose size is unknown (0), on whichever
 * path the mover takes.  A file that
 * grew since it was looked at is copied as it was; one that shrank, to
 * its new end.  Anywhere else the copy reads to the end. */
START_TEST(size_is_where_the_copy_ends)
{
	char src[512];
	snprintf(src, sizeof(src), "%s", make_file("sized", 64 * KiB, 5, NULL));
	int fd = open_path(src, O_RDWR);
	bool exact = size_is_exact(fd);
	struct stat st, unknown;
	ck_assert_int_eq(fstat(fd, &st), 0);
	unknown = st;
	unknown.st_size = 0;
	uint64_t calls, calls_to_end;
	ck_assert_int_eq(copy_seen(src, &st, &calls), 64 * KiB);
	ck_assert(same_bytes(src, scratch_path("copy")));
	ck_assert_int_eq(copy_seen(src, &unknown, &calls_to_end), 64 * KiB);
	ck_assert(same_bytes(src, scratch_path("copy")));
	ck_assert_uint_eq(calls, exact ? calls_to_end - 1 : calls_to_end);
	/* Grown by 100 bytes since st. */
	char more[100];
	memset(more, 'x', sizeof(more));
	ck_assert_int_eq(pwrite(fd, more, sizeof(more), 64 * KiB), (ssize_t)sizeof(more));
	ck_assert_int_eq(copy_seen(src, &st, &calls), exact ? 64 * KiB : 64 * KiB + 100);
	ck_assert_int_eq(copy_seen(src, NULL, &calls), 64 * KiB + 100);
	ck_assert(same_bytes(src, scratch_path("copy")));
	/* Shrunk to 10,000 bytes since st: to the new end, without an error. */
	ck_assert_int_eq(ftruncate(fd, 10000), 0);
	ck_assert_int_eq(copy_seen(src, &st, &calls), 10000);
	ck_assert(same_bytes(src, scratch_path("copy")));
	/* And emptied: nothing, without an error. */
	ck_assert_int_eq(ftruncate(fd, 0), 0);
	ck_assert_int_eq(copy_seen(src, &st, &calls), 0);
	close(fd);
}
END_TEST

Suite *sparse_suite(void);
Suite *sparse_suite(void)
{
	Suite *s = suite_create("sp_copy whole");
	TCase *tc = tcase_create("holes");
	tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, holes_kept_in_a_file);
	tcase_add_test(tc, trailing_hole_gives_the_exact_size);
	tcase_add_test(tc, zero_blocks_punched);
	tcase_add_test(tc, fill_writes_holes_as_zeros);
	tcase_add_test(tc, holes_as_zeros_into_a_pipe);
	tcase_add_test(tc, holes_as_zeros_into_a_fifo);
	tcase_add_test(tc, holes_as_zeros_into_dev_null);
	tcase_add_test(tc, holes_as_zeros_into_an_appended_file);
	tcase_add_test(tc, input_without_holes);
	tcase_add_test(tc, empty_input);
	tcase_add_test(tc, pipe_input_copied_from_where_it_is);
	tcase_add_test(tc, input_position_left_alone);
	tcase_add_test(tc, output_written_from_its_position);
	tcase_add_test(tc, progress_and_totals_across_extents);
	tcase_add_test(tc, input_error_mid_way);
	tcase_add_test(tc, unknown_hole_policy_refused);
	tcase_add_test(tc, no_mover_refused);
	tcase_add_test(tc, copy_to_new_asks_less);
	tcase_add_test(tc, clone_first_then_copy);
	tcase_add_test(tc, pseudo_files_read_to_their_end);
	tcase_add_test(tc, size_is_where_the_copy_ends);
	suite_add_tcase(s, tc);
	return s;
}
