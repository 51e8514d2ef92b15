/* The state of one sp_move() call and the helpers every data path shares;
 * internal to libsplice. */
#ifndef LIBSPLICE_XFER_H
#define LIBSPLICE_XFER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "internal.h"

struct xfer {
	struct sp_mover *m;
	int in, out;
	bool in_pipe, out_pipe;
	bool in_reg, out_reg; /* regular files */
	off_t in_size;      /* size of a regular input when the transfer began */
	loff_t pos;         /* next input offset, for positional input */
	loff_t *posp;       /* &pos for positional input, NULL for the file position */
	uint64_t left;      /* bytes still wanted */
	uint64_t done;      /* bytes delivered to out */
	size_t chunk;       /* bytes asked for per call */
	unsigned int flags; /* splice flags */
	bool staged;        /* bytes went through user memory before the pipe */
	enum sp_path used;  /* the path that moved the bytes */
};

/* A data path's answer when the kernel refused it before any byte moved:
 * the caller takes the splice path instead. */
#define XFER_REFUSED 1

static inline size_t xfer_min(uint64_t a, size_t b)
{
	return a < b ? (size_t)a : b;
}

/* Record which side failed; returns -err for the caller to pass up. */
int xfer_fail(struct xfer *x, enum sp_side side, int err);

/* Wait until fd is ready for events; a failure is blamed on side, except
 * the caller's own request to stop.  Returns 0 or a negative errno. */
int xfer_wait_for(struct xfer *x, int fd, short events, enum sp_side side);

/* After EINTR: go on unless the caller asked to stop.  Returns 0 or -ECANCELED. */
int xfer_after_eintr(struct xfer *x);

/* After a call on fd failed with err: go on after EINTR (unless the caller
 * asked to stop), wait until fd is ready for events after EAGAIN, and fail
 * the transfer on side for anything else.  Returns 0 to try again or a
 * negative errno. */
int xfer_retry_after(struct xfer *x, int err, int fd, short events, enum sp_side side);

/* Account for n bytes delivered to out. */
void xfer_delivered(struct xfer *x, size_t n, bool spliced);

/* Account for n bytes moved to out without user memory, as one chunk of
 * progress.  Returns 0 or -ECANCELED (the caller asked to stop). */
int xfer_spliced(struct xfer *x, size_t n);

/* Which fd an error from a call between two caller fds most likely came from. */
enum sp_side xfer_error_side(const struct xfer *x, int err);

/* Write all n bytes of buf to out.  Returns 0 or a negative errno (output side). */
int xfer_write_all(struct xfer *x, const char *buf, size_t n);

/* Read up to want bytes of input into buf.  Returns the count (0 at end of
 * input) or a negative errno (input side). */
ssize_t xfer_read(struct xfer *x, char *buf, size_t want);

/* Move exactly the n bytes sitting in the private pipe on to out; sets
 * *refused when out would not take splices (the bytes then went by
 * read/write).  Returns 0 or a negative errno. */
int xfer_drain_pipe(struct xfer *x, size_t n, bool *refused);

/* Finish a transfer with read/write.  Returns 0 or a negative errno. */
int xfer_fall_back(struct xfer *x);

/* The copy_file_range(2), sendfile(2), vmsplice(2) and gift paths between
 * a regular input and the output.  Return 0, XFER_REFUSED, or a negative errno. */
int xfer_move_copy_file_range(struct xfer *x);
int xfer_move_sendfile(struct xfer *x);
int xfer_move_vmsplice(struct xfer *x);
int xfer_move_gift(struct xfer *x);

#endif
