/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sptee: ending the copy when every output left is a broken pipe, even
 * while the input is idle.
 *
 * The copy itself (sp_fanout()) blocks reading its input; a reader that
 * goes away meanwhile is only noticed at the next write.  GNU tee, in its
 * "nopipe" modes, polls its first output for POLLERR while it waits for
 * input, so that `tee -p` behind a terminal ends as soon as the pipe it
 * writes to is closed.  Here a thread polls every live pipe output (a pipe
 * whose readers are all gone reports POLLERR, whatever events are asked
 * for) and, once nothing but broken pipes is left, stops the copy through
 * the mover's cancel flag and a signal that interrupts its blocked call. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pipewatch.h"
#include "thread.h"

/* How long to wait before interrupting the copy again: a signal that came
 * just before the copy blocked in a system call interrupted nothing. */
enum { RESEND_MS = 20 };

struct pipe_watch {
	const int *fds;
	size_t n;
	bool *is_pipe;            /* outputs that can become broken pipes */
	bool *broken;             /* seen broken (the thread's own) */
	atomic_bool *dropped;     /* reported dropped by the caller */
	struct pollfd *pfds;      /* the wake pipe, then the pipes polled */
	size_t *index;            /* the output of each pfds entry */
	int wake[2];              /* to make the thread look again */
	atomic_bool quit, fired;
	volatile sig_atomic_t *cancel;
	pthread_t thread, caller;
};

/* SIGURG's handler: nothing to do, interrupting the copy's call is all. */
static void on_wake_signal(int sig)
{
	(void)sig;
}

/* Read whatever the wake pipe holds (it is non-blocking). */
static void drain_wake(struct pipe_watch *w)
{
	char buf[64];
	while (read(w->wake[0], buf, sizeof buf) > 0)
		;
}

/* Make the thread look at the outputs again. */
static void wake_thread(struct pipe_watch *w)
{
	ssize_t r = write(w->wake[1], "", 1);
	(void)r; /* a full pipe already holds a wake-up */
}

/* Fill w->pfds with the wake pipe and the live pipes not yet seen broken.
 * Returns the number of entries, or 0 when every live output is a broken
 * pipe (and at least one is live). */
static size_t poll_set(struct pipe_watch *w)
{
	size_t k = 1, live = 0;
	bool file_live = false;
	w->pfds[0] = (struct pollfd){ .fd = w->wake[0], .events = POLLIN };
	for (size_t i = 0; i < w->n; i++) {
		if (atomic_load(&w->dropped[i]))
			continue;
		live++;
		if (!w->is_pipe[i])
			file_live = true;
		else if (!w->broken[i]) {
			w->pfds[k] = (struct pollfd){ .fd = w->fds[i] };
			w->index[k++] = i;
		}
	}
	if (file_live)
		return 1; /* a live output that is no pipe keeps the copy going */
	return k == 1 && live ? 0 : k;
}

/* Stop the copy: set the cancel flag and interrupt the caller until it is
 * out of the copy. */
static void fire(struct pipe_watch *w)
{
	*w->cancel = 1;
	atomic_store(&w->fired, true);
	while (!atomic_load(&w->quit)) {
		pthread_kill(w->caller, SIGURG);
		struct pollfd p = { .fd = w->wake[0], .events = POLLIN };
		poll(&p, 1, RESEND_MS);
		drain_wake(w);
	}
}

/* The thread: poll the live pipes until nothing but broken pipes is left
 * (then fire) or the caller stops the watch. */
static void *watch_loop(void *arg)
{
	struct pipe_watch *w = arg;
	while (!atomic_load(&w->quit)) {
		size_t k = poll_set(w);
		if (k == 0) {
			fire(w);
			break;
		}
		if (poll(w->pfds, k, -1) < 0) {
			if (errno == EINTR)
				continue;
			break; /* cannot watch: the copy goes on as without -p */
		}
		if (w->pfds[0].revents)
			drain_wake(w);
		for (size_t j = 1; j < k; j++)
			if (w->pfds[j].revents & (POLLERR | POLLHUP | POLLNVAL))
				w->broken[w->index[j]] = true;
	}
	return NULL;
}

/* Free w and what it holds (the thread is not running). */
static void watch_free(struct pipe_watch *w)
{
	if (w->wake[0] >= 0) {
		close(w->wake[0]);
		close(w->wake[1]);
	}
	free(w->is_pipe);
	free(w->broken);
	free(w->dropped);
	free(w->pfds);
	free(w->index);
	free(w);
}

/* Install the no-op SIGURG handler (without SA_RESTART, so that it
 * interrupts blocking calls) and unblock SIGURG in this thread. */
static void catch_wake_signal(void)
{
	struct sigaction sa = { .sa_handler = on_wake_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGURG, &sa, NULL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGURG);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

int pipe_watch_start(struct pipe_watch **wp, const int *fds, size_t n,
		     volatile sig_atomic_t *cancel)
{
	struct pipe_watch *w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fds = fds;
	w->n = n;
	w->cancel = cancel;
	w->wake[0] = w->wake[1] = -1;
	w->caller = pthread_self();
	w->is_pipe = calloc(n, sizeof(*w->is_pipe));
	w->broken = calloc(n, sizeof(*w->broken));
	w->dropped = calloc(n, sizeof(*w->dropped));
	w->pfds = calloc(n + 1, sizeof(*w->pfds));
	w->index = calloc(n + 1, sizeof(*w->index));
	if (!w->is_pipe || !w->broken || !w->dropped || !w->pfds || !w->index) {
		watch_free(w);
		return -ENOMEM;
	}
	bool any_pipe = false;
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		w->is_pipe[i] = fstat(fds[i], &st) == 0 && S_ISFIFO(st.st_mode);
		any_pipe |= w->is_pipe[i];
		atomic_init(&w->dropped[i], false);
	}
	if (!any_pipe) {
		/* Nothing can break: no thread. */
		watch_free(w);
		*wp = NULL;
		return 0;
	}
	if (pipe2(w->wake, O_CLOEXEC | O_NONBLOCK) < 0) {
		int err = errno;
		watch_free(w);
		return -err;
	}
	catch_wake_signal();
	/* The thread takes no signal: they are the caller's. */
	int rc = cli_thread_start(&w->thread, watch_loop, w);
	if (rc) {
		watch_free(w);
		return -rc;
	}
	*wp = w;
	return 0;
}

void pipe_watch_dropped(struct pipe_watch *w, size_t i)
{
	if (!w)
		return;
	atomic_store(&w->dropped[i], true);
	wake_thread(w);
}

bool pipe_watch_stop(struct pipe_watch *w)
{
	if (!w)
		return false;
	atomic_store(&w->quit, true);
	wake_thread(w);
	pthread_join(w->thread, NULL);
	bool fired = atomic_load(&w->fired);
	watch_free(w);
	return fired;
}
