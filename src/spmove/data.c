/* spmove: the data of one file, through libsplice, extent by extent for
 * sparse files so that holes stay holes. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "spmove.h"

/* One transfer through the mover.  Returns 0 or a negative errno; sets
 * *side to the side that failed. */
static int move(struct spmove *s, int in, int out, int64_t offset, uint64_t length,
		enum sp_side *side)
{
	int64_t n = sp_move(s->mover, in, out, offset, length);
	s->methods_used |= 1u << sp_last_path(s->mover);
	if (n >= 0)
		return 0;
	*side = sp_error_side(s->mover);
	return (int)n;
}

/* Whether st's file has fewer blocks than its size needs: it has holes. */
static bool looks_sparse(const struct stat *st)
{
	return st->st_blocks < st->st_size / 512;
}

/* Copy the data extents of in (size bytes) to the same offsets of out and
 * give out that size; the holes between are never written.  Returns 0 or
 * a negative errno. */
static int copy_extents(struct spmove *s, int in, int out, off_t size, enum sp_side *side)
{
	off_t pos = 0;
	while (pos < size) {
		off_t data = lseek(in, pos, SEEK_DATA);
		if (data < 0 && errno == ENXIO)
			break; /* only a hole is left */
		if (data < 0) {
			*side = SP_SIDE_INPUT;
			return -errno;
		}
		off_t hole = lseek(in, data, SEEK_HOLE);
		if (hole < 0 || hole > size)
			hole = size;
		if (lseek(out, data, SEEK_SET) < 0) {
			*side = SP_SIDE_OUTPUT;
			return -errno;
		}
		int rc = move(s, in, out, data, (uint64_t)(hole - data), side);
		if (rc)
			return rc;
		pos = hole;
	}
	if (ftruncate(out, size) < 0) {
		*side = SP_SIDE_OUTPUT;
		return -errno;
	}
	return 0;
}

/* Turn the blocks of out (size bytes) that hold only zeros into holes
 * (--sparse=always).  Returns 0 or a negative errno; a filesystem that
 * cannot punch holes keeps the zeros. */
static int punch_zeros(int out, off_t size)
{
	enum { BLOCK = 4096 };
	static const char zeros[BLOCK];
	if (size == 0)
		return 0;
	char *map = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, out, 0);
	if (map == MAP_FAILED)
		return errno == ENODEV || errno == EACCES ? 0 : -errno;
	int rc = 0;
	off_t run = -1; /* start of the current run of zero blocks */
	for (off_t at = 0; at <= size && !rc; at += BLOCK) {
		size_t n = at < size ? (size_t)(size - at < BLOCK ? size - at : BLOCK) : 0;
		bool zero = n == BLOCK && !memcmp(map + at, zeros, BLOCK);
		if (zero && run < 0)
			run = at;
		if (!zero && run >= 0) {
			if (fallocate(out, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, run,
				      at - run) < 0 && errno != EOPNOTSUPP)
				rc = -errno;
			run = -1;
		}
	}
	munmap(map, (size_t)size);
	return rc;
}

int copy_data(struct spmove *s, int in, int out, const struct stat *in_st, enum sp_side *side)
{
	bool regular = S_ISREG(in_st->st_mode);
	if (s->progress)
		progress_begin(s->progress, regular ? (uint64_t)in_st->st_size : 0,
			       sp_get_stats(s->mover));
	int rc;
	if (!regular)
		rc = move(s, in, out, SP_OFFSET_CURRENT, SP_LENGTH_EOF, side);
	else if (s->o->sparse != SPARSE_NEVER && looks_sparse(in_st))
		rc = copy_extents(s, in, out, in_st->st_size, side);
	else
		rc = move(s, in, out, 0, SP_LENGTH_EOF, side);
	if (!rc && s->o->sparse == SPARSE_ALWAYS) {
		struct stat st;
		rc = fstat(out, &st) < 0 ? -errno : S_ISREG(st.st_mode) ? punch_zeros(out, st.st_size) : 0;
		*side = SP_SIDE_OUTPUT;
	}
	if (s->progress)
		progress_end(s->progress);
	return rc;
}
