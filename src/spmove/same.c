/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove: whether an existing file already holds a source's bytes, for
 * copy.c's left_unchanged() -- by their blocks (a clone on XFS or btrfs,
 * FIEMAP) or by reading both, the existing file only from memory. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/fiemap.h>
#include <linux/fs.h>

#include "spmove.h"

/* The bytes read and compared at a time. */
#define UNCHANGED_CHUNK (16 * 1024)

/* Read want bytes of fd from off into buf (room for want + 1), never
 * waiting for a disk when cached_only (RWF_NOWAIT: -EAGAIN when a page is
 * not in memory).  Asks for one byte more than want, so that a file that
 * grew past what was seen says so at no extra call.  Returns the bytes
 * read (want + 1: longer than want; fewer: shorter) or a negative errno. */
static ssize_t read_some(int fd, char *buf, size_t want, off_t off, bool cached_only)
{
	size_t got = 0;
	while (got <= want) {
		struct iovec v = { buf + got, want + 1 - got };
		ssize_t n = preadv2(fd, &v, 1, off + (off_t)got, cached_only ? RWF_NOWAIT : 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0 || (got += (size_t)n) == want)
			break;
	}
	return (ssize_t)got;
}

/* Whether the size bytes of in are the size bytes of old, and old ends
 * there too; old read only from memory (in_memory: its file system's
 * files are). */
static bool same_bytes(int in, int old, off_t size, bool in_memory)
{
	char a[UNCHANGED_CHUNK + 1], b[UNCHANGED_CHUNK + 1];
	for (off_t off = 0;;) {
		size_t want = (size_t)(size - off < UNCHANGED_CHUNK ? size - off : UNCHANGED_CHUNK);
		bool last = off + (off_t)want == size;
		/* Only the last chunk looks past the end. */
		ssize_t n = read_some(old, b, want, off, !in_memory);
		if (n != (ssize_t)want && !(n == (ssize_t)want + 1 && !last))
			return false;
		n = read_some(in, a, want, off, false);
		if (n != (ssize_t)want && !(n == (ssize_t)want + 1 && !last))
			return false;
		if (memcmp(a, b, want))
			return false;
		if (last)
			return true;
		off += (off_t)want;
	}
}

/* cachestat(2) (Linux 6.5): one number on every architecture but alpha's,
 * not yet in every C library's or kernel's headers. */
#if !defined(__NR_cachestat) && !defined(__alpha__)
#define __NR_cachestat 451
#endif

/* Whether fd's file has no page waiting to be written or being written
 * (cachestat(2)): then what FIEMAP reports of it is what it holds.  False
 * where that cannot be told (an older kernel, a filter, a file the user
 * could not write, as cachestat asks since Linux 6.15). */
bool same_all_written(int fd)
{
#ifdef __NR_cachestat
	struct { uint64_t off, len; } range = { 0, 0 }; /* len 0: to the end */
	struct { uint64_t cache, dirty, writeback, evicted, recently_evicted; } cs;
	return syscall(__NR_cachestat, fd, &range, &cs, 0) == 0 && !cs.dirty && !cs.writeback;
#else
	(void)fd;
	return false;
#endif
}

/* The extents a file's comparison by FIEMAP takes (more: compared by
 * reading, or copied). */
#define SAME_EXTENTS 8

union extents {
	struct fiemap map;
	char room[sizeof(struct fiemap) + SAME_EXTENTS * sizeof(struct fiemap_extent)];
};

/* The extents of fd into x: true when they are all there (the last one
 * says so), and each is a plain range of blocks -- not waiting for its
 * blocks, unwritten, inline, compressed or encrypted (a compressed
 * extent is reported at its start whatever part of it a file uses). */
static bool plain_extents(int fd, union extents *x)
{
	const uint32_t plain = FIEMAP_EXTENT_LAST | FIEMAP_EXTENT_SHARED;
	x->map = (struct fiemap){ .fm_length = FIEMAP_MAX_OFFSET, .fm_extent_count = SAME_EXTENTS };
	if (ioctl(fd, FS_IOC_FIEMAP, &x->map) < 0)
		return false;
	uint32_t n = x->map.fm_mapped_extents;
	if (n == 0 || n > SAME_EXTENTS || !(x->map.fm_extents[n - 1].fe_flags & FIEMAP_EXTENT_LAST))
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (x->map.fm_extents[i].fe_flags & ~plain)
			return false;
	return true;
}

/* Whether in (st) and old (seen) are files of one XFS or btrfs whose
 * blocks are the same, extent for extent -- a clone of the other, or of
 * one file -- with nothing in memory yet to be written to either (old's
 * asked by the caller): then they hold the same bytes, without reading
 * them (a clone's pages are not in memory until read). */
static bool same_extents(int in, const struct stat *st, int old, const struct stat *seen)
{
	/* XFS takes the allocation group's lock to tell a shared extent,
	 * and sleeps on it when two threads ask at once: one asks at a time
	 * (measured: 1000 clones in 7.3 ms instead of 22-32 ms, with one
	 * worker; on btrfs, where they do not meet, 15 ms instead of 9). */
	static pthread_mutex_t one_at_a_time = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP;
	union extents a, b;
	enum shared_extents shares = durable_shares_extents(old, seen->st_dev);
	if (st->st_dev != seen->st_dev || !shares || !same_all_written(in))
		return false;
	if (shares == EXTENTS_ASKED_ALONE)
		pthread_mutex_lock(&one_at_a_time);
	bool got = plain_extents(in, &a) && plain_extents(old, &b);
	if (shares == EXTENTS_ASKED_ALONE)
		pthread_mutex_unlock(&one_at_a_time);
	if (!got || a.map.fm_mapped_extents != b.map.fm_mapped_extents)
		return false;
	for (uint32_t i = 0; i < a.map.fm_mapped_extents; i++) {
		const struct fiemap_extent *x = &a.map.fm_extents[i], *y = &b.map.fm_extents[i];
		if (x->fe_logical != y->fe_logical || x->fe_physical != y->fe_physical ||
		    x->fe_length != y->fe_length || !(x->fe_flags & y->fe_flags & FIEMAP_EXTENT_SHARED))
			return false;
	}
	return true;
}

bool same_content(int in, const struct stat *st, int old, const struct stat *seen,
		  bool in_memory)
{
	return same_extents(in, st, old, seen) || same_bytes(in, old, st->st_size, in_memory);
}
