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
	/* A fresh temporary file: four system calls fewer per file (in_st is
	 * then in's own fstat, else maybe a stand-in, not for the library). */
	struct sp_copy_args args = { .size = sizeof(args), .in_fd = in, .out_fd = out,
				     .flags = SP_COPY_WHOLE | (fresh ? SP_COPY_NEW_OUTPUT : 0),
				     .holes = holes[s->o->sparse], .in_st = fresh ? in_st : NULL };
	struct sp_result res = { .size = sizeof(res) };
	int64_t n = sp_copy(s->mover, &args, &res);
	s->data_path = res.path;
	s->methods_used |= 1u << s->data_path;
	if (s->progress && n >= 0)
		progress_end(s->progress);
	else if (s->progress)
		cli_progress_file_failed(s->progress, res.bytes);
	if (n >= 0)
		return 0;
	*side = res.side;
	return (int)n;
}
