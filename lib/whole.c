/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* lsp_copy_whole() (sp_copy() with SP_COPY_WHOLE): copy a whole file, its holes made holes of the copy
 * where the output can have them (SEEK_DATA/SEEK_HOLE, FALLOC_FL_PUNCH_HOLE). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "sys.h"

/* The blocks SP_HOLES_PUNCH looks at: this many bytes, at offsets that are
 * multiples of it. */
#define ZERO_BLOCK 4096

/* How much of the output is mapped at once to look for zero blocks. */
#define SCAN_WINDOW ((off_t)64 << 20)

/* The state of one lsp_copy_whole() call. */
struct sparse {
	struct sp_mover *m;
	struct sp_result *res; /* the call's outcome */
	int in, out;
	off_t start;    /* out's file position when the call began */
	struct stat in_st, out_st; /* their fstat(2), out_st once takes_holes() ran */
	bool in_known;  /* in_st came from the caller */
	const struct stat *out_known; /* the caller's fstat(2) of out, or NULL */
	bool fresh_out; /* out: a file the caller just made (SP_COPY_NEW_OUTPUT) */
	unsigned flags; /* the caller's SP_COPY_* */
	struct endpoint ein, eout; /* in and out, as every stretch's transfer takes them */
	off_t end;      /* where the copy ends in out */
	uint64_t done;  /* bytes written to out */
};

/* Record that side failed with err; returns -err. */
static int fail(struct sparse *s, enum sp_side side, int err)
{
	s->res->side = side;
	return -err;
}

/* One lsp_move_range() from in (offset and length as there) to out at its file
 * position, adding what it wrote to s->done.  Returns 0 or a negative
 * errno (with the side recorded). */
static int transfer(struct sparse *s, int64_t offset, uint64_t length)
{
	struct sp_result one = { .size = sizeof(one) };
	int64_t n = lsp_move_range(s->m, &s->ein, &s->eout, offset, length, &one);
	s->done += one.bytes;
	s->end = s->start + (off_t)s->done;
	s->res->path = one.path;
	s->res->side = one.side;
	return n >= 0 ? 0 : (int)n;
}

/* The first data extent [*data, *hole) of fd at or after pos and before
 * end, *hole cut at end.  Returns 1 when there is one, 0 when only a hole
 * is left before end, or a negative errno; after 0 or an error, *data and
 * *hole are end. */
static int next_extent(struct sparse *s, int fd, off_t pos, off_t end, off_t *data,
		       off_t *hole)
{
	off_t at = sys_lseek(&s->m->stats, fd, pos, SEEK_DATA);
	int rc = at >= 0 ? 1 : errno == ENXIO ? 0 : -errno;
	*data = *hole = end;
	if (rc <= 0 || at >= end)
		return rc < 0 ? rc : 0;
	*data = at;
	at = sys_lseek(&s->m->stats, fd, at, SEEK_HOLE);
	if (at >= 0 && at < end)
		*hole = at; /* else no answer: take the rest as data */
	return 1;
}

/* Copy the data extents of the regular input (size bytes as fstat(2)
 * says) to the same offsets of out past s->start, skipping the holes
 * between them, and give out the copy's exact size.  Only SEEK_DATA and
 * SEEK_HOLE say that the input has holes: a file that reports no holes
 * (a pseudo-file of /sys, whose size is a guess and which has no blocks)
 * or whose file system cannot tell (EINVAL: most of /proc) is copied by
 * reading it to its end, never extended to its st_size; an input that
 * ends before an extent does (it shrank) ends the copy there.  The
 * input's file position is left where it was, out's after the copy.
 * Returns 0 or a negative errno. */
static int copy_extents(struct sparse *s, off_t size)
{
	struct sp_stats *st = &s->m->stats;
	off_t in_pos = sys_lseek(st, s->in, 0, SEEK_CUR);
	if (in_pos < 0)
		return fail(s, SP_SIDE_INPUT, errno);
	off_t data, hole;
	int found = next_extent(s, s->in, 0, size, &data, &hole);
	if (found < 0 || (found && data == 0 && hole == size)) {
		sys_lseek(st, s->in, in_pos, SEEK_SET);
		return transfer(s, 0, SP_LENGTH_EOF);
	}
	int rc = 0;
	off_t end = size;
	while (found > 0) {
		if (sys_lseek(st, s->out, s->start + data, SEEK_SET) < 0) {
			rc = fail(s, SP_SIDE_OUTPUT, errno);
			break;
		}
		uint64_t before = s->done, want = (uint64_t)(hole - data);
		if ((rc = transfer(s, data, want)))
			break;
		if (s->done - before < want) {
			end = data + (off_t)(s->done - before); /* the input ended early */
			break;
		}
		if (hole >= size)
			break;
		found = next_extent(s, s->in, hole, size, &data, &hole);
		if (found < 0)
			rc = fail(s, SP_SIDE_INPUT, -found);
	}
	s->end = s->start + end;
	if (!rc) {
		if (sys_ftruncate(st, s->out, s->end) < 0 || sys_lseek(st, s->out, s->end, SEEK_SET) < 0)
			rc = fail(s, SP_SIDE_OUTPUT, errno);
	}
	sys_lseek(st, s->in, in_pos, SEEK_SET);
	return rc;
}

/* Make the bytes [from, to) of out a hole.  Returns 0 or a negative errno;
 * a filesystem that cannot punch holes keeps the bytes. */
static int punch(struct sparse *s, off_t from, off_t to)
{
	if (sys_fallocate(&s->m->stats, s->out, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, from, to - from) < 0 &&
	    errno != EOPNOTSUPP)
		return fail(s, SP_SIDE_OUTPUT, errno);
	return 0;
}

/* Make each run of zero blocks of out in [lo, hi) (multiples of ZERO_BLOCK)
 * a hole, looking at a window of a read-only mapping at a time.  Returns 0
 * or a negative errno; an out that cannot be mapped (opened write-only, or
 * on a filesystem without mmap) keeps its zeros. */
static int punch_zero_runs(struct sparse *s, off_t lo, off_t hi)
{
	static const char zeros[ZERO_BLOCK];
	off_t page = (off_t)lsp_page_size(), run = -1, at = lo;
	int rc = 0;
	while (!rc && at < hi) {
		off_t base = at / page * page;
		size_t len = (size_t)(hi - base < SCAN_WINDOW ? hi - base : SCAN_WINDOW);
		const char *map = sys_mmap(&s->m->stats, NULL, len, PROT_READ, MAP_SHARED, s->out, base);
		if (map == MAP_FAILED)
			return errno == EACCES || errno == ENODEV ? 0 : fail(s, SP_SIDE_OUTPUT, errno);
		for (; !rc && at + ZERO_BLOCK <= base + (off_t)len; at += ZERO_BLOCK) {
			bool zero = !memcmp(map + (at - base), zeros, ZERO_BLOCK);
			if (zero && run < 0)
				run = at;
			if (!zero && run >= 0) {
				rc = punch(s, run, at);
				run = -1;
			}
		}
		sys_munmap(&s->m->stats, (void *)map, len);
	}
	return !rc && run >= 0 ? punch(s, run, at) : rc;
}

/* Make every whole block of zeros the copy wrote into out (its data
 * extents in [s->start, s->end)) a hole.  Returns 0 or a negative errno. */
static int punch_zeros(struct sparse *s)
{
	off_t data, hole;
	for (off_t pos = s->start; pos < s->end; pos = hole) {
		int rc = next_extent(s, s->out, pos, s->end, &data, &hole);
		if (rc <= 0)
			return rc ? fail(s, SP_SIDE_OUTPUT, -rc) : 0;
		off_t lo = (data + ZERO_BLOCK - 1) / ZERO_BLOCK * ZERO_BLOCK;
		off_t hi = hole / ZERO_BLOCK * ZERO_BLOCK;
		if (lo < hi && (rc = punch_zero_runs(s, lo, hi)))
			return rc;
	}
	return 0;
}

/* Whether the file st describes has fewer blocks than its size needs:
 * it may have holes, which SEEK_DATA/SEEK_HOLE then tell (a pseudo-file
 * has a size and no blocks, and no holes). */
static bool looks_sparse(const struct stat *st)
{
	return st->st_blocks < st->st_size / 512;
}

/* Whether out can have holes: a regular file not opened with O_APPEND.
 * Sets s->start to its file position and fills s->eout with what was
 * learned.  Returns 1, 0 or a negative errno. */
static int takes_holes(struct sparse *s)
{
	if (s->fresh_out) {
		/* Known: an empty regular file at offset 0, without O_APPEND,
		 * on the file system the caller says (else asked): the memos
		 * of refusals are kept per pair of file systems. */
		s->out_st = (struct stat){ .st_mode = S_IFREG | 0600 };
		if (s->out_known) {
			s->out_st.st_dev = s->out_known->st_dev;
		} else {
			if (sys_fstat(&s->m->stats, s->out, &s->out_st) < 0)
				return fail(s, SP_SIDE_OUTPUT, errno);
		}
		lsp_endpoint_from_stat(&s->eout, &s->out_st);
		s->eout.flags_known = true; /* and without O_APPEND */
		s->start = 0;
		return 1;
	}
	if (s->out_known) {
		s->out_st = *s->out_known;
	} else {
		if (sys_fstat(&s->m->stats, s->out, &s->out_st) < 0)
			return fail(s, SP_SIDE_OUTPUT, errno);
	}
	lsp_endpoint_from_stat(&s->eout, &s->out_st);
	if (!S_ISREG(s->out_st.st_mode))
		return 0;
	int fl = sys_fcntl(&s->m->stats, s->out, F_GETFL, 0);
	s->start = sys_lseek(&s->m->stats, s->out, 0, SEEK_CUR);
	if (fl < 0 || s->start < 0)
		return fail(s, SP_SIDE_OUTPUT, errno);
	s->eout.flags_known = true;
	s->eout.append = fl & O_APPEND;
	return !(fl & O_APPEND);
}

/* The first rung of the ladder for a whole regular file into a regular
 * file at offset 0 (SP_COPY_CLONE, SP_COPY_CLONE_ONLY): ioctl(FICLONE),
 * after which the output has the input's blocks and size.  A pair of file
 * systems that refused (EOPNOTSUPP, EXDEV) is not asked again, but under
 * SP_COPY_CLONE_ONLY.  Returns 1 when cloned, 0 when the data is to be
 * copied, or a negative errno (SP_COPY_CLONE_ONLY). */
static int clone_whole(struct sparse *s)
{
	struct sp_mover *m = s->m;
	bool only = s->flags & SP_COPY_CLONE_ONLY;
	if (!(s->flags & (SP_COPY_CLONE | SP_COPY_CLONE_ONLY)) || !S_ISREG(s->in_st.st_mode) ||
	    !S_ISREG(s->out_st.st_mode) || s->start != 0)
		return 0;
	dev_t in_dev = s->in_st.st_dev, out_dev = s->out_st.st_dev;
	if (!only && fs_pair_refused(&m->no_clone, in_dev, out_dev))
		return 0;
	if (sys_ioctl(&m->stats, s->out, FICLONE, s->in) < 0) {
		int err = errno;
		if (err == EOPNOTSUPP || err == EXDEV)
			fs_pair_remember(&m->no_clone, in_dev, out_dev);
		if (!only)
			return 0;
		s->res->path = SP_PATH_CLONE;
		return -err;
	}
	s->res->path = SP_PATH_CLONE;
	s->done = (uint64_t)s->in_st.st_size;
	s->end = s->in_st.st_size;
	m->stats.bytes += s->done;
	m->stats.bytes_spliced += s->done;
	if (!s->fresh_out) {
		/* As after a copy: out's position after the data. */
		if (sys_lseek(&m->stats, s->out, s->end, SEEK_SET) < 0)
			return fail(s, SP_SIDE_OUTPUT, errno);
	}
	return 1;
}

/* Whether the regular input ends where its size says, as a file does on
 * the file systems below, which keep a file's length in its inode: then
 * the copy asks for that many bytes, and not for more to find the end (a
 * system call a file fewer; a file that grows meanwhile is copied as it
 * was when looked at, one that shrinks to its new end).  Anything else
 * (the pseudo-files of /proc and /sys, whose size is a guess; network
 * and FUSE file systems, whose server may know better) is read to its
 * end.  One fstatfs(2) per file system the mover meets in turn. */
static bool size_is_end(struct sparse *s)
{
	struct sp_mover *m = s->m;
	if (s->in_st.st_size <= 0)
		return false;
	if (!m->size_is_end.valid || m->size_is_end.dev != s->in_st.st_dev) {
		struct statfs sf;
		bool exact = false;
		if (sys_fstatfs(&m->stats, s->in, &sf) == 0) {
			switch ((unsigned long)sf.f_type) {
			case TMPFS_MAGIC:
			case EXT4_SUPER_MAGIC: /* and ext2, ext3 */
			case XFS_SUPER_MAGIC:
			case BTRFS_SUPER_MAGIC:
				exact = true;
				break;
			}
		}
		m->size_is_end.valid = true;
		m->size_is_end.exact = exact;
		m->size_is_end.dev = s->in_st.st_dev;
	}
	return m->size_is_end.exact;
}

/* The copy itself (see sp_copy()).  Returns 0 or a negative errno. */
static int copy(struct sparse *s, enum sp_holes how)
{
	const struct stat *in_st = &s->in_st;
	if (!s->in_known) {
		if (sys_fstat(&s->m->stats, s->in, &s->in_st) < 0)
			return fail(s, SP_SIDE_INPUT, errno);
	}
	lsp_endpoint_from_stat(&s->ein, in_st);
	int holes = takes_holes(s);
	if (holes < 0)
		return holes;
	int rc = clone_whole(s);
	if (rc)
		return rc < 0 ? rc : 0;
	if (!S_ISREG(in_st->st_mode))
		rc = transfer(s, SP_OFFSET_CURRENT, SP_LENGTH_EOF);
	else if (holes && how != SP_HOLES_FILL && looks_sparse(in_st))
		rc = copy_extents(s, in_st->st_size);
	else
		rc = transfer(s, 0, size_is_end(s) ? (uint64_t)in_st->st_size : SP_LENGTH_EOF);
	if (!rc && holes && how == SP_HOLES_PUNCH)
		rc = punch_zeros(s);
	return rc;
}

int64_t lsp_copy_whole(struct sp_mover *m, const struct sp_copy_args *a, struct sp_result *res)
{
	struct sparse s = { .m = m, .res = res, .in = a->in_fd, .out = a->out_fd,
			    .ein = ENDPOINT_INIT(a->in_fd), .eout = ENDPOINT_INIT(a->out_fd),
			    .in_known = a->in_st != NULL,
			    .fresh_out = a->flags & SP_COPY_NEW_OUTPUT, .out_known = a->out_st,
			    .flags = a->flags };
	enum sp_holes how = a->holes;
	if (a->in_st)
		s.in_st = *a->in_st;
	int saved_errno = errno;
	uint64_t start = lsp_now_ns(), elapsed = m->stats.elapsed_ns;
	res->side = SP_SIDE_NONE;
	res->path = SP_PATH_NONE;
	int rc = copy(&s, how);
	res->bytes = s.done;
	/* The whole call, not only its lsp_move_range()s. */
	m->stats.elapsed_ns = elapsed + (lsp_now_ns() - start);
	errno = saved_errno;
	return rc ? rc : (int64_t)s.done;
}
