/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sptee: ending the copy when every output left is a broken pipe, even
 * while the input is idle (the "nopipe" modes of --output-error, as GNU
 * tee does with poll(2) on its outputs). */
#ifndef SPLICE_UTILS_PIPEWATCH_H
#define SPLICE_UTILS_PIPEWATCH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct pipe_watch;

/*
 * Watch the outputs fds[0..n-1] (the array must outlive the watch) from a
 * thread of its own.  When every output not yet reported dropped is a pipe
 * whose readers are all gone, the watch sets *cancel and interrupts the
 * calling thread with SIGURG (a no-op handler is installed for it, and it
 * is unblocked in the calling thread) until pipe_watch_stop(), so that a
 * copy blocked on its input ends with -ECANCELED.  Returns 0 with *w set
 * (to NULL when no output is a pipe: nothing to watch), or a negative
 * errno (then nothing was started).
 */
int pipe_watch_start(struct pipe_watch **w, const int *fds, size_t n,
		     volatile sig_atomic_t *cancel);

/* Tell the watch that output i no longer takes data (it failed). */
void pipe_watch_dropped(struct pipe_watch *w, size_t i);

/* Stop the watch and free it (NULL is allowed).  Returns whether it set
 * the cancel flag: every output left had become a broken pipe. */
bool pipe_watch_stop(struct pipe_watch *w);

#endif
