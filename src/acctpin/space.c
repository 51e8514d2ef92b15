/* SPDX-License-Identifier: GPL-2.0-or-later */
/* acctpin: free space on a scratch filesystem, for the nearly-full
 * scenario, and the /proc/sys/kernel/acct thresholds it depends on. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "acctpin.h"
#include "message.h"


/* Read the three numbers of the sysctl.  Returns 0 or -errno. */
static int read_sysctl(int fd, int v[3])
{
	char buf[64];
	ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return sscanf(buf, "%d %d %d", &v[0], &v[1], &v[2]) == 3 ? 0 : -EINVAL;
}

int ap_thresholds_shorten(struct ap_thresholds *t, int period)
{
	t->fd = ap_sysctl_fd;
	if (t->fd < 0)
		return -EACCES;
	int v[3], rc;
	/* Another acctpin may be in the middle of its own change: wait for it.
	 * The lock belongs to the open file the outer process shares with us,
	 * so it lasts until that process has restored the values should we die. */
	if (flock(t->fd, LOCK_EX) < 0)
		rc = -errno;
	else
		rc = read_sysctl(t->fd, v);
	if (rc < 0) {
		t->fd = -1;
		return rc;
	}
	t->resume = v[0];
	t->suspend = v[1];
	t->period = v[2];
	snprintf(ap_shared->sysctl_saved, sizeof ap_shared->sysctl_saved, "%d %d %d\n",
		 v[0], v[1], v[2]);
	char text[64];
	int len = snprintf(text, sizeof text, "%d %d %d\n", v[0], v[1], period);
	ap_shared->sysctl_changed = 1;
	if (pwrite(t->fd, text, (size_t)len, 0) != len) {
		rc = -errno;
		ap_thresholds_restore(t);
		return rc;
	}
	return 0;
}

int ap_thresholds_restore(struct ap_thresholds *t)
{
	if (t->fd < 0)
		return 0;
	size_t len = strlen(ap_shared->sysctl_saved);
	int rc = pwrite(t->fd, ap_shared->sysctl_saved, len, 0) == (ssize_t)len ? 0 : -errno;
	if (rc == 0)
		ap_shared->sysctl_changed = 0;
	else
		cli_error(-rc, "cannot restore %s to %s", AP_SYSCTL, ap_shared->sysctl_saved);
	flock(t->fd, LOCK_UN);
	t->fd = -1;
	return rc;
}

int ap_space(const char *path, struct ap_space *sp)
{
	struct statfs st;
	if (statfs(path, &st) < 0)
		return -errno;
	sp->blocks = st.f_blocks;
	sp->avail = st.f_bavail;
	sp->bsize = st.f_bsize;
	return 0;
}

double ap_space_percent(const struct ap_space *sp)
{
	return sp->blocks ? 100.0 * (double)sp->avail / (double)sp->blocks : 0.0;
}

/* Make fd, whose size is size, step bytes longer with allocated blocks:
 * fallocate, or writes of zeros where the filesystem has no fallocate.
 * Returns 0 or -errno. */
static int grow(int fd, off_t size, off_t step)
{
	if (fallocate(fd, 0, size, step) == 0)
		return 0;
	if (errno != EOPNOTSUPP && errno != ENOSYS)
		return -errno;
	static const char zeros[65536];
	while (step > 0) {
		ssize_t n = pwrite(fd, zeros, step < (off_t)sizeof zeros ? (size_t)step : sizeof zeros,
				   size);
		if (n < 0)
			return -errno;
		size += n;
		step -= n;
	}
	return 0;
}

int ap_fill_to(int fd, const char *path, uint64_t want_avail)
{
	for (int round = 0; round < 32; round++) {
		struct ap_space sp = { 0, 0, 0 };
		int rc = ap_space(path, &sp);
		if (rc < 0)
			return rc;
		uint64_t tolerance = sp.blocks / 400 + 1;
		if (sp.avail + tolerance >= want_avail && sp.avail <= want_avail + tolerance)
			return 0;
		off_t size = lseek(fd, 0, SEEK_END);
		if (size < 0)
			return -errno;
		off_t step = ((off_t)sp.avail - (off_t)want_avail) * (off_t)sp.bsize;
		if (step > 0) {
			/* Metadata may take some of it: on ENOSPC ask for less. */
			rc = grow(fd, size, step);
			if (rc == -ENOSPC)
				rc = grow(fd, size, step / 2);
		} else {
			rc = ftruncate(fd, size + step < 0 ? 0 : size + step) < 0 ? -errno : 0;
		}
		if (rc < 0)
			return rc;
		fsync(fd);
	}
	return -EAGAIN;
}
