/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove: how a file is reached -- a name in a directory held open.
 *
 * Every source and destination spmove touches is an entry of a directory
 * it opened once: the directory part of a command-line operand (resolved
 * as the user wrote it, once), or a directory of a tree, opened from its
 * parent without following a symbolic link and checked to be the one that
 * was looked at.  System calls then name the entry relative to that
 * descriptor (the *at calls, with AT_SYMLINK_NOFOLLOW), so that another
 * user who can write a directory cannot swap a name for a link between
 * two calls and make spmove act on a file it never meant to touch. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/openat2.h>

#include "message.h"
#include "path.h"
#include "stdfds.h"
#include "spmove.h"

int loc_operand(const char *path, struct loc_buf *b, struct loc *l)
{
	const char *dir, *base;
	int err = path_split(path, b->buf, sizeof(b->buf), &dir, &base);
	if (err)
		return err;
	/* The name loses the operand's trailing slashes: with one, the kernel
	 * would follow a symbolic link swapped in at any later call, even
	 * under O_NOFOLLOW.  What the slash means ("a directory", and for a
	 * link that is there when first looked at, the directory it names) is
	 * must_dir's, checked by loc_stat() and on what is opened. */
	l->name = base;
	l->path = path;
	l->dir_dev = 0;
	l->must_dir = path[strlen(path) - 1] == '/' && strcmp(base, "/");
	l->no_link = l->seen_absent = false;
	/* No directory part but ".", trailing slashes aside ("x/"): the
	 * working directory, with no descriptor of its own to hold. */
	if (base == b->buf && !strcmp(dir, ".")) {
		l->dir = AT_FDCWD;
		return 0;
	}
	l->dir = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return l->dir < 0 ? -errno : 0;
}

void loc_now(struct timespec *t)
{
	clock_gettime(CLOCK_REALTIME_COARSE, t);
}

bool loc_made_here(int fd, mode_t type, const struct timespec *since)
{
	struct statx sx;
	if (statx(fd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC,
		  STATX_TYPE | STATX_UID | STATX_BTIME | STATX_NLINK, &sx) < 0)
		return false;
	if ((sx.stx_mode & S_IFMT) != type || sx.stx_uid != geteuid())
		return false;
	if (sx.stx_mask & STATX_BTIME)
		return sx.stx_btime.tv_sec > since->tv_sec ||
		       (sx.stx_btime.tv_sec == since->tv_sec &&
			sx.stx_btime.tv_nsec >= (unsigned)since->tv_nsec);
	/* No birth time here: a directory just made is at least empty. */
	if (type != S_IFDIR)
		return sx.stx_nlink == 1;
	int dir = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dir < 0 ? NULL : fdopendir(dir);
	if (!d) {
		if (dir >= 0)
			close(dir);
		return false;
	}
	struct dirent *e;
	bool empty = true;
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	return empty;
}

size_t loc_dir_len(const struct loc *l)
{
	size_t len = strlen(l->path), name = strlen(l->name);
	while (len > 1 && l->path[len - 1] == '/')
		len--;
	return len >= name ? len - name : 0;
}

void loc_close(struct loc *l)
{
	if (l->dir >= 0)
		close(l->dir);
	l->dir = -1;
}

int loc_child(const struct loc *parent, int dirfd, const char *name, char *buf, size_t size,
	      struct loc *l)
{
	l->dir = dirfd;
	l->name = name;
	l->path = buf;
	l->dir_dev = 0;
	l->must_dir = l->no_link = l->seen_absent = false;
	l->hidden = parent->hidden;
	return path_join(buf, size, parent->path, name);
}

bool same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

int loc_stat(const struct loc *l, struct stat *st, bool follow)
{
	if (fstatat(l->dir, l->name, st, follow ? 0 : AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	/* /dev/stdin and the like with that fd closed (and held) name nothing,
	 * as with it closed; nor does /proc/self/fd/N itself, a magic link
	 * (not a path: "anon_inode:...") to the held file. */
	if (cli_held_standard_file(st))
		return -ENOENT;
	struct stat to;
	char text[16];
	if (S_ISLNK(st->st_mode) && fstatat(l->dir, l->name, &to, 0) == 0 &&
	    cli_held_standard_file(&to) &&
	    readlinkat(l->dir, l->name, text, sizeof(text)) == sizeof(text) &&
	    !memcmp(text, "anon_inode:", 11))
		return -ENOENT;
	if (l->must_dir && S_ISLNK(st->st_mode) && l->no_link)
		return -ENOTDIR;
	if (l->must_dir && S_ISLNK(st->st_mode) && fstatat(l->dir, l->name, st, 0) < 0)
		return -errno;
	return !l->must_dir || S_ISDIR(st->st_mode) ? 0 : -ENOTDIR;
}

int loc_open_checked(const struct loc *l, int flags, const struct stat *seen, struct stat *now)
{
	/* "link/": the directory the link named when looked at (checked
	 * below to be the one seen). */
	if (l->must_dir)
		flags = (flags & ~O_NOFOLLOW) | O_DIRECTORY;
	int fd = openat(l->dir, l->name, flags | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, now) < 0) {
		int err = errno;
		close(fd);
		return -err;
	}
	if (!same_inode(seen, now) || (seen->st_mode & S_IFMT) != (now->st_mode & S_IFMT)) {
		close(fd);
		return -ESTALE;
	}
	return fd;
}

void loc_replaced(const struct loc *l)
{
	cli_error(0, "skipping file %s, as it was replaced while being copied", quoted(l->path));
}

int loc_sync_dir(int dirfd)
{
	/* The directory's own descriptor where it is not O_PATH (EBADF):
	 * one descriptor fewer, which a run under a low limit may not have. */
	if (fsync(dirfd) == 0)
		return 0;
	if (errno != EBADF)
		return -errno;
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int err = fsync(fd) < 0 ? -errno : 0;
	close(fd);
	return err;
}

const char *loc_proc_path(int fd, const char *name, char *buf, size_t size)
{
	if (fd == AT_FDCWD)
		snprintf(buf, size, "%s", name ? name : ".");
	else if (name)
		snprintf(buf, size, "/proc/thread-self/fd/%d/%s", fd, name);
	else
		snprintf(buf, size, "/proc/thread-self/fd/%d", fd);
	return buf;
}

/* Open the directory path (relative to dirfd) component by component,
 * none of them a symbolic link: for kernels without openat2(2). */
static int open_dir_walk(int dirfd, const char *path)
{
	char buf[PATH_MAX];
	if (strlen(path) >= sizeof(buf))
		return -ENAMETOOLONG;
	strcpy(buf, path);
	int fd = openat(*buf == '/' ? AT_FDCWD : dirfd, *buf == '/' ? "/" : ".",
			O_PATH | O_DIRECTORY | O_CLOEXEC);
	for (char *part = strtok(buf, "/"); fd >= 0 && part; part = strtok(NULL, "/")) {
		int next = openat(fd, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int err = errno;
		close(fd);
		fd = next;
		errno = err;
	}
	return fd < 0 ? -errno : fd;
}

int open_dir_no_symlinks(int dirfd, const char *path)
{
	struct open_how how = { .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
				.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS };
	long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	if (fd >= 0)
		return (int)fd;
	if (errno != ENOSYS && errno != EPERM)
		return -errno;
	return open_dir_walk(dirfd, path);
}
