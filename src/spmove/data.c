/* spmove: the data of one file, through libsplice, with holes as --sparse
 * says; or shared with the source by a clone (--reflink). */
#include "config.h"

#include <sys/ioctl.h>

#include <linux/fs.h>

#include "spmove.h"

int clone_data(int in, int out)
{
	return ioctl(out, FICLONE, in);
}

int copy_data(struct spmove *s, int in, int out, const struct stat *in_st, bool fresh,
	      enum sp_side *side)
{
	static const enum sp_holes holes[] = {
		[SPARSE_AUTO] = SP_HOLES_KEEP,
		[SPARSE_ALWAYS] = SP_HOLES_PUNCH,
		[SPARSE_NEVER] = SP_HOLES_FILL,
	};
	if (s->progress)
		progress_begin(s->progress, S_ISREG(in_st->st_mode) ? (uint64_t)in_st->st_size : 0,
			       sp_get_stats(s->mover));
	/* A fresh temporary file: four system calls fewer per file. */
	int64_t n = fresh ? sp_copy_to_new(s->mover, in, in_st, out, holes[s->o->sparse])
			  : sp_move_sparse(s->mover, in, out, holes[s->o->sparse]);
	s->data_path = sp_last_path(s->mover);
	s->methods_used |= 1u << s->data_path;
	if (s->progress && n >= 0)
		progress_end(s->progress);
	else if (s->progress)
		cli_progress_file_failed(s->progress, sp_last_bytes(s->mover));
	if (n >= 0)
		return 0;
	*side = sp_error_side(s->mover);
	return (int)n;
}
