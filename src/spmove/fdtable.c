/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A copy worker's own descriptor table (pool.c).
 *
 * Threads that share one descriptor table share its lock and its bitmap
 * of open numbers, which each open and close takes, and every call on a
 * descriptor counts a reference on the open file while another thread
 * could close it: on 2 CPUs the walker and a worker bounced those cache
 * lines for each file.  The bare copier of contrib/bench went 8-10%
 * faster over 1000 small files once its second thread had a table of its
 * own (unshare(2) of CLONE_FILES; the kernel then takes no reference for
 * a call on a descriptor of a table that only one thread uses).
 *
 * A worker with its own table still copies between the walker's
 * directories, which the walker opens (and checks) as it goes: it takes
 * each into its table from the walker's by pidfd_getfd(2), the same open
 * directory and not a name looked up again, once a directory and not once
 * a file.  It keeps the last few it took, each known by the walker's
 * number for it and the serial the pool gave that directory (the walker
 * reuses a number once a directory is closed, never while a job from it
 * is queued or under way).  Where the kernel has no pidfd_getfd(2)
 * (before Linux 5.6), close_range(2) (5.9), or a seccomp filter refuses
 * them (as many container runtimes do), the workers share the walker's
 * table as before. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "spmove.h"

#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE (1U << 1)
#endif
#if !defined(__NR_pidfd_open) && !defined(__alpha__)
#define __NR_pidfd_open 434
#endif
#if !defined(__NR_close_range) && !defined(__alpha__)
#define __NR_close_range 436
#endif
#if !defined(__NR_pidfd_getfd) && !defined(__alpha__)
#define __NR_pidfd_getfd 438
#endif

/* The walker's descriptor number fd, taken into this thread's table, or a
 * negative errno. */
static int take(int pidfd, int fd)
{
#ifdef __NR_pidfd_getfd
	long own = syscall(__NR_pidfd_getfd, pidfd, fd, 0);
	return own < 0 ? -errno : (int)own;
#else
	(void)pidfd;
	(void)fd;
	return -ENOSYS;
#endif
}

int fdtable_walker_pidfd(void)
{
#if defined(__NR_pidfd_open) && defined(__NR_close_range)
	/* A pidfd names the thread group's leader, whose table pidfd_getfd()
	 * reads: the walker must be that thread. */
	if (gettid() != getpid())
		return -1;
	long pidfd = syscall(__NR_pidfd_open, getpid(), 0);
	if (pidfd < 0)
		return -1;
	/* Allowed here (not refused by a seccomp filter)? */
	int probe = take((int)pidfd, (int)pidfd);
	if (probe < 0) {
		close((int)pidfd);
		return -1;
	}
	close(probe);
	return (int)pidfd;
#else
	return -1;
#endif
}

bool fdtable_own(int pidfd)
{
#ifdef __NR_close_range
	/* One call unshares the table and closes in the copy all that the
	 * walker held but the standard descriptors and pidfd: a worker
	 * holds nothing of the walker's but what it takes.  (The standard
	 * descriptors are held open from the start, so pidfd is above.) */
	if (pidfd < 3 || syscall(__NR_close_range, pidfd + 1, ~0U, CLOSE_RANGE_UNSHARE) < 0)
		return false;
	if (pidfd > 3)
		syscall(__NR_close_range, 3, pidfd - 1, 0);
	return true;
#else
	(void)pidfd;
	return false;
#endif
}

/* fd (the walker's) as this thread's own: taken into *own, or left as it
 * is when below 0 (AT_FDCWD: the cwd is the process's).  Returns 0 or a
 * negative errno. */
static int take_dir(int pidfd, int fd, int *own)
{
	*own = fd < 0 ? fd : take(pidfd, fd);
	return fd >= 0 && *own < 0 ? *own : 0;
}

static void let_go(int fd)
{
	if (fd >= 0)
		close(fd);
}

int fdtable_dirs(struct fdtable *t, int pidfd, uint64_t serial, int *src, int *dst)
{
	for (unsigned i = 0; serial && i < FDTABLE_DIRS; i++) {
		const struct fdtable_dirs *d = &t->dirs[i];
		if (d->serial == serial && d->walker_src == *src && d->walker_dst == *dst) {
			*src = d->own_src;
			*dst = d->own_dst;
			return 0;
		}
	}
	int own_src, own_dst;
	int err = take_dir(pidfd, *src, &own_src);
	if (!err && (err = take_dir(pidfd, *dst, &own_dst)) < 0)
		let_go(own_src);
	if (err)
		return err;
	/* Without a serial, taken for this job only (fdtable_done()). */
	if (serial) {
		struct fdtable_dirs *d = &t->dirs[t->next++ % FDTABLE_DIRS];
		let_go(d->own_src);
		let_go(d->own_dst);
		*d = (struct fdtable_dirs){ .serial = serial, .walker_src = *src,
					    .walker_dst = *dst, .own_src = own_src,
					    .own_dst = own_dst };
	}
	*src = own_src;
	*dst = own_dst;
	return 0;
}

void fdtable_done(uint64_t serial, int src, int dst)
{
	if (serial)
		return;
	let_go(src);
	if (dst != src)
		let_go(dst);
}

void fdtable_init(struct fdtable *t)
{
	*t = (struct fdtable){ .next = 0 };
	for (unsigned i = 0; i < FDTABLE_DIRS; i++)
		t->dirs[i] = (struct fdtable_dirs){ .walker_src = -1, .walker_dst = -1,
						    .own_src = -1, .own_dst = -1 };
}

void fdtable_close(struct fdtable *t)
{
	for (unsigned i = 0; i < FDTABLE_DIRS; i++) {
		let_go(t->dirs[i].own_src);
		let_go(t->dirs[i].own_dst);
	}
	fdtable_init(t);
}
