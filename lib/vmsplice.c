/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The vmsplice(2) paths: a mapping of the input pushed into the private
 * pipe (SP_PATH_VMSPLICE), and fresh pages read from the input and given
 * to the kernel with SPLICE_F_GIFT (SP_PATH_GIFT); the pipe is then
 * spliced on to the output. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "xfer.h"
#include "sys.h"

/* Push all n bytes at p into the (empty, large enough) private pipe.
 * Returns 0, FALL_BACK when the kernel refuses vmsplice (or these flags)
 * before any byte moved, or a negative errno. */
static int push(struct xfer *x, char *p, size_t n, unsigned int flags)
{
	struct sp_mover *m = x->m;
	const char *start = p;
	while (n) {
		struct iovec iov = { .iov_base = p, .iov_len = n };
		ssize_t k = sys_vmsplice(&m->stats, m->pipe_fds[1], &iov, 1, flags);
		if (k < 0) {
			/* EINTR and EAGAIN (the pipe is full): try again. */
			int rc = lsp_xfer_next_step(x, errno, -1, m->pipe_fds[1],
						p == start ? lsp_xfer_splice_refusals(x) : REFUSALS_NONE,
						SP_SIDE_INPUT);
			if (!rc)
				continue;
			if (rc < 0)
				lsp_private_pipe_discard(m);
			return rc;
		}
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Move the n bytes now in the pipe on to out and report progress; when out
 * refuses splices, finish the transfer with read/write.  Returns 0 or a
 * negative errno; *finished tells that nothing is left to do. */
static int deliver(struct xfer *x, size_t n, bool *finished)
{
	bool refused = false;
	int rc = lsp_xfer_drain_pipe(x, n, &refused);
	if (rc)
		return rc;
	x->left -= n;
	if (refused) {
		*finished = true;
		return lsp_xfer_fall_back(x);
	}
	rc = lsp_report_progress(x->m);
	return rc ? lsp_xfer_fail(x, SP_SIDE_NONE, -rc) : 0;
}

/* Map the input window by window and vmsplice it.  Returns 0, FALL_BACK
 * or a negative errno. */
static int vmsplice_mapped(struct xfer *x)
{
	struct sp_mover *m = x->m;
	size_t page = lsp_page_size();
	bool finished = false;
	x->used = SP_PATH_VMSPLICE;
	while (!finished && x->left && x->pos < x->ein->size) {
		off_t base = x->pos & ~(off_t)(page - 1);
		size_t skew = (size_t)(x->pos - base);
		/* Keep the pages spanned within the pipe's capacity. */
		size_t want = lsp_xfer_min(x->left, m->pipe_size - skew);
		want = lsp_xfer_min((uint64_t)(x->ein->size - x->pos), want);
		char *map = sys_mmap(&m->stats, NULL, want + skew, PROT_READ, MAP_SHARED, x->in, base);
		if (map == MAP_FAILED) {
			int err = errno;
			if (x->done == 0 && (err == ENODEV || err == EINVAL || err == EACCES))
				return FALL_BACK;
			return lsp_xfer_fail(x, SP_SIDE_INPUT, err);
		}
		int rc = push(x, map + skew, want, 0);
		if (!rc) {
			x->pos += (off_t)want;
			rc = deliver(x, want, &finished);
		}
		sys_munmap(&m->stats, map, want + skew);
		if (rc)
			return rc;
	}
	return 0;
}

/* Read into fresh anonymous pages, give them to the pipe and unmap them so
 * that the kernel may keep them.  Returns 0, FALL_BACK or a negative errno. */
static int vmsplice_gift(struct xfer *x)
{
	struct sp_mover *m = x->m;
	size_t size = m->pipe_size & ~(lsp_page_size() - 1);
	bool finished = false;
	x->used = SP_PATH_GIFT;
	while (!finished && x->left) {
		char *buf = sys_mmap(&m->stats, NULL, size, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (buf == MAP_FAILED)
			return lsp_xfer_fail(x, SP_SIDE_NONE, ENOMEM);
		ssize_t n = lsp_xfer_read(x, buf, lsp_xfer_min(x->left, size));
		int rc = n > 0 ? push(x, buf, (size_t)n, SPLICE_F_GIFT) : (int)n;
		sys_munmap(&m->stats, buf, size);
		if (rc == FALL_BACK)
			x->pos -= n; /* nothing left the buffer: read it again */
		if (rc || n == 0)
			return rc;
		x->staged = true; /* read(2) copied these bytes into user memory */
		rc = deliver(x, (size_t)n, &finished);
		if (rc)
			return rc;
	}
	return 0;
}

/* Run body positionally from the transfer's offset (or the file position,
 * which is then left after the bytes moved).  Returns what body returns, or
 * a negative errno when the private pipe or the file position fails. */
static int positional(struct xfer *x, int (*body)(struct xfer *))
{
	if (lsp_private_pipe(x->m))
		return FALL_BACK;
	bool at_position = !x->posp;
	if (at_position) {
		off_t pos = sys_lseek(&x->m->stats, x->in, 0, SEEK_CUR);
		if (pos < 0)
			return FALL_BACK;
		x->pos = pos;
		x->posp = &x->pos;
	}
	int rc = body(x);
	if (at_position) {
		x->posp = NULL;
		if (sys_lseek(&x->m->stats, x->in, x->pos, SEEK_SET) < 0 && rc <= 0)
			rc = lsp_xfer_fail(x, SP_SIDE_INPUT, errno);
	}
	return rc;
}

int lsp_xfer_move_vmsplice(struct xfer *x)
{
	return positional(x, vmsplice_mapped);
}

int lsp_xfer_move_gift(struct xfer *x)
{
	return positional(x, vmsplice_gift);
}
