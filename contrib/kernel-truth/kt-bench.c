/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kt-bench - one timed data movement for `make kernel-truth`: only the
 * splice loop is timed (clock_gettime around it), not the program's start,
 * the creation of the files or the filling of the pipe.
 *
 *   kt-bench pipe SIZE DST [-M]   write(2) SIZE bytes into a pipe grown to
 *                                 hold them, then time splicing the pipe into
 *                                 DST (created before)
 *   kt-bench file SRC DST [-M]    read SRC once (into the page cache), then
 *                                 time SRC -> private pipe -> DST
 *   kt-bench frames SRC DST [-M]  the file case, with the physical frames of
 *                                 SRC's cached pages read (through a mapping
 *                                 removed before the move) and compared with
 *                                 DST's after it; then SRC's first byte is
 *                                 rewritten and DST's read back
 *   -M: SPLICE_F_MOVE on the splice into DST.
 * Prints "ns NANOSECONDS bytes BYTES"; frames adds "frames SAME CHECKED" (DST
 * pages whose frame was SRC's, of the pages whose frames both could be read;
 * root) and "after-write B" when DST's first byte changed with SRC's, else
 * "after-write A" (SRC is written: its first byte is left changed).  Exit
 * 0, 1 on an error, 2 on usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* Bytes a splice call asks for. */
#define CHUNK (1u << 20)

/* The file case's pipe, when the kernel grants it: a 2 MiB (PMD-size)
 * page-cache folio must be in the pipe whole for stealfs to take it, and
 * the splice into DST must ask for all of it.  Beyond pipe-max-size only
 * for root (CAP_SYS_RESOURCE); otherwise CHUNK. */
#define FILE_PIPE (2u << 20)

/* Report what failed with errno's text and exit 1. */
static void die(const char *what)
{
	fprintf(stderr, "kt-bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* The monotonic clock in nanoseconds. */
static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Splice everything from the pipe in to out (with flags), chunk bytes
 * asked at a time, until EOF or, when limit is nonzero, limit bytes.
 * Returns the bytes moved. */
static uint64_t drain(int in, int out, unsigned int flags, uint64_t limit,
		      size_t chunk)
{
	uint64_t done = 0;
	for (;;) {
		size_t ask = limit && limit - done < chunk ? (size_t)(limit - done) : chunk;
		if (limit && done == limit)
			return done;
		ssize_t k = splice(in, NULL, out, NULL, ask, flags);
		if (k < 0)
			die("splice");
		if (k == 0)
			return done;
		done += (uint64_t)k;
	}
}

/* Fill a pipe grown to size with size bytes and time moving them to dst.
 * Returns the nanoseconds. */
static uint64_t bench_pipe(size_t size, int dst, unsigned int flags)
{
	int p[2];
	if (pipe(p) < 0)
		die("pipe");
	if (fcntl(p[1], F_SETPIPE_SZ, (int)size) < 0)
		die("F_SETPIPE_SZ (raise /proc/sys/fs/pipe-max-size)");
	char *buf = malloc(CHUNK);
	if (!buf)
		die("malloc");
	for (size_t i = 0; i < CHUNK; i++)
		buf[i] = (char)(i * 31 + 7);
	for (size_t at = 0; at < size;) {
		size_t n = size - at < CHUNK ? size - at : CHUNK;
		ssize_t k = write(p[1], buf, n);
		if (k <= 0)
			die("write to the pipe");
		at += (size_t)k;
	}
	free(buf);
	close(p[1]);
	uint64_t t0 = now_ns();
	drain(p[0], dst, flags, 0, CHUNK);
	uint64_t t = now_ns() - t0;
	close(p[0]);
	return t;
}

/* Cache src, then time src -> private pipe -> dst.  Returns the nanoseconds. */
static uint64_t bench_file(int src, int dst, unsigned int flags, uint64_t *bytes)
{
	char buf[1 << 16];
	while (read(src, buf, sizeof(buf)) > 0)
		;
	int p[2];
	if (pipe(p) < 0)
		die("pipe");
	size_t chunk = FILE_PIPE;
	if (fcntl(p[1], F_SETPIPE_SZ, (int)chunk) < 0) {
		chunk = CHUNK;
		fcntl(p[1], F_SETPIPE_SZ, (int)chunk);
	}
	uint64_t t0 = now_ns();
	loff_t off = 0;
	for (;;) {
		ssize_t k = splice(src, &off, p[1], NULL, chunk, 0);
		if (k < 0)
			die("splice from the file");
		if (k == 0)
			break;
		drain(p[0], dst, flags, (uint64_t)k, chunk);
		*bytes += (uint64_t)k;
	}
	uint64_t t = now_ns() - t0;
	close(p[0]);
	close(p[1]);
	return t;
}

/* The physical frames of the pages of fd's first pages * page bytes, each
 * touched through a shared mapping that is gone again on return (a page
 * still mapped would be one a thief must leave); 0 where a frame cannot be
 * read.  Returns 0, or -1 when the mapping fails. */
static int file_frames(int fd, size_t pages, size_t page, uint64_t *pfn)
{
	char *map = mmap(NULL, pages * page, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return -1;
	/* no khugepaged collapse of the file's pages (new frames, copies)
	 * because of this mapping; refused without THP, which is fine */
	(void)madvise(map, pages * page, MADV_NOHUGEPAGE);
	int pm = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	for (size_t i = 0; i < pages; i++) {
		volatile char c = map[i * page];
		uint64_t e = 0;
		(void)c;
		off_t at = (off_t)((uintptr_t)(map + i * page) / page * sizeof(e));
		if (pm < 0 || pread(pm, &e, sizeof(e), at) != (ssize_t)sizeof(e) || !(e >> 63))
			e = 0;
		pfn[i] = e & ((1ULL << 55) - 1);
	}
	if (pm >= 0)
		close(pm);
	munmap(map, pages * page);
	return 0;
}

/* kt-bench frames: the file case between two frame readings, then the
 * write-after check.  Prints its lines; returns the exit status. */
static int frames_case(const char *srcname, const char *dstname, unsigned int flags)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int src = open(srcname, O_RDWR | O_CLOEXEC);
	int dst = open(dstname, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	off_t size = src < 0 ? -1 : lseek(src, 0, SEEK_END);
	if (src < 0 || dst < 0 || size <= 0 || lseek(src, 0, SEEK_SET) != 0)
		die(src < 0 || size <= 0 ? srcname : dstname);
	size_t pages = (size_t)size / page;
	uint64_t *before = calloc(pages + 1, sizeof(*before));
	uint64_t *after = calloc(pages + 1, sizeof(*after));
	if (!before || !after)
		die("calloc");
	uint64_t bytes = 0;
	char buf[1 << 16];
	while (read(src, buf, sizeof(buf)) > 0)
		;
	if (lseek(src, 0, SEEK_SET) != 0 || file_frames(src, pages, page, before) < 0)
		die("frames of the source");
	uint64_t ns = bench_file(src, dst, flags, &bytes);
	if (file_frames(dst, pages, page, after) < 0)
		die("frames of the destination");
	size_t same = 0, checked = 0;
	for (size_t i = 0; i < pages; i++) {
		if (!before[i] || !after[i])
			continue;
		checked++;
		same += before[i] == after[i];
	}
	/* the source's first byte changed: does the destination follow? */
	char was = 0, now = 0;
	if (pread(dst, &was, 1, 0) != 1)
		die("read back");
	char b = (char)~was;
	if (pwrite(src, &b, 1, 0) != 1 || pread(dst, &now, 1, 0) != 1)
		die("write after the move");
	close(src);
	if (close(dst) < 0)
		die(dstname);
	printf("ns %llu bytes %llu\nframes %zu %zu\nafter-write %c\n", (unsigned long long)ns,
	       (unsigned long long)bytes, same, checked, now != was ? 'B' : 'A');
	free(before);
	free(after);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 4 || argc > 5 || (argc == 5 && strcmp(argv[4], "-M"))) {
		fprintf(stderr, "usage: kt-bench pipe SIZE DST [-M] | kt-bench file|frames SRC DST [-M]\n");
		return 2;
	}
	unsigned int flags = argc == 5 ? SPLICE_F_MOVE : 0;
	if (!strcmp(argv[1], "frames"))
		return frames_case(argv[2], argv[3], flags);
	int dst = open(argv[3], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (dst < 0)
		die(argv[3]);
	uint64_t ns, bytes = 0;
	if (!strcmp(argv[1], "pipe")) {
		char *end;
		unsigned long mib = strtoul(argv[2], &end, 10);
		if (!mib || strcmp(end, "M")) {
			fprintf(stderr, "kt-bench: SIZE is in MiB, e.g. 32M\n");
			return 2;
		}
		bytes = (uint64_t)mib << 20;
		ns = bench_pipe((size_t)bytes, dst, flags);
	} else if (!strcmp(argv[1], "file")) {
		int src = open(argv[2], O_RDONLY | O_CLOEXEC);
		if (src < 0)
			die(argv[2]);
		ns = bench_file(src, dst, flags, &bytes);
		close(src);
	} else {
		fprintf(stderr, "kt-bench: no case %s\n", argv[1]);
		return 2;
	}
	if (close(dst) < 0)
		die(argv[3]);
	printf("ns %llu bytes %llu\n", (unsigned long long)ns, (unsigned long long)bytes);
	return 0;
}
