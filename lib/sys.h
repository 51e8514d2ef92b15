/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The system calls libsplice makes while moving data, each counted in the
 * statistics st points to (struct sp_stats: syscalls, and the call's own
 * counter where it has one) in this one place, never by hand at a call
 * site.  Each returns what the system call returns, errno as it sets it.
 * Internal to libsplice. */
#ifndef LIBSPLICE_SYS_H
#define LIBSPLICE_SYS_H

#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "libsplice.h"

#define SYS_COUNT(st, field) ((st)->syscalls++, (st)->field++)
#define SYS_COUNT_OTHER(st) ((st)->syscalls++)

static inline ssize_t sys_splice(struct sp_stats *st, int in, loff_t *in_off, int out,
				 loff_t *out_off, size_t len, unsigned flags)
{
	SYS_COUNT(st, splice_calls);
	return splice(in, in_off, out, out_off, len, flags);
}

static inline ssize_t sys_tee(struct sp_stats *st, int in, int out, size_t len, unsigned flags)
{
	SYS_COUNT(st, tee_calls);
	return tee(in, out, len, flags);
}

static inline ssize_t sys_vmsplice(struct sp_stats *st, int fd, const struct iovec *iov,
				   size_t n, unsigned flags)
{
	SYS_COUNT(st, vmsplice_calls);
	return vmsplice(fd, iov, n, flags);
}

static inline ssize_t sys_read(struct sp_stats *st, int fd, void *buf, size_t len)
{
	SYS_COUNT(st, read_calls);
	return read(fd, buf, len);
}

static inline ssize_t sys_pread(struct sp_stats *st, int fd, void *buf, size_t len, off_t at)
{
	SYS_COUNT(st, read_calls);
	return pread(fd, buf, len, at);
}

static inline ssize_t sys_preadv2(struct sp_stats *st, int fd, const struct iovec *iov, int n,
				  off_t at, int flags)
{
	SYS_COUNT(st, read_calls);
	return preadv2(fd, iov, n, at, flags);
}

static inline ssize_t sys_write(struct sp_stats *st, int fd, const void *buf, size_t len)
{
	SYS_COUNT(st, write_calls);
	return write(fd, buf, len);
}

static inline ssize_t sys_pwritev2(struct sp_stats *st, int fd, const struct iovec *iov, int n,
				   off_t at, int flags)
{
	SYS_COUNT(st, write_calls);
	return pwritev2(fd, iov, n, at, flags);
}

static inline int sys_poll(struct sp_stats *st, struct pollfd *p, nfds_t n, int timeout)
{
	SYS_COUNT(st, poll_calls);
	return poll(p, n, timeout);
}

static inline ssize_t sys_copy_file_range(struct sp_stats *st, int in, loff_t *in_off, int out,
					  loff_t *out_off, size_t len, unsigned flags)
{
	SYS_COUNT(st, copy_file_range_calls);
	return copy_file_range(in, in_off, out, out_off, len, flags);
}

static inline ssize_t sys_sendfile(struct sp_stats *st, int out, int in, off_t *off, size_t len)
{
	SYS_COUNT(st, sendfile_calls);
	return sendfile(out, in, off, len);
}

static inline int sys_fstat(struct sp_stats *st, int fd, struct stat *sb)
{
	SYS_COUNT_OTHER(st);
	return fstat(fd, sb);
}

static inline int sys_fstatfs(struct sp_stats *st, int fd, struct statfs *sb)
{
	SYS_COUNT_OTHER(st);
	return fstatfs(fd, sb);
}

/* fcntl(2) with an int argument (F_GETFL, F_GETPIPE_SZ: ignored). */
static inline int sys_fcntl(struct sp_stats *st, int fd, int cmd, int arg)
{
	SYS_COUNT_OTHER(st);
	return fcntl(fd, cmd, arg);
}

static inline off_t sys_lseek(struct sp_stats *st, int fd, off_t off, int whence)
{
	SYS_COUNT_OTHER(st);
	return lseek(fd, off, whence);
}

static inline int sys_ftruncate(struct sp_stats *st, int fd, off_t len)
{
	SYS_COUNT_OTHER(st);
	return ftruncate(fd, len);
}

static inline int sys_fallocate(struct sp_stats *st, int fd, int mode, off_t off, off_t len)
{
	SYS_COUNT_OTHER(st);
	return fallocate(fd, mode, off, len);
}

static inline void *sys_mmap(struct sp_stats *st, void *addr, size_t len, int prot, int flags,
			     int fd, off_t off)
{
	SYS_COUNT_OTHER(st);
	return mmap(addr, len, prot, flags, fd, off);
}

static inline int sys_munmap(struct sp_stats *st, void *addr, size_t len)
{
	SYS_COUNT_OTHER(st);
	return munmap(addr, len);
}

static inline int sys_mincore(struct sp_stats *st, void *addr, size_t len, unsigned char *vec)
{
	SYS_COUNT_OTHER(st);
	return mincore(addr, len, vec);
}

static inline int sys_posix_fadvise(struct sp_stats *st, int fd, off_t off, off_t len, int advice)
{
	SYS_COUNT_OTHER(st);
	return posix_fadvise(fd, off, len, advice);
}

static inline int sys_sync_file_range(struct sp_stats *st, int fd, off_t off, off_t len,
				      unsigned flags)
{
	SYS_COUNT_OTHER(st);
	return sync_file_range(fd, off, len, flags);
}

static inline ssize_t sys_recv(struct sp_stats *st, int fd, void *buf, size_t len, int flags)
{
	SYS_COUNT(st, read_calls);
	return recv(fd, buf, len, flags);
}

static inline int sys_getsockopt(struct sp_stats *st, int fd, int level, int name, void *val,
				 socklen_t *len)
{
	SYS_COUNT_OTHER(st);
	return getsockopt(fd, level, name, val, len);
}

static inline int sys_setsockopt(struct sp_stats *st, int fd, int level, int name,
				 const void *val, socklen_t len)
{
	SYS_COUNT_OTHER(st);
	return setsockopt(fd, level, name, val, len);
}

static inline int sys_pipe2(struct sp_stats *st, int fds[2], int flags)
{
	SYS_COUNT_OTHER(st);
	return pipe2(fds, flags);
}

/* open(2) without O_CREAT. */
static inline int sys_open(struct sp_stats *st, const char *path, int flags)
{
	SYS_COUNT_OTHER(st);
	return open(path, flags);
}

/* ioctl(2) with a descriptor argument (FICLONE). */
static inline int sys_ioctl(struct sp_stats *st, int fd, unsigned long req, int arg)
{
	SYS_COUNT_OTHER(st);
	return ioctl(fd, req, arg);
}

/* ioctl(FIONREAD): the bytes a pipe holds, in *n. */
static inline int sys_fionread(struct sp_stats *st, int fd, int *n)
{
	SYS_COUNT_OTHER(st);
	return ioctl(fd, FIONREAD, n);
}

static inline int sys_close(struct sp_stats *st, int fd)
{
	SYS_COUNT_OTHER(st);
	return close(fd);
}

/* isatty(3): one ioctl(2). */
static inline int sys_isatty(struct sp_stats *st, int fd)
{
	SYS_COUNT_OTHER(st);
	return isatty(fd);
}

/* sp_pipe_grow() with its calls counted in st (lib/pipe.c). */
long lsp_pipe_grow(struct sp_stats *st, int fd, size_t want);

#endif
