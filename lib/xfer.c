/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The helpers every data path of one transfer shares (lib/xfer.h): the
 * failed side, the accounting of delivered bytes, reading and writing
 * with retries, the read/write path every other path falls back to, and
 * draining the private pipe. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xfer.h"
#include "sys.h"

/* Record which side failed; returns -err for the caller to pass up. */
int lsp_xfer_fail(struct xfer *x, enum sp_side side, int err)
{
	x->res->side = side;
	return -err;
}

int lsp_xfer_next_step(struct xfer *x, int err, int in_fd, int out_fd,
		   enum refusals refusals, enum sp_side blame)
{
	enum sp_side side = blame;
	int rc = lsp_next_step(&x->m->worker, err, in_fd, out_fd, refusals, &side);
	return rc < 0 ? lsp_xfer_fail(x, side, -rc) : rc;
}

/* Account for n bytes delivered to out. */
void lsp_xfer_delivered(struct xfer *x, size_t n, bool spliced)
{
	x->done += n;
	x->m->stats.bytes += n;
	if (spliced && !x->staged)
		x->m->stats.bytes_spliced += n;
	else
		x->m->stats.bytes_copied += n;
}

/* Count n spliced bytes and report progress (see xfer.h). */
int lsp_xfer_spliced(struct xfer *x, size_t n)
{
	x->left -= n;
	lsp_xfer_delivered(x, n, true);
	int rc = lsp_report_progress(x->m);
	return rc ? lsp_xfer_fail(x, SP_SIDE_NONE, -rc) : 0;
}

/* Whether err is an error of a network connection, which only a socket
 * gives. */
static bool network_error(int err)
{
	switch (err) {
	case ECONNRESET: case ECONNREFUSED: case ECONNABORTED: case ENOTCONN:
	case EDESTADDRREQ: case EMSGSIZE: case ENETDOWN: case ENETUNREACH:
	case ENETRESET: case EHOSTDOWN: case EHOSTUNREACH: case ETIMEDOUT: case ENOBUFS:
		return true;
	default:
		return false;
	}
}

/* Which fd an error from a call between two caller fds (splice, sendfile,
 * copy_file_range) most likely came from: one only writing fails with
 * (ENOSPC ...) is the output; a network error is the socket's, the
 * output when it is one (sendfile's file input has no connection to
 * lose); a pipe does not fail reads or writes by itself, so blame the
 * other end; a bad fd is blamed on the one opened the wrong way. */
enum sp_side lsp_xfer_error_side(const struct xfer *x, int err)
{
	if (network_error(err))
		return S_ISSOCK(x->eout->type) ? SP_SIDE_OUTPUT : SP_SIDE_INPUT;
	switch (err) {
	case EPIPE: case ENOSPC: case EDQUOT: case EFBIG:
		return SP_SIDE_OUTPUT;
	case EBADF: {
		int fl = sys_fcntl(&x->m->stats, x->in, F_GETFL, 0);
		return fl < 0 || (fl & O_ACCMODE) == O_WRONLY ? SP_SIDE_INPUT : SP_SIDE_OUTPUT;
	}
	default:
		return S_ISFIFO(x->ein->type) && !S_ISFIFO(x->eout->type) ? SP_SIDE_OUTPUT : SP_SIDE_INPUT;
	}
}

/* Write all n bytes of buf to out.  Returns 0 or a negative errno (output side). */
int lsp_xfer_write_all(struct xfer *x, const char *buf, size_t n)
{
	struct sp_mover *m = x->m;
	while (n) {
		ssize_t w;
		if (x->nocache_out) {
			w = lsp_nocache_file_write(&x->cache, &m->stats, x->out, buf, n);
		} else {
			w = sys_write(&m->stats, x->out, buf, n);
			w = w >= 0 ? w : -errno;
		}
		if (w < 0) {
			int rc = lsp_xfer_next_step(x, (int)-w, -1, x->out, REFUSALS_NONE,
						SP_SIDE_OUTPUT);
			if (rc)
				return rc;
			continue;
		}
		lsp_xfer_delivered(x, (size_t)w, false);
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

ssize_t lsp_xfer_read(struct xfer *x, char *buf, size_t want)
{
	struct sp_mover *m = x->m;
	for (;;) {
		ssize_t n;
		if (x->nocache_in) {
			n = lsp_nocache_file_read(&x->cache, &m->stats, x->in, buf, want, x->posp);
		} else {
			n = x->posp ? sys_pread(&m->stats, x->in, buf, want, *x->posp) : sys_read(&m->stats, x->in, buf, want);
			n = n >= 0 ? n : -errno;
		}
		if (n >= 0) {
			if (x->posp)
				*x->posp += n;
			return n;
		}
		int rc = lsp_xfer_next_step(x, (int)-n, x->in, -1, REFUSALS_NONE, SP_SIDE_INPUT);
		if (rc)
			return rc;
	}
}

/* The read/write path: into a datagram socket a datagram of at most
 * DATAGRAM_SIZE bytes per read.  Returns 0 or a negative errno. */
int lsp_xfer_move_rw(struct xfer *x)
{
	struct sp_mover *m = x->m;
	int rc = lsp_mover_buffer(m);
	if (rc)
		return lsp_xfer_fail(x, SP_SIDE_NONE, -rc);
	x->used = SP_PATH_RW;
	size_t size = m->opts.buffer_size;
	if (x->eout->datagram && size > DATAGRAM_SIZE)
		size = DATAGRAM_SIZE;
	while (x->left) {
		ssize_t n = lsp_xfer_read(x, m->buf, lsp_xfer_min(x->left, size));
		if (n <= 0)
			return (int)n;
		x->left -= (uint64_t)n;
		rc = lsp_xfer_write_all(x, m->buf, (size_t)n);
		if (!rc)
			rc = lsp_report_progress(m);
		if (rc)
			return x->res->side ? rc : lsp_xfer_fail(x, SP_SIDE_NONE, -rc);
	}
	return 0;
}

/* Switch to read/write for the rest of a transfer the kernel would not splice. */
int lsp_xfer_fall_back(struct xfer *x)
{
	x->m->stats.fallbacks++;
	return lsp_xfer_move_rw(x);
}

/* Copy the n bytes sitting in the private pipe to out with read/write:
 * out refused splice before anything reached it. */
static int copy_out_of_pipe(struct xfer *x, size_t n)
{
	struct sp_mover *m = x->m;
	int rc = lsp_mover_buffer(m);
	while (!rc && n) {
		ssize_t got = sys_read(&m->stats, m->pipe_fds[0], m->buf, lsp_xfer_min(n, m->opts.buffer_size));
		if (got < 0) {
			rc = lsp_xfer_next_step(x, errno, m->pipe_fds[0], -1, REFUSALS_NONE,
					    SP_SIDE_NONE);
			continue;
		}
		if (got == 0)
			return lsp_xfer_fail(x, SP_SIDE_NONE, EIO);
		n -= (size_t)got;
		rc = lsp_xfer_write_all(x, m->buf, (size_t)got);
	}
	return rc;
}

/* Move exactly the n bytes just spliced into the private pipe on to out.
 * Sets *refused when out turned out not to take splices at all (then the
 * bytes went by read/write).  Returns 0 or a negative errno; on error the
 * pipe is discarded so that nothing in it leaks into a later transfer. */
int lsp_xfer_drain_pipe(struct xfer *x, size_t n, bool *refused)
{
	struct sp_mover *m = x->m;
	int rc = 0;
	while (n) {
		ssize_t k = sys_splice(&m->stats, m->pipe_fds[0], NULL, x->out, NULL, n, x->flags);
		if (k > 0) {
			n -= (size_t)k;
			lsp_xfer_delivered(x, (size_t)k, true);
			continue;
		}
		rc = lsp_xfer_next_step(x, k < 0 ? errno : EIO, -1, x->out, lsp_xfer_splice_refusals(x),
				    SP_SIDE_OUTPUT);
		if (rc == FALL_BACK) {
			*refused = true;
			rc = copy_out_of_pipe(x, n);
			n = 0;
		}
		if (rc)
			break;
	}
	if (rc)
		lsp_private_pipe_discard(m);
	return rc;
}
