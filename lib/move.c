/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* lsp_move_range(): one transfer from an fd to an fd, by the cheapest path. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xfer.h"
#include "sys.h"

/* The whole length of the datagram waiting on the socket input, however
 * little of it a read would take (MSG_PEEK | MSG_TRUNC, which leaves it
 * there), waiting for one as a read would.  Returns it (0 at end of input,
 * or for an empty datagram) or a negative errno. */
static ssize_t peek_datagram(struct xfer *x)
{
	for (;;) {
		ssize_t n = sys_recv(&x->m->stats, x->in, NULL, 0, MSG_PEEK | MSG_TRUNC);
		if (n >= 0)
			return n;
		int rc = lsp_xfer_next_step(x, errno, x->in, -1, REFUSALS_NONE, SP_SIDE_INPUT);
		if (rc)
			return rc;
	}
}

/* Read the waiting datagram of size bytes whole, and hold its bytes past
 * the first skip for the output (delivered before the rest of the
 * transfer).  Returns 0 or a negative errno. */
static int hold_datagram_tail(struct xfer *x, size_t size, size_t skip)
{
	char *buf = x->m->buf;
	if (size > x->m->opts.buffer_size) {
		buf = x->held_alloc = malloc(size);
		if (!buf)
			return lsp_xfer_fail(x, SP_SIDE_NONE, ENOMEM);
	}
	ssize_t got = lsp_xfer_read(x, buf, size);
	if (got < 0)
		return (int)got;
	if ((size_t)got > skip) {
		x->held = buf + skip;
		x->held_len = lsp_xfer_min(x->left, (size_t)got - skip);
	}
	return 0;
}

/* Skip n bytes of an input that cannot seek by reading and dropping them.
 * From a socket that keeps message boundaries a read takes one datagram
 * and drops what does not fit: each is read whole, and the bytes of the
 * one the offset falls in that come after it are kept for the output.
 * Returns 0 (also at an early end of input) or a negative errno. */
static int skip_input(struct xfer *x, uint64_t n)
{
	int rc = lsp_mover_buffer(x->m);
	if (rc)
		return lsp_xfer_fail(x, SP_SIDE_NONE, -rc);
	bool datagrams = S_ISSOCK(x->ein->type) && lsp_socket_datagram(x->m, x->in);
	while (n) {
		ssize_t size = 0;
		if (datagrams) {
			size = peek_datagram(x);
			if (size < 0)
				return (int)size;
			if ((uint64_t)size > n)
				return hold_datagram_tail(x, (size_t)size, (size_t)n);
		}
		ssize_t got = lsp_xfer_read(x, x->m->buf, lsp_xfer_min(n, x->m->opts.buffer_size));
		if (got <= 0)
			return (int)got;
		n -= (uint64_t)(size > got ? size : got);
	}
	return 0;
}

/* Deliver what skipping to the offset held of a datagram (see
 * skip_input()).  Returns 0 or a negative errno. */
static int deliver_held(struct xfer *x)
{
	x->used = SP_PATH_RW;
	int rc = lsp_xfer_write_all(x, x->held, x->held_len);
	x->left -= x->held_len;
	if (!rc && (rc = lsp_report_progress(x->m)))
		rc = lsp_xfer_fail(x, SP_SIDE_NONE, -rc);
	return rc;
}

/* Splice up to len bytes of input into to: out itself, or the empty
 * private pipe, which neither holds the call up nor fails it (only the
 * input can).  Returns 0 with the count in *n (0 at end of input),
 * FALL_BACK when the kernel refused before any byte was delivered, or
 * a negative errno. */
static int splice_input(struct xfer *x, int to, size_t len, size_t *n)
{
	bool direct = to == x->out;
	for (;;) {
		ssize_t k = sys_splice(&x->m->stats, x->in, x->posp, to, NULL, len, x->flags);
		if (k >= 0) {
			*n = (size_t)k;
			return 0;
		}
		int err = errno;
		int rc = lsp_xfer_next_step(x, err, x->in, direct ? x->out : -1,
					lsp_xfer_splice_refusals(x),
					direct ? lsp_xfer_error_side(x, err) : SP_SIDE_INPUT);
		if (rc)
			return rc;
	}
}

/* One splice at a time straight from in to out (one of them is a pipe). */
static int move_direct(struct xfer *x)
{
	x->used = SP_PATH_SPLICE;
	while (x->left) {
		size_t n;
		int rc = splice_input(x, x->out, lsp_xfer_min(x->left, x->chunk), &n);
		if (rc == FALL_BACK)
			return lsp_xfer_fall_back(x);
		if (rc || n == 0)
			return rc;
		rc = lsp_xfer_spliced(x, n);
		if (rc)
			return rc;
	}
	return 0;
}

/* splice in -> private pipe -> out, chunk by chunk (neither fd is a pipe,
 * or relay_into_pipe()). */
static int move_via_pipe(struct xfer *x)
{
	struct sp_mover *m = x->m;
	int rc = lsp_private_pipe(m);
	if (rc) {
		if (may_switch_path(&m->opts)) {
			m->pipe_unavailable = true;
			return lsp_xfer_fall_back(x);
		}
		return lsp_xfer_fail(x, SP_SIDE_NONE, -rc);
	}
	x->used = SP_PATH_SPLICE;
	m->stats.pipe_size = m->pipe_size;
	while (x->left) {
		size_t n;
		rc = splice_input(x, m->pipe_fds[1], lsp_xfer_min(x->left, m->pipe_size), &n);
		if (rc == FALL_BACK)
			return lsp_xfer_fall_back(x);
		if (rc || n == 0)
			return rc;
		x->left -= n;
		bool refused = false;
		rc = lsp_xfer_drain_pipe(x, n, &refused);
		if (rc)
			return rc;
		if (refused)
			return lsp_xfer_fall_back(x);
		rc = lsp_report_progress(m);
		if (rc)
			return lsp_xfer_fail(x, SP_SIDE_NONE, -rc);
	}
	return 0;
}

/* Complete the output's endpoint (its fstat, flags and socket kind where
 * not known), reusing what the mover remembers when it is the same file,
 * and grow an output pipe or a stream socket's send buffer once.  Returns
 * 0 or a negative errno (output side). */
static int examine_output(struct xfer *x)
{
	struct sp_mover *m = x->m;
	struct output_memo *memo = &m->out_memo;
	struct endpoint *e = x->eout;
	int rc = lsp_endpoint_look(e, &m->stats);
	if (rc)
		return lsp_xfer_fail(x, SP_SIDE_OUTPUT, -rc);
	if (memo->valid && memo->ep.fd == e->fd && memo->ep.dev == e->dev &&
	    memo->ep.ino == e->ino) {
		e->append = memo->ep.append;
		e->datagram = memo->ep.datagram;
		e->refused = memo->ep.refused;
		e->flags_known = true;
		return 0;
	}
	*memo = (struct output_memo){ .valid = true };
	lsp_endpoint_output(m, e);
	if (S_ISFIFO(e->type))
		memo->pipe_size = lsp_pipe_grow(&m->stats, e->fd, m->opts.pipe_size);
	else if (S_ISSOCK(e->type) && !e->datagram)
		memo->socket_buffer = lsp_socket_grow(m, e->fd, m->opts.pipe_size);
	memo->ep = *e;
	if (S_ISSOCK(e->type) && memo->socket_buffer > 0)
		m->stats.socket_buffer = (uint64_t)memo->socket_buffer;
	return 0;
}

/* Complete the input's endpoint and apply the starting offset.  Returns 0
 * or a negative errno. */
static int examine_input(struct xfer *x, int64_t offset)
{
	int rc = lsp_endpoint_look(x->ein, &x->m->stats);
	if (rc)
		return lsp_xfer_fail(x, SP_SIDE_INPUT, -rc);
	if (S_ISDIR(x->ein->type))
		return lsp_xfer_fail(x, SP_SIDE_INPUT, EISDIR);
	if (offset == SP_OFFSET_CURRENT)
		return 0;
	if (offset < 0)
		return lsp_xfer_fail(x, SP_SIDE_NONE, EINVAL);
	if (S_ISREG(x->ein->type) || S_ISBLK(x->ein->type)) {
		x->pos = offset;
		x->posp = &x->pos;
		return 0;
	}
	return skip_input(x, (uint64_t)offset);
}

/* Whether a regular file goes into the output pipe through the private
 * pipe: when more than two pipe-fulls of it are wanted.  As cat 9.11
 * does, the page-cache lookups of the splice into the private pipe then
 * happen outside the output pipe's lock, so that a reader splicing out of
 * it is not held up by them, and writer and reader overlap (NEWS has
 * the measurement).  A smaller file is one splice straight in: an extra
 * splice per small file costs more than it gains. */
static bool relay_into_pipe(const struct xfer *x)
{
	if (!S_ISFIFO(x->eout->type) || S_ISFIFO(x->ein->type) || !S_ISREG(x->ein->type) || x->m->pipe_unavailable)
		return false;
	uint64_t size = (uint64_t)x->ein->size, from = x->posp ? (uint64_t)x->pos : 0;
	uint64_t wanted = size > from ? size - from : 0;
	if (x->left < wanted)
		wanted = x->left;
	return wanted > 2 * (uint64_t)x->m->opts.pipe_size;
}

/* The splice path: one splice when an fd is a pipe (a large regular file
 * into a pipe: through the private pipe), else through the private pipe;
 * read/write where the kernel refuses. */
static int run_splice(struct xfer *x)
{
	struct sp_mover *m = x->m;
	if (relay_into_pipe(x) && lsp_private_pipe(m) == 0)
		return move_via_pipe(x);
	if (S_ISFIFO(x->ein->type) || S_ISFIFO(x->eout->type)) {
		long size = S_ISFIFO(x->eout->type) ? m->out_memo.pipe_size : 0;
		if (S_ISFIFO(x->ein->type)) {
			long in_size = lsp_pipe_grow(&m->stats, x->in, m->opts.pipe_size);
			if (in_size > size)
				size = in_size;
		}
		x->chunk = size > 0 ? (size_t)size : m->opts.pipe_size;
		m->stats.pipe_size = x->chunk;
		return move_direct(x);
	}
	if (endpoint_refuses(x->eout, SP_PATH_SPLICE)) {
		/* splice(2) refuses every output opened with O_APPEND. */
		if (!may_switch_path(&m->opts))
			return lsp_xfer_fail(x, SP_SIDE_OUTPUT, EINVAL);
		return lsp_xfer_fall_back(x);
	}
	if (m->pipe_unavailable && may_switch_path(&m->opts))
		return lsp_xfer_fall_back(x);
	return move_via_pipe(x);
}

/* The path other than splice that the mover's policy takes for this pair
 * of fds, or NULL for the splice path (also when the path asked for does
 * not apply to these fds). */
static int (*added_path(const struct xfer *x))(struct xfer *)
{
	const struct sp_options *o = &x->m->opts;
	if (!S_ISREG(x->ein->type) || x->eout->append)
		return NULL;
	if (o->policy == SP_POLICY_AUTO) {
		/* SPLICE_F_MOVE only means something on the splice path. */
		if (o->splice_flags & SPLICE_F_MOVE)
			return NULL;
		/* Into a socket sendfile(2) is one call per chunk where the
		 * splice path makes two (file -> private pipe -> socket); the
		 * kernel's work is the same (measured: equal CPU time). */
		return S_ISREG(x->eout->type) ? lsp_xfer_move_copy_file_range
				  : S_ISSOCK(x->eout->type) ? lsp_xfer_move_sendfile : NULL;
	}
	switch (o->path) {
	case SP_PATH_COPY_FILE_RANGE:
		return S_ISREG(x->eout->type) ? lsp_xfer_move_copy_file_range : NULL;
	case SP_PATH_SENDFILE:
		return lsp_xfer_move_sendfile;
	case SP_PATH_VMSPLICE:
		return lsp_xfer_move_vmsplice;
	case SP_PATH_GIFT:
		return lsp_xfer_move_gift;
	default:
		return NULL;
	}
}

/* Pick the path for a transfer and run it. */
static int take_path(struct xfer *x)
{
	struct sp_mover *m = x->m;
	/* Uncached I/O is for read(2) and write(2) only. */
	if (rw_only(&m->opts) || x->nocache_in || x->nocache_out)
		return lsp_xfer_move_rw(x);
	if (x->eout->datagram && may_switch_path(&m->opts)) {
		/* Into a datagram socket, as GNU cat after the socket refused
		 * its splice: read/write, a datagram per read (move_rw()). */
		if (m->opts.policy == SP_POLICY_PREFER)
			m->stats.fallbacks++;
		return lsp_xfer_move_rw(x);
	}
	int (*path)(struct xfer *) = added_path(x);
	if (path) {
		int rc = path(x);
		if (rc != FALL_BACK)
			return rc;
	}
	bool other_path = m->opts.policy != SP_POLICY_AUTO && m->opts.path != SP_PATH_SPLICE;
	if (other_path && !may_switch_path(&m->opts))
		return lsp_xfer_fail(x, SP_SIDE_NONE, EINVAL); /* the only path refused */
	if (other_path)
		m->stats.fallbacks++; /* the path asked for could not be used */
	return run_splice(x);
}

int64_t lsp_move_range(struct sp_mover *m, struct endpoint *in, struct endpoint *out,
		       int64_t offset, uint64_t length, struct sp_result *res)
{
	int saved_errno = errno;
	uint64_t start = lsp_now_ns();
	struct xfer x = { .m = m, .res = res, .in = in->fd, .out = out->fd, .ein = in, .eout = out,
			  .left = length, .flags = m->opts.splice_flags, .used = SP_PATH_NONE };
	res->side = SP_SIDE_NONE;

	int rc = 0;
	if (length)
		rc = examine_input(&x, offset);
	if (!rc && length)
		rc = examine_output(&x);
	if (m->opts.flags & SP_NOCACHE) {
		x.nocache_in = S_ISREG(in->type);
		x.nocache_out = S_ISREG(out->type);
	}
	if (!rc && x.held_len)
		rc = deliver_held(&x);
	free(x.held_alloc);
	if (!rc && x.left)
		rc = take_path(&x);
	if (x.nocache_in || x.nocache_out)
		lsp_nocache_finish(&x.cache, &m->stats, x.nocache_in ? in->fd : -1,
				   x.nocache_out ? out->fd : -1);

	res->bytes = x.done;
	res->path = x.used;
	m->stats.elapsed_ns += lsp_now_ns() - start;
	errno = saved_errno;
	return rc ? rc : (int64_t)x.done;
}
