/* SPDX-License-Identifier: GPL-2.0-or-later */
/* acctpin: scratch filesystems.  Everything lives on a private tmpfs
 * mounted on the temporary directory inside the sandbox's own mount
 * namespace, so the host's mount table never shows it; ext4 images are
 * attached to auto-clearing loop devices and unlinked at once, so a crash
 * leaves nothing behind. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/loop.h>

#include "acctpin.h"
#include "message.h"
#include "path.h"
#include "quote.h"
#include "rmtree.h"

/* What the last helper that failed in this thread left to report. */
static _Thread_local struct {
	bool pending;
	int shown;                /* the errno the message ends with, or 0 */
	char text[4 * PATH_MAX];  /* the message, without "acctpin: " */
} failure;

int ap_fail(int rc, int shown, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(failure.text, sizeof failure.text, fmt, ap);
	va_end(ap);
	failure.shown = shown;
	failure.pending = true;
	return rc;
}

void ap_report_failure(void)
{
	if (!failure.pending)
		return;
	failure.pending = false;
	cli_error(failure.shown, "%s", failure.text);
}

int ap_path(char out[PATH_MAX], const char *dir, const char *name)
{
	if (path_join(out, PATH_MAX, dir, name) == 0)
		return 0;
	return ap_fail(-ENAMETOOLONG, ENAMETOOLONG, "%s/%s", cli_quote(dir), cli_quote(name));
}

int ap_check_dir(const char *what, const char *dir)
{
	char named[PATH_MAX + 16];
	snprintf(named, sizeof named, "%s%s", what ? what : "", cli_quote(dir));
	struct stat st;
	if (lstat(dir, &st) < 0) {
		int err = errno;
		return ap_fail(-err, err, "%s", named);
	}
	if (S_ISLNK(st.st_mode))
		return ap_fail(-ELOOP, 0, "%s: a symbolic link; name the directory itself", named);
	if (!S_ISDIR(st.st_mode))
		return ap_fail(-ENOTDIR, ENOTDIR, "%s", named);
	if (st.st_uid != 0 && st.st_uid != geteuid())
		return ap_fail(-EPERM, 0, "%s: owned by another user, who could swap acctpin's "
			       "directory there for a symbolic link", named);
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
		return ap_fail(-EPERM, 0, "%s: writable by other users and not sticky: they "
			       "could swap acctpin's directory there for a symbolic link", named);
	return 0;
}

int ap_make_dir(const char *dir, const char *name, char out[PATH_MAX])
{
	int rc = ap_path(out, dir, name);
	if (rc < 0)
		return rc;
	if (mkdir(out, 0700) < 0) {
		int err = errno;
		return ap_fail(-err, err, "cannot make directory %s", cli_quote(out));
	}
	return 0;
}

int ap_bind(const char *from, const char *dir, const char *name, char out[PATH_MAX])
{
	int rc = ap_make_dir(dir, name, out);
	if (rc < 0)
		return rc;
	if (mount(from, out, NULL, MS_BIND, NULL) < 0 ||
	    mount(NULL, out, NULL, MS_PRIVATE, NULL) < 0) {
		int err = errno;
		return ap_fail(-err, err, "cannot bind-mount %s on %s", cli_quote(from),
			       cli_quote(out));
	}
	return 0;
}

int ap_acct_file_new(const char *dir, const char *name, char out[PATH_MAX])
{
	int rc = ap_path(out, dir, name);
	if (rc < 0)
		return rc;
	int fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		int err = errno;
		return ap_fail(-err, err, "cannot create accounting file %s", cli_quote(out));
	}
	close(fd);
	return 0;
}

int ap_acct(const char *path)
{
	return acct(path) < 0 ? -errno : 0;
}

void ap_remove_our_dir(const char *dir)
{
	int err = rm_tree_at(AT_FDCWD, dir);
	if (err && err != -ENOENT) {
		cli_error(-err, "cannot remove %s", cli_quote(dir));
		ap_cleanup_failed = true;
}
}

int ap_workspace_open(struct ap_workspace *ws)
{
	ws->private_ns = unshare(CLONE_NEWNS) == 0 &&
			 mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0;
	if (!ws->private_ns)
		fprintf(stderr, "%s: note: no private mount namespace (%s); mounts are visible\n",
			cli_program, strerror(errno));
	snprintf(ws->root, sizeof ws->root, "%s", ap_shared->tempdir);
	char opts[64];
	snprintf(opts, sizeof opts, "mode=0700,size=%" PRIu64, 3 * ws->size + (1 << 20));
	if (mount("acctpin", ws->root, "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0 ||
	    mount(NULL, ws->root, NULL, MS_PRIVATE, NULL) < 0) {
		int err = errno;
		return ap_fail(-err, err, "cannot mount a tmpfs on %s", cli_quote(ws->root));
	}
	if (ws->kind == AP_FS_EXISTING) {
		snprintf(ap_shared->subdir, sizeof ap_shared->subdir, "%s/acctpin.XXXXXX",
			 ws->existing);
		if (!mkdtemp(ap_shared->subdir)) {
			int err = errno;
			ap_shared->subdir[0] = '\0';
			return ap_fail(-err, err, "cannot make a directory in %s",
				       cli_quote(ws->existing));
		}
		int rc = ap_owner_write(ap_shared->subdir, ap_shared->owner);
		if (rc < 0)
			return rc;
	}
	return 0;
}

void ap_workspace_close(struct ap_workspace *ws)
{
	ap_acct(NULL);
	if (ws->root[0] && umount2(ws->root, MNT_DETACH) < 0 && errno != EINVAL) {
		cli_error(errno, "cannot unmount %s", cli_quote(ws->root));
		ap_cleanup_failed = true;
	}
	if (ap_shared->subdir[0]) {
		ap_remove_our_dir(ap_shared->subdir);
		ap_shared->subdir[0] = '\0';
	}
}

/* Attach backing_fd to a free loop device that detaches itself when its
 * last user closes it.  Returns an fd of the device (name in dev), or a
 * negative errno (ap_report_failure() says why). */
static int loop_attach(int backing_fd, char dev[32])
{
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		int err = errno;
		return ap_fail(-err, err, "/dev/loop-control");
	}
	int fd = -1;
	for (int tries = 0; tries < 32 && fd < 0; tries++) {
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (n < 0)
			break;
		snprintf(dev, 32, "/dev/loop%d", n);
		fd = open(dev, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			break;
		struct loop_config cfg = { .fd = (__u32)backing_fd };
		cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR;
		int rc = ioctl(fd, LOOP_CONFIGURE, &cfg);
		if (rc < 0 && (errno == EINVAL || errno == ENOTTY)) {
			/* Before Linux 5.8: set the file, then the flag. */
			rc = ioctl(fd, LOOP_SET_FD, backing_fd);
			if (rc == 0 && (rc = ioctl(fd, LOOP_SET_STATUS64, &cfg.info)) < 0)
				ioctl(fd, LOOP_CLR_FD, 0);
		}
		if (rc < 0) {
			int err = errno;
			close(fd);
			fd = -1;
			if (err != EBUSY) {
				errno = err;
				break;
			}
		}
	}
	if (fd < 0) {
		int err = errno;
		fd = ap_fail(-err, err, "cannot set up a loop device");
	}
	close(ctl);
	return fd;
}

/* Run mkfs.ext4 on dev.  Returns 0, or a negative errno (-EIO when
 * mkfs.ext4 failed; ap_report_failure() says why). */
static int make_ext4(const char *dev, const char *mnt)
{
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execlp("mkfs.ext4", "mkfs.ext4", "-q", "-F", "-m", "0", "-E", "nodiscard", dev,
		       (char *)NULL);
		fprintf(stderr, "%s: mkfs.ext4: %s\n", cli_program, strerror(errno));
		_exit(127);
	}
	int status = 0;
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		int err = errno;
		return ap_fail(-err, err, "cannot run mkfs.ext4 for %s", cli_quote(mnt));
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return ap_fail(-EIO, 0, "cannot make ext4 on %s for %s: mkfs.ext4 %s %d", dev,
			       cli_quote(mnt),
			       WIFEXITED(status) ? "exited with status" : "was killed by signal",
			       WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	return 0;
}

/* Make an ext4 filesystem on a loop device over an image in dir and mount
 * it on mnt.  Returns 0 or a negative errno (ap_report_failure() says why, except
 * for a failed ftruncate, which never had a message of its own). */
static int mount_ext4(const char *dir, uint64_t size, const char *mnt)
{
	char image[PATH_MAX], dev[32];
	int rc = ap_path(image, dir, "image");
	if (rc < 0)
		return rc;
	int img = open(image, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (img < 0) {
		int err = errno;
		return ap_fail(-err, err, "%s", cli_quote(image));
	}
	int loop = ftruncate(img, (off_t)size) < 0 ? -errno : loop_attach(img, dev);
	unlink(image);
	close(img);
	rc = loop < 0 ? loop : make_ext4(dev, mnt);
	if (rc == 0 && mount(dev, mnt, "ext4", MS_NOSUID | MS_NODEV, NULL) < 0) {
		int err = errno;
		rc = ap_fail(-err, err, "cannot mount %s on %s", dev, cli_quote(mnt));
	}
	if (loop >= 0)
		close(loop);
	return rc;
}

int ap_scratch_new(struct ap_workspace *ws, const char *name, struct ap_scratch *s)
{
	char label[64];
	snprintf(label, sizeof label, "%02u-%s", ++ws->serial, name);
	memset(s, 0, sizeof *s);
	int rc = ap_make_dir(ws->root, label, s->dir);
	if (rc < 0)
		return rc;
	/* The scenario's directory is a mount of its own, so that releasing it
	 * takes every mount below it along. */
	if (mount(s->dir, s->dir, NULL, MS_BIND, NULL) < 0 ||
	    mount(NULL, s->dir, NULL, MS_PRIVATE, NULL) < 0) {
		{
			int err = errno;
			rc = ap_fail(-err, err, "cannot bind-mount %s", cli_quote(s->dir));
		}
		s->dir[0] = '\0';
		return rc;
	}
	if (ws->kind == AP_FS_EXISTING) {
		char ours[PATH_MAX];
		if ((rc = ap_make_dir(ap_shared->subdir, label, ours)) < 0 ||
		    (rc = ap_bind(ours, s->dir, "fs", s->mnt)) < 0)
			return rc;
		return ap_bind(s->mnt, s->dir, "keep", s->keep);
	}
	if ((rc = ap_make_dir(s->dir, "fs", s->mnt)) < 0)
		return rc;
	if (ws->kind == AP_FS_EXT4) {
		rc = mount_ext4(s->dir, ws->size, s->mnt);
	} else {
		char opts[64];
		snprintf(opts, sizeof opts, "mode=0700,size=%" PRIu64, ws->size);
		if (mount("acctpin-scratch", s->mnt, "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0) {
			int err = errno;
			rc = ap_fail(-err, err, "cannot mount a tmpfs on %s", cli_quote(s->mnt));
		}
	}
	if (rc == 0 && mount(NULL, s->mnt, NULL, MS_PRIVATE, NULL) < 0)
		rc = -errno; /* as before, without a message of its own */
	return rc < 0 ? rc : ap_bind(s->mnt, s->dir, "keep", s->keep);
}

void ap_scratch_release(struct ap_scratch *s)
{
	if (!s->dir[0])
		return;
	if (umount2(s->dir, MNT_DETACH) < 0) {
		cli_error(errno, "cannot unmount %s", cli_quote(s->dir));
		ap_cleanup_failed = true;
	}
	s->dir[0] = '\0';
}
