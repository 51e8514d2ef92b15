/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helper threads that leave every signal to the main thread. */
#include "config.h"

#include <signal.h>

#include "thread.h"

int cli_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	sigset_t all, callers;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &callers);
	int rc = pthread_create(thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &callers, NULL);
	return rc;
}
