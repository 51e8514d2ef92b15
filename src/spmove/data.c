/* spmove: the data of one file, through libsplice, with holes as --sparse
 * says. */
#include "config.h"

#include "spmove.h"

int copy_data(struct spmove *s, int in, int out, const struct stat *in_st, enum sp_side *side)
{
	static const enum sp_holes holes[] = {
		[SPARSE_AUTO] = SP_HOLES_KEEP,
		[SPARSE_ALWAYS] = SP_HOLES_PUNCH,
		[SPARSE_NEVER] = SP_HOLES_FILL,
	};
	if (s->progress)
		progress_begin(s->progress, S_ISREG(in_st->st_mode) ? (uint64_t)in_st->st_size : 0,
			       sp_get_stats(s->mover));
	int64_t n = sp_move_sparse(s->mover, in, out, holes[s->o->sparse]);
	s->methods_used |= 1u << sp_last_path(s->mover);
	if (s->progress)
		progress_end(s->progress);
	if (n >= 0)
		return 0;
	*side = sp_error_side(s->mover);
	return (int)n;
}
