/* SPDX-License-Identifier: GPL-2.0-or-later */
/* acctpin: accounting to a file acctpin did not create (run --acct-file
 * with --allow-foreign).  The file is opened in the outer process without
 * following a symbolic link and checked; the sandbox opens it again in its
 * own mount namespace (a mount of another namespace cannot be bind-mounted)
 * and goes on only if that is the same file.  From then on it is reached
 * only through that descriptor: each scenario bind-mounts it (by
 * /proc/self/fd/N, so a rename or a symlink swapped in later changes
 * nothing) over an empty placeholder of its own, turns accounting on
 * through that mount and takes the mount away.  The file is never opened
 * for writing, truncated or removed; only records appended after a
 * scenario starts are judged. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acctpin.h"
#include "message.h"
#include "quote.h"

/* Open path read-only, not following a symbolic link, and fstat it.
 * Returns the fd with *st filled in, or -errno (-EBADF when it is not a
 * regular file). */
static int open_regular(const char *path, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int err = fstat(fd, st) < 0 ? errno : S_ISREG(st->st_mode) ? 0 : EBADF;
	if (!err)
		return fd;
	close(fd);
	return -err;
}

int ap_foreign_open(const char *path, bool allowed)
{
	if (!allowed)
		return ap_fail(-EPERM, 0, "%s: not created by acctpin; use --allow-foreign to "
			       "account to it", cli_quote(path));
	struct stat st;
	int fd = open_regular(path, &st);
	if (fd == -ELOOP)
		return ap_fail(fd, 0, "%s: a symbolic link; name the file itself", cli_quote(path));
	if (fd == -EBADF)
		return ap_fail(fd, 0, "%s: not a regular file", cli_quote(path));
	if (fd < 0)
		return ap_fail(fd, -fd, "%s", cli_quote(path));
	return fd;
}

int ap_foreign_reopen(const char *path, int *fd)
{
	struct stat was, now;
	int again = fstat(*fd, &was) < 0 ? -errno : open_regular(path, &now);
	if (again >= 0 && (now.st_dev != was.st_dev || now.st_ino != was.st_ino)) {
		close(again);
		again = -ESTALE;
	}
	if (again < 0)
		return ap_fail(again, 0, "%s: %s", cli_quote(path), again == -ESTALE ?
			       "replaced by another file while acctpin started" : again == -EBADF ?
			       "no longer a regular file" : strerror(-again));
	close(*fd);
	*fd = again;
	return 0;
}

int ap_foreign_size(int fd, uint64_t *size)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -errno;
	*size = (uint64_t)st.st_size;
	return 0;
}

int ap_acct_file_foreign(int fd, const char *dir, const char *name, char out[PATH_MAX])
{
	char self[64];
	snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
	int rc = ap_acct_file_new(dir, name, out);
	if (rc < 0)
		return rc;
	if (mount(self, out, NULL, MS_BIND, NULL) < 0 || mount(NULL, out, NULL, MS_PRIVATE, NULL) < 0) {
		rc = -errno;
		return ap_fail(rc, -rc, "cannot bind-mount the accounting file on %s",
			       cli_quote(out));
	}
	return 0;
}
