/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The state of one transfer (lsp_move_range()) and the helpers every data
 * path shares, defined in lib/xfer.c; internal to libsplice. */
#ifndef LIBSPLICE_XFER_H
#define LIBSPLICE_XFER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "internal.h"

struct xfer {
	struct sp_mover *m;
	struct sp_result *res; /* the call's outcome: its failed side */
	int in, out;
	struct endpoint *ein, *eout; /* what is known of in and out */
	loff_t pos;         /* next input offset, for positional input */
	loff_t *posp;       /* &pos for positional input, NULL for the file position */
	uint64_t left;      /* bytes still wanted */
	uint64_t done;      /* bytes delivered to out */
	size_t chunk;       /* bytes asked for per call */
	unsigned int flags; /* splice flags */
	bool staged;        /* bytes went through user memory before the pipe */
	enum sp_path used;  /* the path that moved the bytes */
	bool nocache_in, nocache_out; /* SP_NOCACHE for a regular input, output */
	/* The part of a datagram past the starting offset, read while
	 * skipping to it and delivered first: held_len bytes at held, in
	 * held_alloc when not the mover's buffer (freed after). */
	const char *held;
	size_t held_len;
	char *held_alloc;
	struct nocache cache;
};

static inline size_t lsp_xfer_min(uint64_t a, size_t b)
{
	return a < b ? (size_t)a : b;
}

/* The refusals of splice(2) or vmsplice(2) the transfer may still route
 * around: none once a byte has been delivered. */
static inline enum refusals lsp_xfer_splice_refusals(const struct xfer *x)
{
	return x->done ? REFUSALS_NONE : REFUSALS_SPLICE;
}

/* Record which side failed; returns -err for the caller to pass up. */
int lsp_xfer_fail(struct xfer *x, enum sp_side side, int err);

/* lsp_next_step() for a call of the transfer that failed with err (in_fd
 * and out_fd: the fds to wait for after EAGAIN, or -1), blaming err itself
 * on side blame.  Returns 0 to make the call again, FALL_BACK, or a
 * negative errno with the failed side recorded. */
int lsp_xfer_next_step(struct xfer *x, int err, int in_fd, int out_fd,
		   enum refusals refusals, enum sp_side blame);

/* Account for n bytes delivered to out. */
void lsp_xfer_delivered(struct xfer *x, size_t n, bool spliced);

/* Account for n bytes moved to out without user memory, as one chunk of
 * progress.  Returns 0 or -ECANCELED (the caller asked to stop). */
int lsp_xfer_spliced(struct xfer *x, size_t n);

/* Which fd an error from a call between two caller fds most likely came from. */
enum sp_side lsp_xfer_error_side(const struct xfer *x, int err);

/* Write all n bytes of buf to out.  Returns 0 or a negative errno (output side). */
int lsp_xfer_write_all(struct xfer *x, const char *buf, size_t n);

/* Read up to want bytes of input into buf.  Returns the count (0 at end of
 * input) or a negative errno (input side). */
ssize_t lsp_xfer_read(struct xfer *x, char *buf, size_t want);

/* Move exactly the n bytes sitting in the private pipe on to out; sets
 * *refused when out would not take splices (the bytes then went by
 * read/write).  Returns 0 or a negative errno. */
int lsp_xfer_drain_pipe(struct xfer *x, size_t n, bool *refused);

/* The read/write path for the rest of the transfer: into a datagram
 * socket a datagram of at most DATAGRAM_SIZE bytes per read.  Returns 0
 * or a negative errno. */
int lsp_xfer_move_rw(struct xfer *x);

/* Finish a transfer with read/write, counted as a fallback.  Returns 0 or
 * a negative errno. */
int lsp_xfer_fall_back(struct xfer *x);

/* The copy_file_range(2), sendfile(2), vmsplice(2) and gift paths between
 * a regular input and the output.  Return 0, FALL_BACK when the kernel
 * refused the path before any byte moved, or a negative errno. */
int lsp_xfer_move_copy_file_range(struct xfer *x);
int lsp_xfer_move_sendfile(struct xfer *x);
int lsp_xfer_move_vmsplice(struct xfer *x);
int lsp_xfer_move_gift(struct xfer *x);

#endif
