/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fault injection by link-time wrapping of system calls (see faults.h). */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "faults.h"

struct fault_plan {
	unsigned calls;
	unsigned nth, times;
	int err;
	size_t cap;
};

static struct fault_plan plans[FAULT_CALLS];
static long pipe_size_asked = -1;

void fault_inject(enum fault_call call, unsigned nth, unsigned times, int err)
{
	plans[call].nth = nth;
	plans[call].times = times;
	plans[call].err = err;
}

void fault_cap(enum fault_call call, size_t cap)
{
	plans[call].cap = cap;
}

unsigned fault_count(enum fault_call call)
{
	return plans[call].calls;
}

long fault_pipe_size_asked(void)
{
	return pipe_size_asked;
}

void fault_reset(void)
{
	memset(plans, 0, sizeof(plans));
	pipe_size_asked = -1;
}

/* Count a call; returns the errno to fail it with, or 0.  *len is capped. */
static int fault_check(enum fault_call call, size_t *len)
{
	struct fault_plan *p = &plans[call];
	unsigned n = ++p->calls;
	if (p->times && n >= p->nth && n < p->nth + p->times)
		return p->err;
	if (len && p->cap && *len > p->cap)
		*len = p->cap;
	return 0;
}

ssize_t __real_splice(int, loff_t *, int, loff_t *, size_t, unsigned int);
ssize_t __wrap_splice(int, loff_t *, int, loff_t *, size_t, unsigned int);
ssize_t __wrap_splice(int in, loff_t *in_off, int out, loff_t *out_off, size_t len,
		      unsigned int flags)
{
	int err = fault_check(FAULT_SPLICE, &len);
	if (err) {
		errno = err;
		return -1;
	}
	return __real_splice(in, in_off, out, out_off, len, flags);
}

ssize_t __real_tee(int, int, size_t, unsigned int);
ssize_t __wrap_tee(int, int, size_t, unsigned int);
ssize_t __wrap_tee(int in, int out, size_t len, unsigned int flags)
{
	int err = fault_check(FAULT_TEE, &len);
	if (err) {
		errno = err;
		return -1;
	}
	return __real_tee(in, out, len, flags);
}

int __real_pipe2(int *, int);
int __wrap_pipe2(int *, int);
int __wrap_pipe2(int *fds, int flags)
{
	int err = fault_check(FAULT_PIPE2, NULL);
	if (err) {
		errno = err;
		return -1;
	}
	return __real_pipe2(fds, flags);
}

ssize_t __real_read(int, void *, size_t);
ssize_t __wrap_read(int, void *, size_t);
ssize_t __wrap_read(int fd, void *buf, size_t len)
{
	int err = fault_check(FAULT_READ, &len);
	if (err) {
		errno = err;
		return -1;
	}
	return __real_read(fd, buf, len);
}

ssize_t __real_write(int, const void *, size_t);
ssize_t __wrap_write(int, const void *, size_t);
ssize_t __wrap_write(int fd, const void *buf, size_t len)
{
	int err = fault_check(FAULT_WRITE, &len);
	if (err) {
		errno = err;
		return -1;
	}
	return __real_write(fd, buf, len);
}

ssize_t __real_copy_file_range(int, loff_t *, int, loff_t *, size_t, unsigned int);
ssize_t __wrap_copy_file_range(int, loff_t *, int, loff_t *, size_t, unsigned int);
ssize_t __wrap_copy_file_range(int in, loff_t *in_off, int out, loff_t *out_off, size_t len,
			       unsigned int flags)
{
	int err = fault_check(FAULT_COPY_FILE_RANGE, &len);
	if (err) {
		errno = err;
		return -1;
	}
	return __real_copy_file_range(in, in_off, out, out_off, len, flags);
}

/* fcntl(2) is variadic: its third argument is passed on as glibc's own
 * fcntl reads it, a pointer-sized word. */
int __real_fcntl(int, int, ...);
int __wrap_fcntl(int, int, ...);
int __wrap_fcntl(int fd, int cmd, ...)
{
	va_list ap;
	va_start(ap, cmd);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	if (cmd == F_SETPIPE_SZ) {
		pipe_size_asked = (int)(long)arg;
		int err = fault_check(FAULT_SETPIPE_SZ, NULL);
		if (err) {
			errno = err;
			return -1;
		}
	}
	return __real_fcntl(fd, cmd, arg);
}
