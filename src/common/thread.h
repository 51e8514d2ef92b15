/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helper threads that leave every signal to the main thread. */
#ifndef SPLICE_UTILS_THREAD_H
#define SPLICE_UTILS_THREAD_H

#include <pthread.h>

/* Start fn(arg) in a new thread with every signal blocked, so that the
 * tools' handlers run in the thread the signal is meant for.  Returns 0 or
 * the error number of pthread_create(). */
int cli_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg);

/* The same, the new thread put first on a CPU other than the caller's:
 * the nth of them (round again when there are fewer), then let go
 * anywhere the process may run.  The kernel often starts a thread on its
 * creator's CPU, where it waits for the creator (or makes it wait) until
 * the scheduler moves one of them, milliseconds later; threads meant to
 * run beside the caller start beside it.  Without another CPU to put it
 * on, or where that CPU cannot be had, the thread starts as
 * cli_thread_start()'s. */
int cli_thread_start_apart(pthread_t *thread, void *(*fn)(void *), void *arg, unsigned nth);

#endif
