/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libsplice internals shared between its source files; not installed. */
#ifndef LIBSPLICE_INTERNAL_H
#define LIBSPLICE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "clock.h"
#include "libsplice.h"

/* Everything declared from here on is internal to the library: hidden from
 * the users of the shared library; no name here takes the public sp_
 * prefix, and the functions take lsp_ ("libsplice private") so that the
 * static library's symbols do not meet a program's own names. */
#pragma GCC visibility push(hidden)

/* What the mover remembers about the last output fd it wrote to, so that a
 * run of transfers into one output (spcat with many files) asks the kernel
 * about it only once. */
/* What the library knows of one descriptor of a transfer, worked out once
 * per descriptor and passed down to every path (lib/endpoint.c): the one
 * place where the facts about an fd are kept. */
struct endpoint {
	int fd;
	bool known;      /* type, dev, ino and size below are filled */
	mode_t type;     /* st_mode & S_IFMT */
	dev_t dev;       /* its file system */
	ino_t ino;
	off_t size;      /* st_size when looked at */
	bool flags_known; /* an output's append below is known */
	bool append;     /* an output opened with O_APPEND */
	bool datagram;   /* a socket that keeps message boundaries */
	unsigned refused; /* bit (1 << enum sp_path) per path the kernel
			   * refuses for this fd, known before any call */
};

/* An endpoint for fd of which nothing is known yet. */
#define ENDPOINT_INIT(descriptor) ((struct endpoint){ .fd = (descriptor) })

/* Fill e's type, dev, ino and size from st (the caller's fstat of e->fd). */
void lsp_endpoint_from_stat(struct endpoint *e, const struct stat *st);

/* Make sure e's type, dev, ino and size are known: fstat(2) of e->fd when
 * not (counted in stats).  Returns 0 or a negative errno. */
int lsp_endpoint_look(struct endpoint *e, struct sp_stats *stats);

struct sp_mover;

/* Complete what is known of the output e (its type known): for anything
 * but a pipe, whether it was opened with O_APPEND (unless flags_known
 * says so already) and, for a socket, whether it keeps message
 * boundaries; and the paths the kernel refuses for it.  The one place
 * where these facts about an output are worked out (lib/endpoint.c). */
void lsp_endpoint_output(struct sp_mover *m, struct endpoint *e);

/* Whether the kernel refuses path for e (known before any call). */
static inline bool endpoint_refuses(const struct endpoint *e, enum sp_path path)
{
	return e->refused & (1u << path);
}

/* What the mover remembers about the last output it wrote to, so that a
 * run of transfers into one output (spcat with many files) asks the
 * kernel about it only once: its endpoint, pipe size and send buffer. */
struct output_memo {
	bool valid;
	struct endpoint ep;
	long pipe_size;  /* for a pipe: its size after growing */
	long socket_buffer; /* for a stream socket: its send buffer after growing */
};

/* What one thread that moves data works with: the caller's options, only
 * read (a fan-out's helper threads share them with the calling thread), and
 * the counters its system calls add to. */
struct worker {
	const struct sp_options *opts;
	struct sp_stats *stats;
};

/* The size of a page of memory. */
static inline size_t lsp_page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

/* The read/write buffer under SP_NOCACHE when the caller sets none. */
#define NOCACHE_BUFFER_SIZE (1024 * 1024)

/* SP_NOCACHE's state for one transfer's regular input and output
 * (nocache.c). */
struct nocache {
	bool plain_in, plain_out; /* RWF_DONTCACHE refused: drop by hand */
	bool tracking;            /* the output's offsets below are known */
	off_t dropped, started, end; /* output: dropped up to, writeback
				      * started up to, written up to */
	unsigned char *cached;    /* input: mincore(2) of the pages from */
	off_t cached_from;        /* here on, before the transfer read them */
	bool cached_valid;
	bool reading;             /* input: in_end and in_dropped are known */
	off_t in_end, in_dropped; /* read up to, dropped up to */
};

/* read(2) (pread(2) at *posp when posp is not NULL) of a regular file with
 * SP_NOCACHE.  Returns the count or a negative errno. */
ssize_t lsp_nocache_file_read(struct nocache *c, struct sp_stats *st, int fd, void *buf,
			size_t len, loff_t *posp);

/* write(2) to a regular file with SP_NOCACHE.  Returns the count or a
 * negative errno. */
ssize_t lsp_nocache_file_write(struct nocache *c, struct sp_stats *st, int fd, const void *buf,
			 size_t len);

/* The end of a transfer: drop what is left of the pages read from in_fd
 * and flush and drop what is left of the writes to out_fd (-1: none of
 * either), free c's memory and reset it.  Leaves errno alone. */
void lsp_nocache_finish(struct nocache *c, struct sp_stats *st, int in_fd, int out_fd);

/* A refusal of the kernel's for copies from file system in_dev to out_dev. */
struct fs_pair {
	bool valid;
	dev_t in_dev, out_dev;
};

/* Whether p holds the refusal for the pair (in_dev, out_dev). */
static inline bool fs_pair_refused(const struct fs_pair *p, dev_t in_dev, dev_t out_dev)
{
	return p->valid && p->in_dev == in_dev && p->out_dev == out_dev;
}

/* Remember a refusal for the pair (in_dev, out_dev). */
static inline void fs_pair_remember(struct fs_pair *p, dev_t in_dev, dev_t out_dev)
{
	*p = (struct fs_pair){ .valid = true, .in_dev = in_dev, .out_dev = out_dev };
}

struct sp_mover {
	struct sp_options opts;
	struct sp_stats stats;
	struct worker worker; /* the calling thread's: opts and stats above */
	int pipe_fds[2];         /* private pipe; -1 until first needed */
	size_t pipe_size;        /* its size */
	bool pipe_unavailable;   /* pipe2() failed: stay on read/write */
	char *buf;               /* read/write buffer, allocated on first use */
	struct output_memo out_memo;
	/* The kernel's answers for a pair of file systems (their superblocks,
	 * st_dev of the input and of the output), not asked again for every
	 * file of a tree copied across: copy_file_range(2) refused with
	 * EXDEV, FICLONE with EXDEV or EOPNOTSUPP. */
	struct fs_pair no_copy_range, no_clone;
	/* Whether on file system dev a regular file's size is where its data
	 * ends (lsp_copy_whole()), known once valid. */
	struct {
		bool valid, exact;
		dev_t dev;
	} size_is_end;
};

/* Whether the mover may leave a path the kernel refuses for another one:
 * every policy but SP_POLICY_ONLY. */
static inline bool may_switch_path(const struct sp_options *o)
{
	return o->policy != SP_POLICY_ONLY;
}

/* Whether the mover moves bytes with read(2)/write(2) only. */
static inline bool rw_only(const struct sp_options *o)
{
	return o->policy != SP_POLICY_AUTO && o->path == SP_PATH_RW;
}

/* True when the caller asked to stop (its cancel flag is set). */
bool lsp_worker_cancelled(const struct worker *w);

/* Block until fd is ready for events (POLLIN or POLLOUT).  Returns 0, or a
 * negative errno value (-ECANCELED when the caller asked to stop). */
int lsp_wait_fd(const struct worker *w, int fd, short events);

/* What a data path, or lsp_next_step(), answers: 0 (done, or "call again"
 * for lsp_next_step()), FALL_BACK when the kernel refused a route before
 * any byte moved on it -- the caller takes another way (read/write, or the
 * splice path) -- or a negative errno.  FALL_BACK is positive: never a
 * count, never an errno. */
enum lsp_outcome { LSP_DONE = 0, FALL_BACK = 1 };

/* Which errors of a failed call mean that the kernel refuses the route
 * rather than that the transfer failed, so that another way may be taken. */
enum refusals {
	REFUSALS_NONE,   /* none: bytes have moved on the route, or it has
			     * no other way (read(2), write(2)) */
	REFUSALS_SPLICE, /* EINVAL, ENOSYS: an fd takes no splice(2), tee(2)
			     * or vmsplice(2) */
	REFUSALS_COPY,   /* those and EXDEV, EOPNOTSUPP, EBADF: no
			     * copy_file_range(2) or sendfile(2) between the files */
};

/*
 * The one decision every data path (sp_copy()'s and sp_fanout()'s) makes
 * after a call that moves bytes failed with err:
 *  - EINTR: make the call again, unless the caller asked to stop;
 *  - EAGAIN: wait until in_fd can be read, then until out_fd can be
 *    written (-1: not waited for), and make the call again;
 *  - a refusal (see refusals), unless the policy is SP_POLICY_ONLY:
 *    take another way;
 *  - anything else: the error.
 * Returns 0 to make the call again, FALL_BACK, or a negative errno:
 * -ECANCELED when the caller asked to stop (*side becomes SP_SIDE_NONE),
 * a failed wait (*side becomes SP_SIDE_INPUT for in_fd, SP_SIDE_OUTPUT for
 * out_fd), or -err (*side keeps the side the caller blames for err).  side
 * may be NULL.
 */
int lsp_next_step(const struct worker *w, int err, int in_fd, int out_fd,
		 enum refusals refusals, enum sp_side *side);

/* The sizes of release 1.0's structs: the smallest a caller may pass.
 * Each is the end of the struct's last field in 1.0, so that it stays
 * what it is when a later release adds fields. */
#define SP_COPY_ARGS_SIZE_1_0 (offsetof(struct sp_copy_args, out_st) + sizeof(void *))
#define SP_RESULT_SIZE_1_0 (offsetof(struct sp_result, side) + sizeof(enum sp_side))
#define SP_STATS_SIZE_1_0 (offsetof(struct sp_stats, socket_buffer) + sizeof(uint64_t))
#define SP_OPTIONS_SIZE_1_0 (offsetof(struct sp_options, flags) + sizeof(unsigned int))
#define SP_FANOUT_STATUS_SIZE_1_0 (offsetof(struct sp_fanout_status, copied) + sizeof(int))

/* Whether the caller's struct s of size bytes is one this release can
 * read: size at least min (release 1.0's), and every byte past the mine
 * this release knows zero (a field of a later release asked for
 * something) (lib/sized.c). */
bool lsp_sized_valid(const void *s, size_t size, size_t min, size_t mine);

/* Give the caller's struct dst of size bytes what src (this release's,
 * mine bytes) holds, as far as both know, leaving dst's first keep bytes
 * alone (its size field: sizeof(size_t); 0 for an array's element);
 * bytes of dst past mine (fields of a later release) are zeroed. */
void lsp_sized_store(void *dst, size_t size, const void *src, size_t mine, size_t keep);

/* Give the caller's result (NULL: none wanted; its size at least
 * SP_RESULT_SIZE_1_0) the outcome in res (lib/copy.c). */
void lsp_result_store(struct sp_result *result, const struct sp_result *res);

/* One transfer of up to length bytes from the input in (from offset, or
 * SP_OFFSET_CURRENT) to the output out.  What the endpoints already know
 * is not asked of the kernel again (a system call can cost more than the
 * 4 KiB copy it serves); what is not, is looked up and filled in.  res (never NULL) gets the bytes written, the path
 * and the failed side.  Returns the count or a negative errno
 * (lib/move.c). */
int64_t lsp_move_range(struct sp_mover *m, struct endpoint *in, struct endpoint *out,
		       int64_t offset, uint64_t length, struct sp_result *res);

/* sp_copy() with SP_COPY_WHOLE (args checked): all of in_fd to out_fd,
 * cloned or copied with holes as the flags and args->holes say.  res as
 * for lsp_move_range().  Returns the count or a negative errno (lib/whole.c). */
int64_t lsp_copy_whole(struct sp_mover *m, const struct sp_copy_args *args, struct sp_result *res);

/* The most bytes one write(2) sends into a datagram socket: GNU tee's
 * buffer (8 KiB), in which GNU cat too sends what it had spliced before
 * the socket refused.  A datagram is what one call gives: splice(2) and
 * sendfile(2) make one of a whole chunk, which the kernel refuses over
 * 64 KiB (UDP: EMSGSIZE, nothing sent); and a receiver reads a datagram
 * into a buffer of its own size, cutting off the rest (socat's default
 * buffer is 8 KiB). */
#define DATAGRAM_SIZE 8192

/* Whether the socket fd keeps message boundaries (SOCK_DGRAM, as UDP, or
 * SOCK_SEQPACKET), so that every call writing to it is one message: such
 * an output gets write(2)s of at most DATAGRAM_SIZE bytes.  False for
 * a stream socket, or when fd cannot tell. */
bool lsp_socket_datagram(struct sp_mover *m, int fd);

/* Grow the send buffer (SO_SNDBUF) of socket fd so that it holds at least
 * want bytes of data, within net.core.wmem_max; never shrink it.  Returns
 * its size as the kernel reports it (twice the data it holds), or a
 * negative errno when fd is no socket. */
long lsp_socket_grow(struct sp_mover *m, int fd, size_t want);

/* Make sure the private pipe exists.  Returns 0 or a negative errno value. */
int lsp_private_pipe(struct sp_mover *m);

/* Close the private pipe, discarding anything left in it. */
void lsp_private_pipe_discard(struct sp_mover *m);

/* Make sure the read/write buffer exists.  Returns 0 or -ENOMEM. */
int lsp_mover_buffer(struct sp_mover *m);

/* Report progress after a chunk; returns 0 or -ECANCELED. */
int lsp_report_progress(struct sp_mover *m);

/* Store in pfn[] the physical frame numbers of the pages (present, e.g.
 * touched) from addr on.  Returns 0, -EPERM when the kernel hides frame
 * numbers (they need CAP_SYS_ADMIN), -EFAULT when a page is not present,
 * or another negative errno when /proc/self/pagemap cannot be read. */
int lsp_page_frames(const void *addr, size_t pages, size_t page_size, uint64_t *pfn);

#pragma GCC visibility pop

#endif
