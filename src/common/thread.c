/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helper threads that leave every signal to the main thread, started
 * anywhere or apart from their creator (cli_thread_start_apart()). */
#include "config.h"

#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "thread.h"

/* pthread_create() with every signal blocked in the new thread. */
static int start_blocked(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *),
			 void *arg)
{
	sigset_t all, callers;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &callers);
	int rc = pthread_create(thread, attr, fn, arg);
	pthread_sigmask(SIG_SETMASK, &callers, NULL);
	return rc;
}

int cli_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	return start_blocked(thread, NULL, fn, arg);
}

/* What a thread started apart runs. */
struct apart {
	void *(*fn)(void *);
	void *arg;
};

static void *run_apart(void *arg)
{
	struct apart a = *(struct apart *)arg;
	free(arg);
	/* Started where it was put, it may go anywhere the process may, as
	 * the main thread's CPUs are now: the scheduler's to move it. */
	cpu_set_t set;
	if (sched_getaffinity(getpid(), sizeof(set), &set) == 0)
		sched_setaffinity(0, sizeof(set), &set);
	return a.fn(a.arg);
}

/* The nth CPU, counted from 0 and round again, of those in set but cpu;
 * -1 when there is none. */
static int nth_other_cpu(const cpu_set_t *set, int cpu, unsigned nth)
{
	int others = CPU_COUNT(set) - (cpu >= 0 && CPU_ISSET(cpu, set));
	if (others <= 0)
		return -1;
	unsigned skip = nth % (unsigned)others;
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, set) && i != cpu && skip-- == 0)
			return i;
	return -1;
}

int cli_thread_start_apart(pthread_t *thread, void *(*fn)(void *), void *arg, unsigned nth)
{
	cpu_set_t set;
	int cpu = -1;
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		cpu = nth_other_cpu(&set, sched_getcpu(), nth);
	struct apart *a = cpu >= 0 ? malloc(sizeof(*a)) : NULL;
	if (!a)
		return cli_thread_start(thread, fn, arg);
	*a = (struct apart){ .fn = fn, .arg = arg };
	pthread_attr_t attr;
	int rc = pthread_attr_init(&attr);
	if (!rc) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		rc = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		if (!rc)
			rc = start_blocked(thread, &attr, run_apart, a);
		pthread_attr_destroy(&attr);
	}
	if (!rc)
		return 0;
	/* A CPU that cannot be had (gone offline meanwhile): anywhere. */
	free(a);
	return cli_thread_start(thread, fn, arg);
}
