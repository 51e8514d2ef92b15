/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SP_NOCACHE: reading and writing regular files without leaving their
 * pages in the page cache. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "internal.h"
#include "sys.h"

#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080 /* Linux 6.14, <linux/fs.h> */
#endif

/* Written bytes a file keeps dirty before they are flushed and dropped,
 * where RWF_DONTCACHE is refused. */
#define SP_NOCACHE_WINDOW (8 << 20)
/* The input's pages whose residency is known ahead of the reads, where
 * RWF_DONTCACHE is refused: the kernel's readahead runs ahead of the reads
 * by far less than half of it. */
#define SP_NOCACHE_AHEAD (64 << 20)
/* The largest folio of the page cache (a PMD on x86-64). */
#define SP_NOCACHE_FOLIO (2 << 20)

/* Whether err says that the file (its file system) or the kernel does not
 * take RWF_DONTCACHE. */
static bool refused(int err)
{
	return err == EOPNOTSUPP || err == EINVAL;
}

/* Make c->cached cover [at, at + SP_NOCACHE_AHEAD): which pages of the
 * input were in the cache before the transfer read (or read ahead) them.
 * What is known already is kept; the rest is asked of mincore(2) while the
 * reads are still half the window away from it.  Returns false when it
 * cannot be known. */
static bool know_cached(struct nocache *c, struct sp_stats *st, int fd, off_t at)
{
	long page = (long)lsp_page_size();
	off_t from = at - at % page, end = from + SP_NOCACHE_AHEAD;
	off_t known = c->cached_from + SP_NOCACHE_AHEAD; /* end of what is known */
	if (c->cached_valid && from >= c->cached_from && at < c->cached_from + SP_NOCACHE_AHEAD / 2)
		return true;
	if (!c->cached && !(c->cached = malloc(SP_NOCACHE_AHEAD / (size_t)page)))
		return false;
	size_t keep = 0;
	if (c->cached_valid && from >= c->cached_from && from < known) {
		keep = (size_t)((known - from) / page);
		memmove(c->cached, c->cached + (from - c->cached_from) / page, keep);
	} else {
		known = from;
	}
	c->cached_valid = false;
	void *map = sys_mmap(st, NULL, (size_t)(end - known), PROT_READ, MAP_SHARED, fd, known);
	if (map == MAP_FAILED)
		return false;
	bool ok = sys_mincore(st, map, (size_t)(end - known), c->cached + keep) == 0;
	sys_munmap(st, map, (size_t)(end - known));
	c->cached_from = from;
	c->cached_valid = ok;
	return ok;
}

/* Drop the input's pages from c->in_dropped up to upto that were not
 * cached before the transfer read them. */
static void drop_read(struct nocache *c, struct sp_stats *st, int fd, off_t upto)
{
	long page = (long)lsp_page_size();
	if (!c->cached_valid || upto <= c->in_dropped || c->in_dropped < c->cached_from)
		return;
	size_t first = (size_t)((c->in_dropped - c->cached_from) / page);
	size_t last = (size_t)((upto - c->cached_from + page - 1) / page);
	if (last > SP_NOCACHE_AHEAD / (size_t)page)
		last = SP_NOCACHE_AHEAD / (size_t)page;
	for (size_t i = first; i < last;) {
		if (c->cached[i] & 1) {
			i++;
			continue;
		}
		size_t j = i;
		while (j < last && !(c->cached[j] & 1))
			j++;
		sys_posix_fadvise(st, fd, c->cached_from + (off_t)i * page, (off_t)(j - i) * page,
			      POSIX_FADV_DONTNEED);
		i = j;
	}
	c->in_dropped = upto;
}

/* A read of up to len bytes at *posp (the file position when NULL); the
 * pages it brought in are dropped after, those cached before kept.  The
 * drops stay on boundaries of SP_NOCACHE_FOLIO until the end, so that a
 * large folio is never cut (the kernel would keep it whole). */
static ssize_t read_dropping(struct nocache *c, struct sp_stats *st, int fd, void *buf,
			     size_t len, loff_t *posp)
{
	off_t at = posp ? *posp : sys_lseek(st, fd, 0, SEEK_CUR);
	if (at >= 0 && (!c->reading || at != c->in_end)) {
		c->reading = true; /* the first read, or after a seek */
		c->in_dropped = at;
	}
	bool known = at >= 0 && know_cached(c, st, fd, c->in_dropped);
	if (known && (uint64_t)(at + (off_t)len) > (uint64_t)(c->cached_from + SP_NOCACHE_AHEAD))
		len = (size_t)(c->cached_from + SP_NOCACHE_AHEAD - at);
	ssize_t n = posp ? sys_pread(st, fd, buf, len, *posp) : sys_read(st, fd, buf, len);
	if (!known || n < 0)
		return n;
	int err = errno;
	c->in_end = at + n;
	off_t upto = c->in_end;
	if ((size_t)n == len && len)
		upto -= upto % SP_NOCACHE_FOLIO; /* more to come */
	drop_read(c, st, fd, upto);
	errno = err;
	return n;
}

ssize_t lsp_nocache_file_read(struct nocache *c, struct sp_stats *st, int fd, void *buf,
			size_t len, loff_t *posp)
{
	if (!c->plain_in) {
		struct iovec iov = { .iov_base = buf, .iov_len = len };
		ssize_t n = sys_preadv2(st, fd, &iov, 1, posp ? *posp : -1, RWF_DONTCACHE);
		if (n >= 0 || !refused(errno))
			return n >= 0 ? n : -errno;
		c->plain_in = true;
	}
	ssize_t n = read_dropping(c, st, fd, buf, len, posp);
	return n >= 0 ? n : -errno;
}

/* Flush and drop the output's pages from c->dropped up to upto, waiting
 * for their writeback. */
static void flush_and_drop(struct nocache *c, struct sp_stats *st, int fd, off_t upto)
{
	if (c->dropped >= upto)
		return;
	sys_sync_file_range(st, fd, c->dropped, upto - c->dropped,
			SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
			SYNC_FILE_RANGE_WAIT_AFTER);
	sys_posix_fadvise(st, fd, c->dropped, upto - c->dropped, POSIX_FADV_DONTNEED);
	c->dropped = upto;
}

/* A window of writes is complete: start the writeback of it, and flush and
 * drop the window before, whose writeback the last call started. */
static void drop_written(struct nocache *c, struct sp_stats *st, int fd)
{
	sys_sync_file_range(st, fd, c->started, c->end - c->started, SYNC_FILE_RANGE_WRITE);
	flush_and_drop(c, st, fd, c->started);
	c->started = c->end;
}

ssize_t lsp_nocache_file_write(struct nocache *c, struct sp_stats *st, int fd, const void *buf,
			 size_t len)
{
	if (!c->plain_out) {
		struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
		ssize_t n = sys_pwritev2(st, fd, &iov, 1, -1, RWF_DONTCACHE);
		if (n >= 0 || !refused(errno))
			return n >= 0 ? n : -errno;
		c->plain_out = true;
	}
	if (!c->tracking) {
		off_t at = sys_lseek(st, fd, 0, SEEK_CUR);
		if (at >= 0) {
			c->tracking = true;
			c->started = c->dropped = c->end = at;
		}
	}
	ssize_t n = sys_write(st, fd, buf, len);
	if (n > 0 && c->tracking) {
		int err = errno;
		c->end += n;
		if (c->end - c->started >= SP_NOCACHE_WINDOW)
			drop_written(c, st, fd);
		errno = err;
	}
	return n >= 0 ? n : -errno;
}

void lsp_nocache_finish(struct nocache *c, struct sp_stats *st, int in_fd, int out_fd)
{
	int err = errno;
	if (in_fd >= 0 && c->reading)
		drop_read(c, st, in_fd, c->in_end);
	free(c->cached);
	if (out_fd >= 0 && c->tracking)
		flush_and_drop(c, st, out_fd, c->end);
	*c = (struct nocache){ 0 };
	errno = err;
}
