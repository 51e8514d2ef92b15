/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What every data path does after a call that moves bytes failed: make it
 * again, wait for an fd, take another way, or stop. */
#include "config.h"

#include <errno.h>
#include <poll.h>

#include "internal.h"
#include "sys.h"

bool lsp_worker_cancelled(const struct worker *w)
{
	return w->opts->cancel && *w->opts->cancel;
}

int lsp_wait_fd(const struct worker *w, int fd, short events)
{
	struct pollfd p = { .fd = fd, .events = events };
	for (;;) {
		if (lsp_worker_cancelled(w))
			return -ECANCELED;
		int n = sys_poll(w->stats, &p, 1, -1);
		if (n > 0)
			return 0; /* ready, hung up or in error: the next call says which */
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

/* Whether err is one of refusals. */
static bool is_refusal(int err, enum refusals refusals)
{
	switch (refusals) {
	case REFUSALS_COPY:
		if (err == EXDEV || err == EOPNOTSUPP || err == EBADF)
			return true;
		/* fall through */
	case REFUSALS_SPLICE:
		return err == EINVAL || err == ENOSYS;
	default:
		return false;
	}
}

/* Wait for in_fd to be readable and out_fd to be writable, either -1 for
 * none.  Returns 0 or a negative errno; *side names the fd a wait failed
 * for (SP_SIDE_NONE when the caller asked to stop). */
static int wait_until_ready(const struct worker *w, int in_fd, int out_fd,
			    enum sp_side *side)
{
	int rc = in_fd >= 0 ? lsp_wait_fd(w, in_fd, POLLIN) : 0;
	*side = SP_SIDE_INPUT;
	if (!rc && out_fd >= 0) {
		rc = lsp_wait_fd(w, out_fd, POLLOUT);
		*side = SP_SIDE_OUTPUT;
	}
	if (rc == -ECANCELED)
		*side = SP_SIDE_NONE;
	return rc;
}

int lsp_next_step(const struct worker *w, int err, int in_fd, int out_fd,
		 enum refusals refusals, enum sp_side *side)
{
	enum sp_side ignored;
	if (!side)
		side = &ignored;
	if (err == EINTR) {
		if (!lsp_worker_cancelled(w))
			return 0;
		*side = SP_SIDE_NONE;
		return -ECANCELED;
	}
	if (err == EAGAIN) {
		enum sp_side waited;
		int rc = wait_until_ready(w, in_fd, out_fd, &waited);
		if (rc)
			*side = waited;
		return rc;
	}
	if (is_refusal(err, refusals) && may_switch_path(w->opts))
		return FALL_BACK;
	return -err;
}
