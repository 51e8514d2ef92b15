/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Pipe sizing and the mover's private pipe. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "internal.h"
#include "sys.h"

/* The system's limit for unprivileged F_SETPIPE_SZ, or 0 when unknown. */
static long pipe_max_size(void)
{
	static _Atomic long cached = -1; /* movers may run in several threads */
	if (cached < 0) {
		FILE *f = fopen("/proc/sys/fs/pipe-max-size", "re");
		long v = 0;
		if (f) {
			if (fscanf(f, "%ld", &v) != 1)
				v = 0;
			fclose(f);
		}
		cached = v;
	}
	return cached;
}

long sp_pipe_grow(int fd, size_t want)
{
	struct sp_stats uncounted;
	return lsp_pipe_grow(&uncounted, fd, want);
}

long lsp_pipe_grow(struct sp_stats *st, int fd, size_t want)
{
	long cur = sys_fcntl(st, fd, F_GETPIPE_SZ, 0);
	if (cur < 0)
		return -errno;
	if (want <= (size_t)cur)
		return cur;
	/* Ask first: root may go past pipe-max-size, and a user's request
	 * under it (1 MiB by default) succeeds; only a refusal costs reading
	 * the limit, at most once per process. */
	long got = sys_fcntl(st, fd, F_SETPIPE_SZ, (int)want);
	if (got < 0 && errno == EPERM) {
		long max = pipe_max_size();
		if (max > (long)cur && (size_t)max < want)
			got = sys_fcntl(st, fd, F_SETPIPE_SZ, (int)max);
	}
	/* EPERM (over a limit) and EBUSY (shrinking below the contents) are
	 * refusals: keep the size the pipe has. */
	return got < 0 ? cur : got;
}

int lsp_private_pipe(struct sp_mover *m)
{
	if (m->pipe_fds[0] >= 0)
		return 0;
	int fds[2];
	if (sys_pipe2(&m->stats, fds, O_CLOEXEC) < 0)
		return -errno;
	long size = lsp_pipe_grow(&m->stats, fds[1], m->opts.pipe_size);
	if (size < 0) {
		int err = (int)size;
		sys_close(&m->stats, fds[0]);
		sys_close(&m->stats, fds[1]);
		return err;
	}
	m->pipe_fds[0] = fds[0];
	m->pipe_fds[1] = fds[1];
	m->pipe_size = (size_t)size;
	return 0;
}

void lsp_private_pipe_discard(struct sp_mover *m)
{
	if (m->pipe_fds[0] < 0)
		return;
	sys_close(&m->stats, m->pipe_fds[0]);
	sys_close(&m->stats, m->pipe_fds[1]);
	m->pipe_fds[0] = m->pipe_fds[1] = -1;
	m->pipe_size = 0;
}
