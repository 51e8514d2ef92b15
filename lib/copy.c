/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sp_copy(): the one entry point for a transfer from an fd to an fd; it
 * checks the caller's structs and hands over to lsp_move_range() or
 * lsp_copy_whole(). */
#include "config.h"

#include <errno.h>

#include "internal.h"

#define SP_COPY_KNOWN_FLAGS \
	(SP_COPY_WHOLE | SP_COPY_NEW_OUTPUT | SP_COPY_CLONE | SP_COPY_CLONE_ONLY)
#define SP_COPY_WHOLE_FLAGS (SP_COPY_NEW_OUTPUT | SP_COPY_CLONE | SP_COPY_CLONE_ONLY)

void lsp_result_store(struct sp_result *result, const struct sp_result *res)
{
	if (result)
		lsp_sized_store(result, result->size, res, sizeof(*res), sizeof(result->size));
}

/* Whether args is a transfer this release knows how to make: its size
 * at least release 1.0's and anything past this release's fields zero,
 * known flags, and the fields each flag rules out zero. */
static bool args_valid(const struct sp_copy_args *a)
{
	if (!lsp_sized_valid(a, a->size, SP_COPY_ARGS_SIZE_1_0, sizeof(*a)))
		return false;
	if (a->flags & ~SP_COPY_KNOWN_FLAGS)
		return false;
	if ((a->flags & SP_COPY_CLONE) && (a->flags & SP_COPY_CLONE_ONLY))
		return false;
	if (a->flags & SP_COPY_WHOLE)
		return a->offset == 0 && a->length == 0 && (unsigned)a->holes <= SP_HOLES_FILL;
	return !(a->flags & SP_COPY_WHOLE_FLAGS) && a->holes == SP_HOLES_KEEP;
}

int64_t sp_copy(struct sp_mover *m, const struct sp_copy_args *args, struct sp_result *result)
{
	if (!m || !args || !args_valid(args) || (result && result->size < SP_RESULT_SIZE_1_0))
		return -EINVAL;
	struct sp_result res = { .size = sizeof(res) };
	int64_t rc;
	if (args->flags & SP_COPY_WHOLE) {
		rc = lsp_copy_whole(m, args, &res);
	} else {
		struct endpoint in = ENDPOINT_INIT(args->in_fd), out = ENDPOINT_INIT(args->out_fd);
		if (args->in_st)
			lsp_endpoint_from_stat(&in, args->in_st);
		if (args->out_st)
			lsp_endpoint_from_stat(&out, args->out_st);
		rc = lsp_move_range(m, &in, &out, args->offset, args->length, &res);
	}
	if (m->opts.flags & SP_RELEASE_PIPE)
		lsp_private_pipe_discard(m);
	lsp_result_store(result, &res);
	return rc;
}
