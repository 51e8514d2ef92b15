/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helper threads that leave every signal to the main thread. */
#ifndef SPLICE_UTILS_THREAD_H
#define SPLICE_UTILS_THREAD_H

#include <pthread.h>

/* Start fn(arg) in a new thread with every signal blocked, so that the
 * tools' handlers run in the thread the signal is meant for.  Returns 0 or
 * the error number of pthread_create(). */
int cli_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg);

#endif
