/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove's signal handling: every fatal signal that can be caught only
 * sets a flag; the copy in progress stops (libsplice returns -ECANCELED),
 * its temporary file is removed, and the process then dies of the same
 * signal.  SIGXFSZ (a file size limit) and SIGPIPE (a closed pipe as the
 * destination) end a copy the same way.  The signal reaches the main
 * thread (the copy workers block it); the workers' copies are woken by
 * SIGNAL_WAKE, whose handler does nothing but interrupt a blocking call:
 * the copy then sees the flag. */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "spmove.h"

volatile sig_atomic_t spmove_cancel;

static const int caught[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXFSZ, SIGALRM, SIGUSR1, SIGUSR2,
};

static void on_signal(int sig)
{
	spmove_cancel = sig;
}

/* SIGNAL_WAKE interrupts what a copy worker is blocked in, nothing more. */
static void on_wake(int sig)
{
	(void)sig;
}

void signals_catch(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocked splice must come back with EINTR. */
	for (unsigned i = 0; i < sizeof(caught) / sizeof(caught[0]); i++) {
		struct sigaction old;
		/* A signal ignored by our parent (nohup) stays ignored. */
		if (sigaction(caught[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(caught[i], &sa, NULL);
	}
	sa.sa_handler = on_wake;
	sigaction(SIGNAL_WAKE, &sa, NULL);
}

void signals_wake(pthread_t thread)
{
	pthread_kill(thread, SIGNAL_WAKE);
}

void signals_reraise(void)
{
	int sig = spmove_cancel;
	if (!sig)
		return;
	signal(sig, SIG_DFL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}
