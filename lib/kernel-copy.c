/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The in-kernel copy paths: copy_file_range(2) and sendfile(2) from a
 * regular input. */
#include "config.h"

#include <errno.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include "xfer.h"
#include "sys.h"

/* Bytes asked for per in-kernel copy call: large enough to cost little,
 * small enough for progress reports and a prompt stop on a signal. */
#define KERNEL_COPY_CHUNK (16u << 20)

/* One in-kernel copy call of up to n bytes by the given method, counted. */
static ssize_t kernel_copy(struct xfer *x, enum sp_path how, size_t n)
{
	if (how == SP_PATH_COPY_FILE_RANGE) {
		return sys_copy_file_range(&x->m->stats, x->in, x->posp, x->out, NULL, n, 0);
	}
	return sys_sendfile(&x->m->stats, x->out, x->in, x->posp, n);
}

/* Copy with copy_file_range(2) or sendfile(2) until done.  Returns 0,
 * FALL_BACK when the first call is refused, as between two files it
 * cannot copy between (another filesystem, no support, O_APPEND ...), or
 * finds nothing to copy, as on files whose size the kernel does not know;
 * or a negative errno. */
static int move_in_kernel(struct xfer *x, enum sp_path how)
{
	struct sp_mover *m = x->m;
	/* Under SP_POLICY_ONLY the refusal itself is the answer, every time. */
	bool ranged = how == SP_PATH_COPY_FILE_RANGE && may_switch_path(&m->opts);
	if (ranged && fs_pair_refused(&m->no_copy_range, x->ein->dev, x->eout->dev))
		return FALL_BACK;
	x->used = how;
	while (x->left) {
		ssize_t n = kernel_copy(x, how, lsp_xfer_min(x->left, KERNEL_COPY_CHUNK));
		if (n < 0) {
			int err = errno;
			if (ranged && err == EXDEV && !x->done)
				fs_pair_remember(&m->no_copy_range, x->ein->dev, x->eout->dev);
			int rc = lsp_xfer_next_step(x, err, -1, x->out,
						x->done ? REFUSALS_NONE : REFUSALS_COPY,
						lsp_xfer_error_side(x, err));
			if (rc)
				return rc;
			continue;
		}
		if (n == 0)
			return x->done == 0 ? FALL_BACK : 0;
		int rc = lsp_xfer_spliced(x, (size_t)n);
		if (rc)
			return rc;
	}
	return 0;
}

int lsp_xfer_move_copy_file_range(struct xfer *x)
{
	return move_in_kernel(x, SP_PATH_COPY_FILE_RANGE);
}

int lsp_xfer_move_sendfile(struct xfer *x)
{
	return move_in_kernel(x, SP_PATH_SENDFILE);
}
