/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sp_probe(): measure, in a directory, which data paths work and what the
 * running kernel really does with the pages -- never assume it.  Every
 * verdict comes from an observation: data read back, a byte changed after
 * the fact, residency of the source's pages, or stealfs's own counters. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "internal.h"
#include "stealfs-abi.h"

/* Size of the probe's source file: whole pages and a ragged tail. */
#define PROBE_BYTES ((1u << 20) + 123)
/* Pages used by the page-level measurements. */
#define PROBE_PAGES 16

/* The probe's scratch files in the directory (unlinked once open). */
struct scratch {
	const char *dir;
	int src, dst;
	size_t page;
	bool on_stealfs; /* the directory is on stealfs: its counters speak for it */
};

/* Create an unnamed-in-effect scratch file in dir: created with a unique
 * name, unlinked at once.  Returns the fd or a negative errno. */
static int scratch_file(const char *dir)
{
	char path[PATH_MAX];
	if ((size_t)snprintf(path, sizeof(path), "%s/.spmove-probe-XXXXXX", dir) >= sizeof(path))
		return -ENAMETOOLONG;
	int fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	unlink(path);
	return fd;
}

/* Write n bytes of a pattern starting at seed to fd from offset 0 and cut
 * the file there.  Returns 0 or a negative errno. */
static int fill(int fd, size_t n, unsigned seed)
{
	char buf[4096];
	for (size_t at = 0; at < n;) {
		size_t k = n - at < sizeof(buf) ? n - at : sizeof(buf);
		for (size_t i = 0; i < k; i++)
			buf[i] = (char)((at + i) * 31 + seed);
		ssize_t w = pwrite(fd, buf, k, (off_t)at);
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		at += (size_t)w;
	}
	return ftruncate(fd, (off_t)n) < 0 ? -errno : 0;
}

/* Read the n bytes a pipe holds and return the first one, or a negative
 * errno (-EIO when fewer came). */
static int pipe_first_byte(int rfd, size_t n)
{
	char *buf = malloc(n);
	if (!buf)
		return -ENOMEM;
	size_t got = 0;
	while (got < n) {
		ssize_t k = read(rfd, buf + got, n - got);
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	int first = got == n ? (unsigned char)buf[0] : -EIO;
	free(buf);
	return first;
}

/* One stealfs counter; false when it cannot be read. */
static bool stealfs_counter(const char *name, uint64_t *value)
{
	char path[128];
	snprintf(path, sizeof(path), STEALFS_STATS_DIR "/%s", name);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	bool ok = fscanf(f, "%" SCNu64, value) == 1;
	fclose(f);
	return ok;
}

/* The sizes of release 1.0's structs: the smallest a caller may pass.
 * Later releases only add fields at the end. */
#define STEALFS_COUNTS_SIZE_1_0 (offsetof(struct sp_stealfs_counts, copied) + sizeof(uint64_t))
#define PROBE_SIZE_1_0 (offsetof(struct sp_probe, evidence) + sizeof(struct sp_probe_evidences))
#define PROBE_METHOD_SIZE_1_0 (offsetof(struct sp_probe_method, pages_copied) + sizeof(int64_t))

int sp_stealfs_read(struct sp_stealfs_counts *c)
{
	uint64_t anon, pagecache, copied;
	if (!c || c->size < STEALFS_COUNTS_SIZE_1_0)
		return -EINVAL;
	if (!stealfs_counter("stolen_anon", &anon) ||
	    !stealfs_counter("stolen_pagecache", &pagecache) ||
	    !stealfs_counter("copied", &copied))
		return -ENOENT;
	struct sp_stealfs_counts mine = { .size = sizeof(mine), .stolen = anon + pagecache,
					  .copied = copied };
	lsp_sized_store(c, c->size, &mine, sizeof(mine), sizeof(c->size));
	return 0;
}

/* Counter differences between two readings into moved/copied (-1 each when
 * either reading failed). */
static void stealfs_delta(int before_rc, const struct sp_stealfs_counts *before,
			  int64_t *moved, int64_t *copied)
{
	struct sp_stealfs_counts after = { .size = sizeof(after) };
	if (before_rc || sp_stealfs_read(&after)) {
		*moved = *copied = -1;
		return;
	}
	*moved = (int64_t)(after.stolen - before->stolen);
	*copied = (int64_t)(after.copied - before->copied);
}

/* Copy the source to the destination by the path (with SP_POLICY_PREFER;
 * SP_PATH_NONE: SP_POLICY_AUTO) with flags and judge it. */
static void probe_method(const struct scratch *sc, enum sp_path path, unsigned flags,
			 struct sp_probe_method *r)
{
	enum sp_policy policy = path == SP_PATH_NONE ? SP_POLICY_AUTO : SP_POLICY_PREFER;
	struct sp_options mo = { .size = sizeof(mo), .policy = policy, .path = path,
				 .splice_flags = flags };
	struct sp_mover *m;
	*r = (struct sp_probe_method){ .policy = policy, .path = path, .splice_flags = flags,
				       .pages_moved = -1, .pages_copied = -1 };
	if (ftruncate(sc->dst, 0) < 0 || lseek(sc->dst, 0, SEEK_SET) < 0) {
		r->error = errno;
		return;
	}
	int rc = sp_mover_new(&m, &mo);
	if (rc) {
		r->error = -rc;
		return;
	}
	struct sp_stealfs_counts before = { .size = sizeof(before) };
	int before_rc = sp_stealfs_read(&before);
	struct sp_copy_args args = { .size = sizeof(args), .in_fd = sc->src, .out_fd = sc->dst,
				     .offset = 0, .length = SP_LENGTH_EOF };
	struct sp_result res = { .size = sizeof(res) };
	int64_t n = sp_copy(m, &args, &res);
	stealfs_delta(before_rc, &before, &r->pages_moved, &r->pages_copied);
	struct sp_stats st = { .size = sizeof(st) };
	sp_get_stats(m, &st);
	r->used = res.path;
	r->bytes = st.bytes;
	r->bytes_spliced = st.bytes_spliced;
	if (n < 0) {
		r->verdict = SP_PROBE_FAILS;
		r->error = (int)-n;
	} else if (n != PROBE_BYTES || sp_compare(sc->src, 0, sc->dst, 0, PROBE_BYTES)) {
		r->verdict = SP_PROBE_WRONG_DATA;
	} else if (policy != SP_POLICY_AUTO && (r->used != path || st.fallbacks)) {
		r->verdict = SP_PROBE_FALLS_BACK;
	} else {
		r->verdict = SP_PROBE_WORKS;
	}
	sp_mover_free(m);
}

/* Record the byte read back after the source's first byte became 'B' (a
 * negative errno when it could not be read) and judge by it: 'B' means the
 * destination references the source's page, 'A' that it holds a copy. */
static void judge_identity(int first, struct sp_probe_pages *r, struct sp_probe_evidence *e)
{
	e->byte_after_write = first < 0 ? -1 : first;
	r->fate = first == 'B' ? SP_PAGES_SHARED : first == 'A' ? SP_PAGES_COPIED : SP_PAGES_UNKNOWN;
	r->error = first < 0 ? -first : 0;
}

/* Touch the pages of a mapping so that each has a frame. */
static void touch_pages(const volatile char *map, size_t len, size_t page)
{
	for (size_t at = 0; at < len; at += page)
		(void)map[at];
}

/* Compare the frames of fd's first len bytes (its page cache) with src[]
 * (read before with rc src_rc) into e's frame figures. */
static void compare_frames(const uint64_t *src, int src_rc, int fd, size_t len, size_t page,
			   struct sp_probe_evidence *e)
{
	uint64_t dst[PROBE_PAGES];
	char *map = src_rc ? MAP_FAILED : mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		e->frames_error = src_rc ? -src_rc : errno;
		return;
	}
	touch_pages(map, len, page);
	int rc = lsp_page_frames(map, len / page, page, dst);
	munmap(map, len);
	if (rc) {
		e->frames_error = -rc;
		return;
	}
	e->frames_checked = (int64_t)(len / page);
	e->frames_same = 0;
	for (size_t i = 0; i < len / page; i++)
		e->frames_same += src[i] == dst[i];
}

/* The fate the compared frames show: moved when any destination page is a
 * source page, copied when none is, unknown when they were not compared. */
static enum sp_page_fate frames_fate(const struct sp_probe_evidence *e)
{
	if (e->frames_checked <= 0)
		return SP_PAGES_UNKNOWN;
	return e->frames_same ? SP_PAGES_MOVED : SP_PAGES_COPIED;
}

/* Read the first byte of fd, or a negative errno. */
static int file_first_byte(int fd)
{
	unsigned char c;
	ssize_t k = pread(fd, &c, 1, 0);
	return k == 1 ? c : k < 0 ? -errno : -EIO;
}

/* vmsplice (with flags) len bytes of mem, all 'A', into a new pipe, then
 * overwrite them with 'B' and read the pipe. */
static void vmsplice_shares(char *mem, size_t len, unsigned flags, struct sp_probe_pages *r,
			    struct sp_probe_evidence *e)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0) {
		r->error = errno;
		return;
	}
	sp_pipe_grow(p[1], len);
	memset(mem, 'A', len);
	struct iovec iov = { .iov_base = mem, .iov_len = len };
	ssize_t k = vmsplice(p[1], &iov, 1, flags);
	if (k < 0) {
		r->error = errno;
		r->fate = errno == EINVAL ? SP_PAGES_REFUSED : SP_PAGES_UNKNOWN;
	} else {
		memset(mem, 'B', len);
		judge_identity(pipe_first_byte(p[0], (size_t)k), r, e);
		r->pages = (int64_t)((size_t)k / lsp_page_size());
	}
	close(p[0]);
	close(p[1]);
}

/* What vmsplice does with anonymous memory (plain and gifted) and with a
 * mapped file. */
static void probe_vmsplice(const struct scratch *sc, struct sp_probe *r)
{
	size_t len = PROBE_PAGES * sc->page;
	char *anon = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (anon == MAP_FAILED) {
		r->vmsplice_anon.error = r->vmsplice_gift.error = errno;
	} else {
		vmsplice_shares(anon, len, 0, &r->vmsplice_anon, &r->evidence.vmsplice_anon);
		vmsplice_shares(anon, len, SPLICE_F_GIFT, &r->vmsplice_gift,
				&r->evidence.vmsplice_gift);
		munmap(anon, len);
	}
	int rc = fill(sc->dst, len, 0);
	char *map = rc ? MAP_FAILED
		       : mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, sc->dst, 0);
	if (map == MAP_FAILED) {
		r->vmsplice_file.error = rc ? -rc : errno;
		return;
	}
	vmsplice_shares(map, len, 0, &r->vmsplice_file, &r->evidence.vmsplice_file);
	munmap(map, len);
}

/* Splice the destination's first pages, starting with 'A', into a pipe
 * (and with tee, a second pipe; then the first is emptied), overwrite the
 * 'A' with 'B' and read the (last) pipe: does it reference the page cache? */
static void probe_splice_in(const struct scratch *sc, bool tee_too, struct sp_probe_pages *r,
			    struct sp_probe_evidence *e)
{
	size_t len = PROBE_PAGES * sc->page;
	int p[2], q[2] = { -1, -1 };
	int rc = fill(sc->dst, len, 0);
	if (rc || pipe2(p, O_CLOEXEC) < 0) {
		r->error = rc ? -rc : errno;
		return;
	}
	if (tee_too && pipe2(q, O_CLOEXEC) < 0) {
		r->error = errno;
		close(p[0]);
		close(p[1]);
		return;
	}
	sp_pipe_grow(p[1], len);
	if (tee_too)
		sp_pipe_grow(q[1], len);
	char a = 'A', b = 'B';
	loff_t off = 0;
	errno = 0;
	if (pwrite(sc->dst, &a, 1, 0) == 1 &&
	    splice(sc->dst, &off, p[1], NULL, len, 0) == (ssize_t)len &&
	    (!tee_too || (tee(p[0], q[1], len, 0) == (ssize_t)len &&
			  pipe_first_byte(p[0], len) == 'A')) &&
	    pwrite(sc->dst, &b, 1, 0) == 1) {
		judge_identity(pipe_first_byte(tee_too ? q[0] : p[0], len), r, e);
		r->pages = PROBE_PAGES;
	} else {
		r->error = errno ? errno : EIO;
	}
	close(p[0]);
	close(p[1]);
	if (tee_too) {
		close(q[0]);
		close(q[1]);
	}
}

/* Of the len bytes of fd's mapping, how many pages are resident; -1 when
 * that cannot be told. */
static long resident_pages(int fd, size_t len, size_t page)
{
	unsigned char vec[PROBE_PAGES];
	char *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return -1;
	long resident = -1;
	if (mincore(map, len, vec) == 0) {
		resident = 0;
		for (size_t i = 0; i < len / page; i++)
			resident += vec[i] & 1;
	}
	munmap(map, len);
	return resident;
}

/* The frames of fd's first len bytes (cached and mapped for the moment)
 * into pfn[].  Returns 0 or a negative errno. */
static int file_frames(int fd, size_t len, size_t page, uint64_t *pfn)
{
	char *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	touch_pages(map, len, page);
	int rc = lsp_page_frames(map, len / page, page, pfn);
	munmap(map, len);
	return rc;
}

/* Splice cached source pages (first byte 'A') to the destination with
 * flags.  The verdict, in order of strength: a destination that changes
 * when the source's 'A' becomes 'B' shares its pages (a bug); else frames
 * of the destination that are the source's were moved (none: copied); else
 * (frame numbers hidden) pages that left the source's page cache were
 * moved.  stealfs's counters, when present, count the pages moved. */
static void probe_page_move(const struct scratch *sc, unsigned flags, struct sp_probe_pages *r,
			    struct sp_probe_evidence *e)
{
	size_t len = PROBE_PAGES * sc->page;
	int p[2] = { -1, -1 };
	uint64_t src_pfn[PROBE_PAGES];
	char a = 'A', b = 'B';
	int src = scratch_file(sc->dir);
	int rc = src < 0 ? src : fill(src, len, 7);
	if (!rc && pwrite(src, &a, 1, 0) != 1)
		rc = -EIO;
	if (!rc && pipe2(p, O_CLOEXEC) < 0)
		rc = -errno;
	if (rc) {
		r->error = -rc;
		if (src >= 0)
			close(src);
		return;
	}
	int src_rc = file_frames(src, len, sc->page, src_pfn); /* caches the pages too */
	sp_pipe_grow(p[1], len);
	struct sp_stealfs_counts before = { .size = sizeof(before) };
	int before_rc = sp_stealfs_read(&before);
	loff_t off = 0, out_off = 0;
	ssize_t in = splice(src, &off, p[1], NULL, len, 0);
	ssize_t out = in > 0 && ftruncate(sc->dst, 0) == 0
			      ? splice(p[0], NULL, sc->dst, &out_off, (size_t)in, flags)
			      : -1;
	int64_t copied;
	stealfs_delta(before_rc, &before, &r->pages_moved, &copied);
	r->pages = PROBE_PAGES;
	if (out != (ssize_t)len) {
		r->error = out < 0 ? errno : EIO;
	} else {
		e->source_resident = resident_pages(src, len, sc->page);
		compare_frames(src_pfn, src_rc, sc->dst, len, sc->page, e);
		r->fate = frames_fate(e);
		if (r->fate == SP_PAGES_UNKNOWN && e->source_resident >= 0)
			r->fate = e->source_resident == PROBE_PAGES ? SP_PAGES_COPIED
								    : SP_PAGES_MOVED;
		int first = pwrite(src, &b, 1, 0) == 1 ? file_first_byte(sc->dst) : -EIO;
		e->byte_after_write = first < 0 ? -1 : first;
		if (first == 'B')
			r->fate = SP_PAGES_SHARED;
	}
	close(p[0]);
	close(p[1]);
	close(src);
}

/* Anonymous pages written into a pipe with write(2), or gifted with
 * vmsplice, spliced into the directory with SPLICE_F_MOVE.  Gifted pages:
 * their frames, read before the gift, against the destination's.  Pipe
 * pages written with write(2) have no address whose frame could be read
 * and no write reaches them after the splice: only stealfs's counters can
 * tell whether they were moved, and only into stealfs. */
static void probe_anon_move(const struct scratch *sc, bool gift, struct sp_probe_pages *r,
			    struct sp_probe_evidence *e)
{
	size_t len = PROBE_PAGES * sc->page;
	int p[2];
	uint64_t src_pfn[PROBE_PAGES];
	char *buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED || pipe2(p, O_CLOEXEC) < 0) {
		r->error = errno;
		if (buf != MAP_FAILED)
			munmap(buf, len);
		return;
	}
	sp_pipe_grow(p[1], len);
	memset(buf, 'x', len);
	int src_rc = lsp_page_frames(buf, PROBE_PAGES, sc->page, src_pfn);
	struct sp_stealfs_counts before = { .size = sizeof(before) };
	int before_rc = sp_stealfs_read(&before);
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	ssize_t in = gift ? vmsplice(p[1], &iov, 1, SPLICE_F_GIFT) : write(p[1], buf, len);
	munmap(buf, len); /* a gift must be unmapped before the kernel may keep it */
	loff_t off = 0;
	ssize_t out = in > 0 && ftruncate(sc->dst, 0) == 0
			      ? splice(p[0], NULL, sc->dst, &off, (size_t)in, SPLICE_F_MOVE)
			      : -1;
	if (out < 0) {
		r->error = errno;
	} else {
		int64_t copied;
		stealfs_delta(before_rc, &before, &r->pages_moved, &copied);
		r->pages = out / (ssize_t)sc->page;
		if (gift && out == (ssize_t)len)
			compare_frames(src_pfn, src_rc, sc->dst, len, sc->page, e);
		r->fate = frames_fate(e);
		if (r->fate == SP_PAGES_UNKNOWN && sc->on_stealfs && r->pages_moved >= 0)
			r->fate = r->pages_moved ? SP_PAGES_MOVED : SP_PAGES_COPIED;
	}
	close(p[0]);
	close(p[1]);
}

/* The paths sp_probe() tries, in order (SP_PATH_NONE: the auto policy). */
static const struct {
	enum sp_path path;
	unsigned flags;
} probed[] = {
	{ SP_PATH_NONE, 0 },
	{ SP_PATH_SPLICE, 0 },
	{ SP_PATH_VMSPLICE, 0 },
	{ SP_PATH_GIFT, 0 },
	{ SP_PATH_RW, 0 },
	{ SP_PATH_COPY_FILE_RANGE, 0 },
	{ SP_PATH_SENDFILE, 0 },
	{ SP_PATH_SPLICE, SPLICE_F_MOVE },
	{ SP_PATH_GIFT, SPLICE_F_MOVE },
};

/* Mark a page measurement and its evidence "not measured" before it runs. */
static void pages_init(struct sp_probe_pages *p, struct sp_probe_evidence *e)
{
	*p = (struct sp_probe_pages){ .pages = -1, .pages_moved = -1 };
	*e = (struct sp_probe_evidence){ .byte_after_write = -1, .frames_checked = -1,
					 .frames_same = -1, .source_resident = -1 };
}

#define PROBED_COUNT (sizeof(probed) / sizeof(probed[0]))

/* Whether /proc/self/pagemap shows frame numbers to this process. */
static bool pagemap_shows_frames(size_t page)
{
	uint64_t pfn;
	volatile char here = 0;
	(void)here;
	return lsp_page_frames((const void *)&here, 1, page, &pfn) == 0;
}

/* Fill r (all of it) for dir, and the first n of the paths tried into
 * methods, elements of method_size bytes.  Returns 0 or a negative errno. */
static int measure(const char *dir, struct sp_probe *r, struct sp_probe_method *methods,
		 size_t method_size, size_t n)
{
	struct statfs sf;
	if (statfs(dir, &sf) < 0)
		return -errno;
	struct scratch sc = { .dir = dir, .page = lsp_page_size(),
			      .on_stealfs = (unsigned long)sf.f_type == STEALFS_MAGIC };
	sc.src = scratch_file(dir);
	sc.dst = sc.src < 0 ? sc.src : scratch_file(dir);
	int rc = sc.dst < 0 ? sc.dst : fill(sc.src, PROBE_BYTES, 1);
	if (rc) {
		if (sc.src >= 0)
			close(sc.src);
		return rc;
	}
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(r->kernel, sizeof(r->kernel), "%s", u.release);
	r->fs_type = (unsigned long)sf.f_type;
	r->page_size = sc.page;
	struct sp_stealfs_counts counts = { .size = sizeof(counts) };
	r->stealfs_counters = sp_stealfs_read(&counts) == 0;

	r->methods_tried = PROBED_COUNT;
	for (size_t i = 0; i < PROBED_COUNT && i < n; i++) {
		struct sp_probe_method one;
		probe_method(&sc, probed[i].path, probed[i].flags, &one);
		lsp_sized_store((char *)methods + i * method_size, method_size, &one, sizeof(one), 0);
	}
	r->frames_readable = pagemap_shows_frames(sc.page);
	struct sp_probe_evidences *ev = &r->evidence;
	struct {
		struct sp_probe_pages *pages;
		struct sp_probe_evidence *evidence;
	} measures[] = {
		{ &r->vmsplice_anon, &ev->vmsplice_anon },   { &r->vmsplice_gift, &ev->vmsplice_gift },
		{ &r->vmsplice_file, &ev->vmsplice_file },   { &r->splice_in, &ev->splice_in },
		{ &r->pagecache_move, &ev->pagecache_move }, { &r->anon_move, &ev->anon_move },
		{ &r->gift_move, &ev->gift_move },           { &r->pagecache_splice, &ev->pagecache_splice },
		{ &r->tee, &ev->tee },
	};
	for (unsigned i = 0; i < sizeof(measures) / sizeof(measures[0]); i++)
		pages_init(measures[i].pages, measures[i].evidence);
	probe_vmsplice(&sc, r);
	probe_splice_in(&sc, false, &r->splice_in, &ev->splice_in);
	/* tee's copy can only be told from a pipe that references the file */
	if (r->splice_in.fate == SP_PAGES_SHARED)
		probe_splice_in(&sc, true, &r->tee, &ev->tee);
	probe_page_move(&sc, SPLICE_F_MOVE, &r->pagecache_move, &ev->pagecache_move);
	probe_page_move(&sc, 0, &r->pagecache_splice, &ev->pagecache_splice);
	probe_anon_move(&sc, false, &r->anon_move, &ev->anon_move);
	probe_anon_move(&sc, true, &r->gift_move, &ev->gift_move);
	close(sc.src);
	close(sc.dst);
	return 0;
}

int sp_probe(const char *dir, struct sp_probe *result, struct sp_probe_method *methods,
	     size_t method_size, size_t n)
{
	if (!dir || !result || result->size < PROBE_SIZE_1_0 ||
	    (n && (!methods || method_size < PROBE_METHOD_SIZE_1_0)))
		return -EINVAL;
	int saved_errno = errno;
	struct sp_probe r = { .size = sizeof(r) };
	int rc = measure(dir, &r, methods, method_size, n);
	if (n > PROBED_COUNT)
		memset((char *)methods + PROBED_COUNT * method_size, 0,
		       (n - PROBED_COUNT) * method_size);
	size_t size = result->size;
	memset((char *)result + sizeof(size), 0, size - sizeof(size));
	if (!rc)
		lsp_sized_store(result, size, &r, sizeof(r), sizeof(size));
	errno = saved_errno;
	return rc;
}
