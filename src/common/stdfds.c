/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Standard fds closed when a tool starts: held (see stdfds.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stdfds.h"

/* The file the held fds refer to, once one is held. */
static bool held;
static struct stat held_st;

/* An O_PATH descriptor of an anonymous inode (an eventfd's, reached
 * through /proc), on the lowest free fd: the kernel refuses to open it
 * again by any name (ENXIO), and no directory or file of the user's is
 * it.  Returns the fd or -1. */
static int anonymous_path_fd(void)
{
	int e = eventfd(0, EFD_CLOEXEC);
	if (e < 0)
		return -1;
	char proc[64];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", e);
	/* e took the lowest free fd: the O_PATH one goes above it, then down. */
	int p = open(proc, O_PATH);
	int fd = p < 0 ? -1 : dup2(p, e);
	if (p >= 0 && p != fd)
		close(p);
	if (fd < 0)
		close(e);
	return fd;
}

unsigned cli_hold_standard_fds(void)
{
	unsigned closed = 0;
	int first = -1;
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		closed |= 1u << fd;
		/* The lowest free fd: this one, as the lower ones are taken
		 * (or held).  Not close-on-exec: a program the tool runs
		 * holds them too.  Should it fail, "/" (O_PATH) holds it; and
		 * should that fail, nothing better is left. */
		int got = first >= 0 ? dup(first) : anonymous_path_fd();
		if (got < 0)
			(void)open("/", O_PATH);
		else if (first < 0 && fstat(got, &held_st) == 0)
			held = true;
		if (got >= 0 && first < 0)
			first = got;
	}
	return closed;
}

bool cli_held_standard_file(const struct stat *st)
{
	return held && st->st_dev == held_st.st_dev && st->st_ino == held_st.st_ino;
}
