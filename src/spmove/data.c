/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove: the data of one file, through libsplice: shared with the source
 * by a clone as --reflink says, else copied with holes as --sparse says. */
#include "config.h"

#include "spmove.h"

int copy_data(struct copier *s, int in, int out, const struct stat *in_st, bool fresh,
	      dev_t out_dev, struct sp_result *res)
{
	static const unsigned clone[] = {
		[REFLINK_AUTO] = SP_COPY_CLONE,
		[REFLINK_ALWAYS] = SP_COPY_CLONE_ONLY,
		[REFLINK_NEVER] = 0,
	};
	static const enum sp_holes holes[] = {
		[SPARSE_AUTO] = SP_HOLES_KEEP,
		[SPARSE_ALWAYS] = SP_HOLES_PUNCH,
		[SPARSE_NEVER] = SP_HOLES_FILL,
	};
	if (s->progress) {
		struct sp_stats now = { .size = sizeof(now) };
		sp_get_stats(s->mover, &now);
		progress_begin(s->progress, S_ISREG(in_st->st_mode) ? (uint64_t)in_st->st_size : 0,
			       &now);
	}
	/* A fresh temporary file: four system calls fewer per file (in_st is
	 * then in's own fstat, else maybe a stand-in, not for the library;
	 * the new file is on its directory's file system, out_dev). */
	struct stat out_st = { .st_mode = S_IFREG, .st_dev = out_dev };
	struct sp_copy_args args = { .size = sizeof(args), .in_fd = in, .out_fd = out,
				     .flags = SP_COPY_WHOLE | clone[s->o->reflink] |
					      (fresh ? SP_COPY_NEW_OUTPUT : 0),
				     .holes = holes[s->o->sparse], .in_st = fresh ? in_st : NULL,
				     .out_st = fresh && out_dev ? &out_st : NULL };
	int64_t n = sp_copy(s->mover, &args, res);
	/* A clone is told as --reflink's (--debug: "reflink: yes"), not as
	 * a path that moved bytes. */
	bool cloned = res->path == SP_PATH_CLONE;
	s->cloned = cloned && n >= 0 ? 1 : clone[s->o->reflink] ? -1 : 0;
	s->data_path = cloned ? SP_PATH_NONE : res->path;
	s->methods_used |= 1u << s->data_path;
	if (s->progress && n >= 0)
		progress_end(s->progress);
	else if (s->progress)
		cli_progress_file_failed(s->progress, res->bytes);
	return n >= 0 ? 0 : (int)n;
}
