/* libsplice internals shared between its source files; not installed. */
#ifndef LIBSPLICE_INTERNAL_H
#define LIBSPLICE_INTERNAL_H

#include <stdbool.h>
#include <sys/types.h>

#include "libsplice.h"

/* Everything declared from here on is internal to the library: hidden from
 * its users even though some names start with sp_. */
#pragma GCC visibility push(hidden)

/* What the mover remembers about the last output fd it wrote to, so that a
 * run of transfers into one output (spcat with many files) asks the kernel
 * about it only once. */
struct sp_output_memo {
	bool valid;
	int fd;
	dev_t dev;
	ino_t ino;
	bool append;     /* opened with O_APPEND: splice always refuses it */
	long pipe_size;  /* for a pipe: its size after growing */
};

struct sp_mover {
	struct sp_options opts;
	struct sp_stats stats;
	int pipe_fds[2];         /* private pipe; -1 until first needed */
	size_t pipe_size;        /* its size */
	bool pipe_unavailable;   /* pipe2() failed: stay on read/write */
	char *buf;               /* read/write buffer, allocated on first use */
	struct sp_output_memo out_memo;
	enum sp_side err_side;
	uint64_t last_bytes;
	enum sp_path last_path;
};

/* Count one system call of the given kind (a field of struct sp_stats). */
#define SP_COUNT(mover, field) \
	do { (mover)->stats.syscalls++; (mover)->stats.field++; } while (0)
#define SP_COUNT_OTHER(mover) ((mover)->stats.syscalls++)

/* Whether the mover may leave a path the kernel refuses for another one:
 * every policy but SP_POLICY_ONLY. */
static inline bool sp_may_switch_path(const struct sp_mover *m)
{
	return m->opts.policy != SP_POLICY_ONLY;
}

/* Whether the mover moves bytes with read(2)/write(2) only. */
static inline bool sp_rw_only(const struct sp_mover *m)
{
	return m->opts.policy != SP_POLICY_AUTO && m->opts.path == SP_PATH_RW;
}

/* True when the caller asked to stop (its cancel flag is set). */
bool sp_cancelled(const struct sp_mover *m);

/* Block until fd is ready for events (POLLIN or POLLOUT).  Returns 0, or a
 * negative errno value (-ECANCELED when the caller asked to stop). */
int sp_wait_fd(struct sp_mover *m, int fd, short events);

/* Make sure the private pipe exists.  Returns 0 or a negative errno value. */
int sp_private_pipe(struct sp_mover *m);

/* Close the private pipe, discarding anything left in it. */
void sp_private_pipe_discard(struct sp_mover *m);

/* Make sure the read/write buffer exists.  Returns 0 or -ENOMEM. */
int sp_buffer(struct sp_mover *m);

/* Report progress after a chunk; returns 0 or -ECANCELED. */
int sp_report_progress(struct sp_mover *m);

/* Monotonic clock in nanoseconds. */
uint64_t sp_now_ns(void);

#pragma GCC visibility pop

#endif
