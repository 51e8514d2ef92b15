/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove: make one file at its destination -- a regular file's data, a
 * symbolic link, a special file.  Each is made under a temporary name in
 * the destination's directory and renamed over it only when complete (and
 * durable, when asked or when the source is to be removed): whatever
 * happens, the destination holds the old file or the new one.  The one
 * exception is a stream (FIFO, character device, socket) read as data into
 * a free name: that file is made under its own name, private (0600) until
 * complete, as cp makes it -- a stream cannot be read again, and whoever
 * feeds it may wait for the name to appear. */
#include "config.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "message.h"
#include "path.h"
#include "spmove.h"

#define ACL_ACCESS "system.posix_acl_access"
#define ACL_DEFAULT "system.posix_acl_default"

/* Where a new file goes: a name in a directory held open. */
struct target {
	int dirfd;
	const char *base;
	const char *path;     /* the destination's name in messages */
	bool absent;          /* nothing has the name (as last looked) */
	dev_t dev;            /* dirfd's device when known, else 0 */
	int own_dir;          /* a directory opened here (to close), or -1 */
	int old_fd;           /* O_PATH: the file a copy into a link replaces, or -1 */
	struct stat old;      /* its fstat */
	bool old_named;       /* old_fd is the file of the name itself, opened
			       * and looked at by look_listed_dst() */
	bool old_mount_root;  /* old_named: a mount point */
	bool hidden;          /* dirfd is in a new tree not yet shown (struct loc) */
	char name[NAME_MAX + 1];
};

/* The target dst itself. */
static void target_init(struct target *t, const struct loc *dst)
{
	*t = (struct target){ .dirfd = dst->dir, .base = dst->name, .path = dst->path,
			      .dev = dst->dir_dev, .own_dir = -1, .old_fd = -1,
			      .hidden = dst->hidden };
}

/* Let go of what target_init() and resolve_output() opened. */
static void target_close(struct target *t)
{
	if (t->own_dir >= 0)
		close(t->own_dir);
	if (t->old_fd >= 0)
		close(t->old_fd);
	t->own_dir = t->old_fd = -1;
}

/* Make t the entry name of the directory dir (path, relative to at), which
 * is opened once -- following links, as the user's own link says when
 * no_links is false, else refusing any.  Returns 0 or a negative errno. */
static int target_at(struct target *t, int at, const char *dir, const char *name,
		     bool no_links)
{
	if (strlen(name) >= sizeof(t->name))
		return -ENAMETOOLONG;
	int fd = no_links ? open_dir_no_symlinks(at, dir)
		 : openat(at, dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return no_links ? fd : -errno;
	strcpy(t->name, name);
	t->dirfd = t->own_dir = fd;
	t->base = t->name;
	t->dev = 0;
	t->hidden = false;
	return 0;
}

/* A temporary name (".spmove-" and 8 hex digits) into name.  One
 * getrandom(2) per thread, then a sequence from it: the names need not be
 * unpredictable (O_EXCL and O_NOFOLLOW make them safe), only unlikely to
 * be taken, and a system call per file showed. */
static void temp_name(char *name, size_t size)
{
	static _Thread_local uint32_t seed, seq;
	static _Thread_local bool seeded;
	if (!seeded && getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = (uint32_t)getpid() * 2654435761u;
	seeded = true;
	snprintf(name, size, ".spmove-%08x", seed + seq++ * 2654435761u);
}

/*
 * Make a temporary name in the directory dirfd: a symbolic link to
 * link_target, or with mode an empty regular file (S_IFREG and its
 * permissions, which the umask and a default ACL cut as open(2)'s), a
 * directory, a FIFO, socket or device (dev).  The name goes to name.
 * Returns the file's fd (0 for the others) or a negative errno.
 */
static int temp_create(int dirfd, const char *link_target, mode_t mode, dev_t dev, char *name,
		       size_t size)
{
	for (int tries = 0; tries < 100; tries++) {
		temp_name(name, size);
		int fd = link_target ? symlinkat(link_target, dirfd, name)
			 : S_ISDIR(mode) ? mkdirat(dirfd, name, mode & 07777)
			 : !S_ISREG(mode) ? mknodat(dirfd, name, mode, dev)
					  : openat(dirfd, name, O_RDWR | O_CREAT | O_EXCL |
						   O_NOFOLLOW | O_CLOEXEC, mode & 07777);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

int copy_temp_dir(int dirfd, mode_t mode, char *name, size_t size)
{
	return temp_create(dirfd, NULL, S_IFDIR | mode, 0, name, size);
}

/* Make the directory entries of a new file durable when asked. */
static int dir_sync(const struct copier *s, const struct target *t)
{
	return s->o->fsync || s->o->move ? loc_sync_dir(t->dirfd) : 0;
}

/* Put the temporary name over t's name (and make that durable when asked).
 * Returns 0 or a negative errno; the temporary is gone either way. */
static int temp_commit(const struct copier *s, const struct target *t, const char *name)
{
	if (renameat(t->dirfd, name, t->dirfd, t->base) < 0) {
		int err = -errno;
		unlinkat(t->dirfd, name, 0);
		return err;
	}
	return dir_sync(s, t);
}

/* Give fd, a file made by O_TMPFILE, the name name in t's directory.
 * linkat(2) by the descriptor itself needs CAP_DAC_READ_SEARCH before
 * Linux 6.10, through /proc none; the one that failed is not tried again.
 * Returns 0 or a negative errno (-EEXIST: the name is taken). */
static int link_unnamed(const struct target *t, int fd, const char *name)
{
	static _Atomic bool by_fd_refused;
	if (!by_fd_refused) {
		if (linkat(fd, "", t->dirfd, name, AT_EMPTY_PATH) == 0)
			return 0;
		if (errno != ENOENT)
			return -errno;
		by_fd_refused = true;
	}
	char proc[64];
	snprintf(proc, sizeof(proc), "/proc/thread-self/fd/%d", fd);
	return linkat(AT_FDCWD, proc, t->dirfd, name, AT_SYMLINK_FOLLOW) == 0 ? 0 : -errno;
}

/* In a durable copy, fsync fd once more now that it has a name, where its
 * file system needs that (durable_after_link: btrfs).  Returns 0 or a
 * negative errno. */
static int link_sync(const struct copier *s, int fd)
{
	if (!(s->o->fsync || s->o->move) || !durable_after_link(fd))
		return 0;
	return fsync(fd) < 0 ? -errno : 0;
}

/* Name fd, a complete file made by O_TMPFILE, as t says: linked to the
 * free name, or if another has taken it meanwhile, linked to a temporary
 * name and renamed over it (a copy replaces what it finds, in one step).
 * Returns 0 or a negative errno; on failure no name of fd is left. */
static int unnamed_commit(const struct copier *s, const struct target *t, int fd)
{
	int err = link_unnamed(t, fd, t->base);
	if (!err) {
		err = link_sync(s, fd);
		if (err)
			unlinkat(t->dirfd, t->base, 0);
		return err ? err : dir_sync(s, t);
	}
	if (err != -EEXIST)
		return err;
	char name[32];
	for (int tries = 0; tries < 100; tries++) {
		temp_name(name, sizeof(name));
		err = link_unnamed(t, fd, name);
		if (!err && (err = link_sync(s, fd)) != 0)
			unlinkat(t->dirfd, name, 0);
		if (err != -EEXIST)
			return err ? err : temp_commit(s, t, name);
	}
	return -EEXIST;
}

/* Whether the run was interrupted by a signal (*err becomes -ECANCELED)
 * or *err is already an error. */
static bool cancelled(int *err)
{
	if (spmove_cancel && !*err)
		*err = -ECANCELED;
	return *err != 0;
}

/* A copy into the dangling symbolic link dst: refused as cp refuses it,
 * unless POSIXLY_CORRECT is set; then the file it names is made (the link
 * read once, its directory opened once).  Returns 0, or 1 after a report. */
static int resolve_dangling(const struct loc *dst, struct target *t)
{
	if (!getenv("POSIXLY_CORRECT")) {
		cli_error(0, "not writing through dangling symlink %s", quoted(dst->path));
		return 1;
	}
	char link[PATH_MAX], buf[PATH_MAX];
	const char *dir, *base;
	ssize_t n = readlinkat(dst->dir, dst->name, link, sizeof(link) - 1);
	int err = n < 0 ? -errno : 0;
	if (!err) {
		link[n] = '\0';
		err = path_split(link, buf, sizeof(buf), &dir, &base);
	}
	if (!err)
		err = target_at(t, dst->dir, dir, base, false);
	if (err) {
		cli_error(-err, "cannot create regular file %s", quoted(dst->path));
		return 1;
	}
	return 0;
}

/*
 * The file a copy writes (t): dst itself, or for a copy (not a move) into
 * a symbolic link, the file the link names (dst_st: as seen before) -- the
 * link followed once, by an open; the file's directory opened by the name
 * the kernel gives that file, with no link in it, and checked to hold that
 * very file.  Returns 0, or 1 after a report.
 */
static int resolve_output(const struct copier *s, const struct loc *dst,
			  const struct stat *dst_st, struct target *t)
{
	struct stat st;
	target_init(t, dst);
	/* A link to a pipe or device (/dev/stdout) is opened, not resolved. */
	if (s->o->move || s->o->remove_destination || loc_stat(dst, &st, false) ||
	    !S_ISLNK(st.st_mode) || (dst_st && !S_ISREG(dst_st->st_mode)))
		return 0;
	if (!dst_st)
		return resolve_dangling(dst, t);
	int fd = openat(dst->dir, dst->name, O_PATH | O_CLOEXEC);
	/* cp -f onto a symbolic link loop replaces the link. */
	if (fd < 0 && errno == ELOOP && s->o->force)
		return 0;
	if (fd < 0 && errno == ENOENT)
		return resolve_dangling(dst, t);
	char proc[64], real[PATH_MAX], buf[PATH_MAX];
	const char *dir, *base;
	ssize_t n = -1;
	int err = fd < 0 || fstat(fd, &t->old) < 0 ? -errno : 0;
	t->old_fd = fd;
	if (!err && !same_inode(&t->old, dst_st))
		err = -ESTALE;
	if (!err) {
		snprintf(proc, sizeof(proc), "/proc/thread-self/fd/%d", fd);
		n = readlink(proc, real, sizeof(real) - 1);
		err = n < 0 ? -errno : n == sizeof(real) - 1 ? -ENAMETOOLONG : 0;
	}
	if (!err) {
		real[n] = '\0';
		err = real[0] != '/' ? -ESTALE : path_split(real, buf, sizeof(buf), &dir, &base);
	}
	if (!err)
		err = target_at(t, AT_FDCWD, dir, base, true);
	if (!err && (fstatat(t->dirfd, t->base, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		     !same_inode(&st, &t->old)))
		err = -ESTALE; /* renamed, removed or swapped meanwhile */
	if (!err)
		return 0;
	if (err == -ESTALE || err == -ELOOP || err == -ENOTDIR)
		cli_error(0, "skipping file %s, as it was replaced while being copied",
			  quoted(dst->path));
	else
		cli_error(-err, "cannot stat %s", quoted(dst->path));
	target_close(t);
	return 1;
}

/* Where the bytes go: a temporary file, or (--in-place, or a DST that is
 * a device or FIFO, such as /dev/null) DST itself. */
struct output {
	int fd;
	bool temp;
	bool special;   /* written, never read back */
	bool replaces;  /* keeps an existing DST's mode and owner */
	bool moded;     /* made with its final mode: no chmod after */
	bool unnamed;   /* temp: made by O_TMPFILE, linked in when complete */
	bool direct;    /* made under DST's free name (dev, ino; 0 when not
			 * looked at): a stream's copy, or any in a hidden tree */
	bool acl_wanted; /* temp, replaces: the mode and ACL of DST are kept */
	bool acl_read;  /* acl, acl_len: DST's ACL, read and checked */
	dev_t dev;
	ino_t ino;
	ssize_t acl_len; /* < 0: DST has none */
	char *acl;       /* acl_small or malloc'd */
	char name[32];
	char acl_small[512];
};

/* Open DST itself for writing (--in-place, or a device or FIFO), checked
 * to be the file seen as dst_st when it exists; a regular file is
 * truncated only after that check.  Returns 0 or a negative errno (-ESTALE:
 * another file has the name now). */
static int output_open_dst(const struct copier *s, const struct target *t,
			   const struct stat *dst_st, mode_t src_mode, struct output *out)
{
	/* A device or FIFO named through a link (/dev/stdout) is followed,
	 * as cp does; a regular file never. */
	/* A name that had nothing is made, never opened: another user may
	 * have put a file there since (--in-place to a new name). */
	int flags = O_CLOEXEC | O_NOCTTY |
		    (out->special ? O_WRONLY : O_RDWR | O_CREAT | O_NOFOLLOW) |
		    (out->special || dst_st ? 0 : O_EXCL);
	/* A FIFO's open waits for a reader: a signal that cancels the run
	 * ends it quietly, any other is waited through. */
	do
		out->fd = openat(t->dirfd, t->base, flags, new_file_mode(s, src_mode));
	while (out->fd < 0 && errno == EINTR && !spmove_cancel);
	if (out->fd < 0 && errno == EINTR)
		return -ECANCELED;
	if (out->fd < 0 && dst_st && !out->special && s->o->force &&
	    unlinkat(t->dirfd, t->base, 0) == 0) {
		out->replaces = false;
		dst_st = NULL;
		out->fd = openat(t->dirfd, t->base, flags | O_EXCL, new_file_mode(s, src_mode));
	}
	if (out->fd < 0)
		return -errno;
	struct stat now;
	int err = fstat(out->fd, &now) < 0 ? -errno : 0;
	if (!err && dst_st && !same_inode(&now, t->old_fd >= 0 ? &t->old : dst_st))
		err = -ESTALE;
	if (!err && S_ISREG(now.st_mode) && now.st_size && ftruncate(out->fd, 0) < 0)
		err = -errno;
	if (err) {
		close(out->fd);
		out->fd = -1;
	}
	return err;
}

/* Whether the list of extended attribute names (n bytes) holds any but
 * the ACLs, which keep_replaced() copies. */
static bool other_xattrs(const char *list, ssize_t n)
{
	for (const char *p = list; p < list + n; p += strlen(p) + 1)
		if (strcmp(p, ACL_ACCESS) && strcmp(p, ACL_DEFAULT))
			return true;
	return false;
}

/* Whether the user may give a file the group gid (root, or a member). */
static bool may_have_group(gid_t gid)
{
	if (gid == getegid())
		return true;
	int n = getgroups(0, NULL);
	gid_t *groups = n > 0 ? malloc((size_t)n * sizeof(*groups)) : NULL;
	bool member = false;
	n = groups ? getgroups(n, groups) : 0;
	for (int i = 0; i < n && !member; i++)
		member = groups[i] == gid;
	free(groups);
	return member;
}

/* The files of this process's standard input, output and error, looked
 * at once: a run never changes its descriptors 0 to 2, and three fstat(2)
 * calls per replaced file showed. */
static struct {
	bool open;
	dev_t dev;
	ino_t ino;
} std_file[3];
static pthread_once_t std_once = PTHREAD_ONCE_INIT;
/* The effective user and group, asked at the same time (nor do they
 * change during a run). */
static uid_t my_uid;
static gid_t my_gid;

static void std_look(void)
{
	my_uid = geteuid();
	my_gid = getegid();
	for (int fd = 0; fd <= 2; fd++) {
		struct stat st;
		if (fstat(fd, &st) == 0)
			std_file[fd] = (typeof(std_file[fd])){ true, st.st_dev, st.st_ino };
	}
}

/* Whether st is the file of a standard stream of this process. */
static bool std_stream(const struct stat *st)
{
	pthread_once(&std_once, std_look);
	for (int fd = 0; fd <= 2; fd++)
		if (std_file[fd].open && std_file[fd].dev == st->st_dev &&
		    std_file[fd].ino == st->st_ino)
			return true;
	return false;
}

/* listxattrat(2) (Linux 6.13): the same number on every architecture but
 * alpha's, and not yet in every C library's headers. */
#if !defined(__NR_listxattrat) && !defined(__alpha__)
#define __NR_listxattrat 465
#endif

static _Atomic bool listxattrat_refused;

/* listxattrat(2) of name in dirfd with flags, into list (size bytes), or
 * -1 with errno ENOSYS where the kernel has none (or a filter denies it),
 * which is then not asked again. */
static ssize_t try_listxattrat(int dirfd, const char *name, int flags, char *list, size_t size)
{
#ifdef __NR_listxattrat
	if (!listxattrat_refused) {
		long n = syscall(__NR_listxattrat, dirfd, name, flags, list, size);
		if (n >= 0 || (errno != ENOSYS && errno != EPERM))
			return n;
		listxattrat_refused = true; /* an older kernel, or a filter */
	}
#else
	(void)dirfd;
	(void)name;
	(void)flags;
	(void)list;
	(void)size;
#endif
	errno = ENOSYS;
	return -1;
}

/* The names of the extended attributes of name in the directory dirfd,
 * never following it, into list (size bytes), as llistxattr(2) on path
 * (/proc/thread-self/fd/DIRFD/NAME) -- by listxattrat(2) where the kernel
 * has it, which looks name up in dirfd at about half the cost of resolving the
 * /proc path (measured: 10 us against 22 us a call on the development
 * VM).  Returns the size of the list, or -1 with errno set. */
static ssize_t list_xattrs_at(int dirfd, const char *name, const char *path, char *list,
			      size_t size)
{
	ssize_t n = try_listxattrat(dirfd, name, AT_SYMLINK_NOFOLLOW, list, size);
	return n >= 0 || errno != ENOSYS ? n : llistxattr(path, list, size);
}

/* This thread's descriptor of the directory /proc/thread-self/fd (its
 * own table: a copy worker may have one, fdtable.c), opened once, or -1;
 * copy_thread_end() closes it. */
static _Thread_local int proc_fds = -2;

static int proc_fd_dir(void)
{
	if (proc_fds == -2)
		proc_fds = open("/proc/thread-self/fd", O_PATH | O_DIRECTORY | O_CLOEXEC);
	return proc_fds;
}

void copy_thread_end(void)
{
	if (proc_fds >= 0)
		close(proc_fds);
	proc_fds = -2;
}

/* The names of the extended attributes of the file of descriptor fd, an
 * O_PATH one (which flistxattr(2) refuses, and listxattrat(2) with
 * AT_EMPTY_PATH too), into list (size bytes), as listxattr(2) on path,
 * its /proc/thread-self/fd/N link, which it follows to that very file --
 * by listxattrat(2) of the link N in that directory where the kernel has it:
 * one lookup instead of three (measured on 6.18: 2.2-2.7 us a call
 * against 2.8-3.9 us, a tenth of what replacing a small file costs).
 * Returns the size of the list, or -1 with errno set. */
static ssize_t list_xattrs_fd(int fd, const char *path, char *list, size_t size)
{
	int dir = proc_fd_dir();
	if (dir >= 0) {
		char num[16];
		snprintf(num, sizeof(num), "%d", fd);
		ssize_t n = try_listxattrat(dir, num, 0, list, size);
		if (n >= 0 || errno != ENOSYS)
			return n;
	}
	return listxattr(path, list, size);
}

/* Whether the list of extended attribute names (n bytes) holds name. */
static bool has_xattr(const char *list, ssize_t n, const char *name)
{
	for (const char *p = list; p < list + n; p += strlen(p) + 1)
		if (!strcmp(p, name))
			return true;
	return false;
}

/* Read the access ACL of the file whose descriptor's link
 * /proc/thread-self/fd/N is path (getxattr() follows it to that very file)
 * into out (acl_len < 0: none).  Returns 0 or a negative errno. */
static int read_replaced_acl(const char *path, struct output *out)
{
	out->acl = out->acl_small;
	ssize_t n = getxattr(path, ACL_ACCESS, out->acl_small, sizeof(out->acl_small));
	if (n < 0 && errno == ERANGE) {
		n = getxattr(path, ACL_ACCESS, NULL, 0);
		out->acl = n > 0 ? malloc((size_t)n) : NULL;
		n = out->acl ? getxattr(path, ACL_ACCESS, out->acl, (size_t)n) : -1;
		if (!out->acl)
			out->acl = out->acl_small;
	}
	out->acl_len = n;
	return 0;
}

/* Let go of what read_replaced_acl() kept. */
static void output_free_acl(struct output *out)
{
	if (out->acl && out->acl != out->acl_small)
		free(out->acl);
	out->acl = NULL;
}

/* Whether a and b are one file with no change of its status between
 * them: the same inode, type and ctime.  Moving a file away from a name
 * and back (or any link, unlink, chmod or chown of it) sets its ctime. */
static bool unchanged(const struct stat *a, const struct stat *b)
{
	return same_inode(a, b) && (a->st_mode & S_IFMT) == (b->st_mode & S_IFMT) &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* statx's answer (STATX_BASIC_STATS) as a struct stat. */
static void stat_of_statx(const struct statx *x, struct stat *st)
{
	*st = (struct stat){ .st_dev = makedev(x->stx_dev_major, x->stx_dev_minor),
			     .st_ino = x->stx_ino, .st_mode = x->stx_mode,
			     .st_nlink = x->stx_nlink, .st_uid = x->stx_uid,
			     .st_gid = x->stx_gid, .st_size = (off_t)x->stx_size,
			     .st_rdev = makedev(x->stx_rdev_major, x->stx_rdev_minor),
			     .st_blksize = x->stx_blksize, .st_blocks = (blkcnt_t)x->stx_blocks,
			     .st_atim = { x->stx_atime.tv_sec, x->stx_atime.tv_nsec },
			     .st_mtim = { x->stx_mtime.tv_sec, x->stx_mtime.tv_nsec },
			     .st_ctim = { x->stx_ctime.tv_sec, x->stx_ctime.tv_nsec } };
}

/* Whether statx says x is the root of a mount (a bind-mounted file). */
static bool mount_root(const struct statx *x)
{
	return (x->stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
	       (x->stx_attributes & STATX_ATTR_MOUNT_ROOT);
}

/* Why a copy must write into the existing regular file old (the file t
 * names) instead of replacing it by a complete new one (into *why; NULL
 * when it may be replaced): a new file in its place would differ from
 * cp's result, which is the same file with new data.  It may be replaced
 * when it has one link, is not a mount point, is not this process's
 * standard input, output or error (a caller's redirection, /dev/stdout),
 * and its owner, group and extended attributes can be kept (mode and ACL
 * always can).
 *
 * When out->acl_wanted, the ACL the copy is to take from old is read here
 * too (out->acl_read), through an O_PATH descriptor of the name opened
 * without following it, whose file must be the one seen as old, with the
 * ctime it had (else it was swapped meanwhile and lends nothing: -ESTALE).
 * Never by name: a name swapped for another file and back around a read
 * by name could lend that file's ACL, and before Linux 6.13's fine-grained
 * ctime a swap and undo within one clock tick leaves the ctime as it was.
 * Returns 0 or a negative errno (-ENOENT: old is gone). */
static int in_place_reason(const struct copier *s, const struct target *t,
			   const struct stat *old, struct output *out, const char **why)
{
	*why = NULL;
	if (old->st_nlink > 1) {
		*why = "other names link to it";
		return 0;
	}
	if (std_stream(old)) {
		*why = "it is open as a standard stream";
		return 0;
	}
	if (!s->o->root && (old->st_uid != geteuid() || !may_have_group(old->st_gid))) {
		*why = "its owner cannot be kept";
		return 0;
	}
	bool by_fd = t->old_fd < 0 && out->acl_wanted;
	int pfd = by_fd ? openat(t->dirfd, t->base, O_PATH | O_NOFOLLOW | O_CLOEXEC) : t->old_fd;
	if (by_fd && pfd < 0)
		return -errno;
	int at = pfd >= 0 ? pfd : t->dirfd;
	const char *name = pfd >= 0 ? "" : t->base;
	int flags = AT_SYMLINK_NOFOLLOW | (pfd >= 0 ? AT_EMPTY_PATH : 0);
	char path[NAME_MAX + 64], list[1024];
	loc_proc_path(at, pfd >= 0 ? NULL : t->base, path, sizeof(path));
	int err = 0;
	struct statx stx;
	/* A file the worker opened and looked at is known (old). */
	if (t->old_named) {
		if (t->old_mount_root)
			*why = "it is a mount point";
	} else if (statx(at, name, flags, STATX_BASIC_STATS, &stx) < 0) {
		err = t->old_fd >= 0 ? 0 : -errno;
		goto out;
	} else if (mount_root(&stx)) {
		*why = "it is a mount point";
	}
	if (by_fd) {
		struct stat now;
		stat_of_statx(&stx, &now);
		if (!unchanged(&now, old)) {
			err = -ESTALE;
			goto out;
		}
	}
	/* The /proc name of a descriptor is followed to its file; a name in
	 * the directory is not. */
	ssize_t n = pfd >= 0 ? list_xattrs_fd(pfd, path, list, sizeof(list))
		    : list_xattrs_at(t->dirfd, t->base, path, list, sizeof(list));
	if ((n < 0 && errno == ERANGE) || (n > 0 && other_xattrs(list, n))) {
		*why = "its extended attributes cannot be kept";
		goto out;
	}
	if (by_fd || (t->old_named && out->acl_wanted)) {
		/* No ACL listed, none read. */
		if (n >= 0 && !has_xattr(list, n, ACL_ACCESS))
			out->acl_len = -1;
		else
			read_replaced_acl(path, out);
		out->acl_read = true;
	}
out:
	if (by_fd)
		close(pfd);
	return err;
}

static bool born_with_mode(const struct copier *s, const struct output *out,
			   const struct stat *old);

/* Open the output for a source with mode src_mode; dst_st is the existing
 * file's.  Returns 0 or a negative errno. */
static int output_open(struct copier *s, const struct target *t, const struct stat *dst_st,
		       mode_t src_mode, struct output *out)
{
	/* A device or FIFO is written into (cp); a move replaces it. */
	out->special = dst_st && !s->o->move &&
		       (S_ISCHR(dst_st->st_mode) || S_ISBLK(dst_st->st_mode) ||
			S_ISFIFO(dst_st->st_mode) || S_ISSOCK(dst_st->st_mode));
	out->temp = !out->special && !s->o->in_place;
	/* A copy over a file that a new one cannot stand in for writes into
	 * it, as cp does (-v says so). */
	const char *why = NULL;
	out->acl_wanted = out->temp && out->replaces && !keeps_mode(s);
	if (out->temp && dst_st && !s->o->move && !s->o->remove_destination &&
	    S_ISREG(dst_st->st_mode)) {
		int err = in_place_reason(s, t, t->old_fd >= 0 ? &t->old : dst_st, out, &why);
		/* A file removed since it was seen (on NFS, by another
		 * process): the copy makes it anew, as cp does. */
		if (err == -ENOENT) {
			out->replaces = out->acl_wanted = false;
			err = 0;
		}
		if (err)
			return err;
	}
	if (why)
		out->temp = false;
	if (!out->temp) {
		int err = output_open_dst(s, t, dst_st, src_mode, out);
		if (!err && why && s->o->verbose)
			cli_error(0, "%s: %s: writing in place", quoted(t->path), why);
		return err;
	}
	/* A plain copy into a new name is made with the mode it keeps (cp's:
	 * the source's, cut by the umask or a default ACL): a fchmod(2) per
	 * file fewer.  Anything else stays private (0600) until its owner,
	 * attributes and mode are right. */
	out->moded = !out->replaces && !s->o->keep && !s->o->no_keep_mode && !keeps_mode(s);
	mode_t mode = out->moded ? new_file_mode(s, src_mode) : 0600;
	/* So is a copy that replaces a file whose permissions are its mode
	 * alone, when it is born with that file's owner and nothing else:
	 * the name sees the same permissions before and after. */
	const struct stat *old = t->old_fd >= 0 ? &t->old : dst_st;
	if (out->temp && out->replaces && born_with_mode(s, out, old)) {
		out->moded = true;
		mode = old->st_mode & 0777;
	}
	/* A stream into a free name: made under that name at once, private
	 * until complete (a name someone took meanwhile is replaced as
	 * usual, through a temporary). */
	if (t->absent && (S_ISFIFO(src_mode) || S_ISCHR(src_mode) || S_ISSOCK(src_mode))) {
		struct stat st;
		out->fd = openat(t->dirfd, t->base,
				 O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0600);
		if (out->fd >= 0 && fstat(out->fd, &st) == 0) {
			out->temp = out->moded = false;
			out->direct = true;
			out->dev = st.st_dev;
			out->ino = st.st_ino;
			return 0;
		}
		int err = -errno;
		if (out->fd >= 0) {
			close(out->fd);
			unlinkat(t->dirfd, t->base, 0);
			return err;
		}
		if (err != -EEXIST)
			return err;
	}
	/* In a new tree that no one sees until it is complete (entry.c), a
	 * free name is written at once, as cp writes it: no name shows the
	 * file half-written but the tree's temporary one, and a failed copy
	 * is removed before the tree is shown. */
	if (t->absent && t->hidden) {
		out->fd = openat(t->dirfd, t->base,
				 O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, mode);
		if (out->fd >= 0) {
			out->temp = false;
			out->direct = true;
			return 0;
		}
		if (errno != EEXIST)
			return -errno;
	}
	/* For a free name, a file without a name until it is complete: one
	 * directory change (the link) instead of two (create and rename), and
	 * nothing to remove if the copy fails. */
	struct refusals *r = &s->refused;
	if (t->absent && !(t->dev && r->no_tmpfile && r->tmpfile_dev == t->dev)) {
		out->fd = openat(t->dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, mode);
		if (out->fd >= 0) {
			out->unnamed = true;
			return 0;
		}
		if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
			return -errno;
		r->no_tmpfile = t->dev != 0;
		r->tmpfile_dev = t->dev;
	}
	out->fd = temp_create(t->dirfd, NULL, S_IFREG | mode, 0, out->name, sizeof(out->name));
	if (out->fd == -EACCES && dst_st && S_ISREG(dst_st->st_mode) && !s->o->move) {
		/* A writable file in a directory that is not: written in
		 * place, as cp always does (without the guarantee that a
		 * failure leaves the old file; -v says so). */
		out->temp = out->moded = false;
		int err = output_open_dst(s, t, dst_st, src_mode, out);
		if (!err && s->o->verbose)
			cli_error(0, "%s: the directory is not writable: writing in place",
				  quoted(t->path));
		return err;
	}
	return out->fd < 0 ? out->fd : 0;
}

/* The access ACL that grants no more than the permission bits of mode
 * (the owner's, the group's and the others' entries only), as the kernel
 * takes it from setxattr(2): version 2, little-endian.  Into buf (28
 * bytes); returns its size. */
static size_t minimal_acl(mode_t mode, char *buf)
{
	static const uint16_t tags[] = { 0x01, 0x04, 0x20 }; /* USER_OBJ, GROUP_OBJ, OTHER */
	uint32_t word = htole32(2);
	memcpy(buf, &word, 4);
	for (int i = 0; i < 3; i++) {
		uint16_t half[2] = { htole16(tags[i]), htole16((mode >> (6 - 3 * i)) & 7) };
		word = htole32(UINT32_MAX); /* no user or group named */
		memcpy(buf + 4 + 8 * i, half, 4);
		memcpy(buf + 8 + 8 * i, &word, 4);
	}
	return 28;
}

/* Give out the access ACL acl (n bytes; none when n < 0) and mode: the
 * ACL sets the permission bits and the special ones follow; without one,
 * an ACL out inherited from its directory's default ACL is dropped and
 * the mode set.  Where the file system keeps an ACL that names no one as
 * the mode itself (acl_is_mode: durable_acl_is_mode()), one such ACL does
 * both in one call instead of two or three (fgetxattr, fremovexattr,
 * fchmod).  Returns 0 or a negative errno. */
static int set_permissions(int out, const char *acl, ssize_t n, mode_t mode, bool acl_is_mode)
{
	char minimal[28];
	if (n < 0 && acl_is_mode) {
		acl = minimal;
		n = (ssize_t)minimal_acl(mode, minimal);
	}
	if (n >= 0 && fsetxattr(out, ACL_ACCESS, acl, (size_t)n, 0) == 0)
		return (mode & (S_ISUID | S_ISGID | S_ISVTX)) && fchmod(out, mode & 07777) < 0
		       ? -errno : 0;
	if (fgetxattr(out, ACL_ACCESS, NULL, 0) >= 0 && fremovexattr(out, ACL_ACCESS) < 0)
		return -errno;
	return fchmod(out, mode & 07777) < 0 ? -errno : 0;
}

/* Whether a new file made in the destination directory of the copy under
 * way (s->dst_dir_st, known for a handed-over copy) is born with the owner
 * and group of was, so that root's fchown(2) can go: was is ours (the
 * effective user and group), and so is the directory -- no one but its
 * owner may give it another group or the set-group-ID bit meanwhile, and
 * a file made in it takes our group or the directory's, the same one. */
static bool born_as(const struct copier *s, const struct stat *was)
{
	const struct stat *dir = s->dst_dir_st;
	if (!dir)
		return false;
	pthread_once(&std_once, std_look);
	return was->st_uid == my_uid && was->st_gid == my_gid && dir->st_uid == my_uid &&
	       dir->st_gid == my_gid;
}

/* Whether a copy made in the destination directory of the copy under way
 * can be born with the permissions of the file it replaces, old (out: its
 * ACL read and found missing): the mode alone, which the umask leaves
 * whole, no special bit (a later chown would clear it), no chown needed,
 * and no default ACL in the directory (s->dst_dir_plain, looked at when
 * the walker entered it) to lend the copy entries old does not have.  It
 * is then made with that mode instead of 0600 and given it after (one
 * fsetxattr(2) or fchmod(2) per file fewer).  Should the directory's
 * owner give it a default ACL meanwhile, the copy takes that ACL's
 * entries, as any new file there would. */
static bool born_with_mode(const struct copier *s, const struct output *out,
			   const struct stat *old)
{
	return s->dst_dir_plain && out->acl_read && out->acl_len < 0 && !keeps_mode(s) &&
	       !(old->st_mode & (S_ISUID | S_ISGID | S_ISVTX)) &&
	       !(old->st_mode & s->o->umask & 0777) && (!s->o->root || born_as(s, old));
}

/* Give the copy out the owner (as was, when chown) and the permissions of
 * the file it replaces, seen as was with the access ACL acl (n bytes;
 * none when n < 0).  Returns 0 or a negative errno. */
static int give_replaced_mode(const char *acl, ssize_t n, const struct stat *was, bool chown,
			      int out)
{
	/* A change of owner clears the set-user-ID bit: it comes first. */
	if (chown && fchown(out, was->st_uid, was->st_gid) < 0)
		return -errno;
	return set_permissions(out, acl, n, was->st_mode, durable_acl_is_mode(out, was->st_dev));
}

/* Give the copy out the owner (with chown) and permissions of the file it
 * replaces, reached through old, the /proc/thread-self/fd/N link of a
 * descriptor of it (getxattr() follows it to that very file), whose owner and mode
 * are in was: the same result as libacl's perm_copy_file() in two to four
 * calls, none of them a lookup of the copy's name.  Returns 0 or a
 * negative errno. */
static int copy_replaced_mode(const char *old, const struct stat *was, bool chown, int out)
{
	char small[512];
	char *acl = small;
	ssize_t n = getxattr(old, ACL_ACCESS, small, sizeof(small));
	if (n < 0 && errno == ERANGE) {
		n = getxattr(old, ACL_ACCESS, NULL, 0);
		acl = n > 0 ? malloc((size_t)n) : NULL;
		n = acl ? getxattr(old, ACL_ACCESS, acl, (size_t)n) : -1;
	}
	int err = n < 0 && errno == ENOENT ? -ENOENT : 0;
	if (!err)
		err = give_replaced_mode(acl, n, was, chown, out);
	if (acl != small)
		free(acl);
	return err;
}

/* Give a copy that replaces an existing file (seen as old) that file's
 * mode, ACL and (as root) owner, as cp does when it writes into it.  All
 * of them come from an O_PATH descriptor of that file (for the target of
 * a link, the one opened as it), checked to be the file seen, with the
 * ctime it had when first looked at; the ACL is read through its magic
 * link.  A file swapped in and back meanwhile lends nothing: the
 * descriptor holds the file seen whatever the name says.  Mostly that was
 * done already, before the copy (in_place_reason(): out->acl_read).
 * Returns 0 or a negative errno (-ESTALE: replaced meanwhile; -ENOENT:
 * gone). */
static int keep_replaced(const struct copier *s, const struct target *t,
			 const struct output *out, const struct stat *old)
{
	/* The owner is the replaced file's, as cp's write keeps it, unless
	 * the source's is kept (--preserve=ownership): attrs_copy() gave it. */
	bool chown = s->o->root && !(s->o->keep & KEEP_OWNER);
	if (out->acl_read)
		return give_replaced_mode(out->acl, out->acl_len, old, chown && !born_as(s, old),
					  out->fd);
	char path[64];
	struct stat st;
	int fd = t->old_fd >= 0 ? t->old_fd
		 : openat(t->dirfd, t->base, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	int err = fd < 0 || fstat(fd, &st) < 0 ? -errno : 0;
	if (!err && !unchanged(&st, t->old_fd >= 0 ? &t->old : old))
		err = -ESTALE;
	if (!err)
		err = copy_replaced_mode(loc_proc_path(fd, NULL, path, sizeof(path)), &st, chown,
					 out->fd);
	if (fd >= 0 && fd != t->old_fd)
		close(fd);
	return err;
}

/* The walker's descriptor for t's directory, through which the batch
 * renames a file it queues: in a worker with a table of its own
 * (fdtable.c), the number the walker has for the job's destination
 * directory; -1 where there is none (the file is then made durable and
 * renamed here). */
static int walker_dir(const struct copier *s, const struct target *t)
{
	if (!s->own_table)
		return t->dirfd;
	return t->dirfd == s->dst_dir_own ? s->dst_dir_walker : -1;
}

/* Make the output complete: attributes, durability, the check of
 * --verify, and the rename into place.  Returns 0, or 1 after a report. */
static int output_finish(struct copier *s, const struct target *t, struct output *out,
			 const struct loc *src, int in, const struct stat *st,
			 const struct stat *dst_st)
{
	int err = 0;
	const char *what = "setting permissions for";
	struct loc at = { t->dirfd, t->base, t->path, t->dev, false, false, false, false };
	/* As cp: attributes that cannot be kept fail the copy, not undo it.
	 * Extended attributes go first, while the file is still writable. */
	bool kept = out->special || !attrs_copy(s, src, in, st, out->fd, &at, !out->replaces);
	if (out->temp && out->replaces && !keeps_mode(s) && !out->moded)
		err = keep_replaced(s, t, out, dst_st);
	/* A file removed since it was seen (on NFS, by another process): the
	 * copy makes it anew, as cp does. */
	if (err == -ENOENT) {
		out->replaces = false;
		err = 0;
	}
	if (!out->replaces && (out->temp || out->direct) && !out->moded && !keeps_mode(s) &&
	    fchmod(out->fd, new_file_mode(s, st->st_mode)) < 0)
		err = -errno;
	if (err == -ESTALE) {
		cli_error(0, "skipping file %s, as it was replaced while being copied",
			  quoted(t->path));
		return 1;
	}
	bool durable = s->o->fsync || s->o->move;
	dev_t dev = t->old_fd >= 0 ? t->old.st_dev : dst_st ? dst_st->st_dev : 0;
	/* A temporary to be put over a name that is there. */
	bool replacing = !durable && out->temp && !t->absent;
	bool flush = replacing && durable_before_replace(out->fd, dev, s->cloned > 0);
	/* In a tree, on XFS and btrfs, a replaced file is renamed by the
	 * batch (batch.c), and its flush, if it needs one, is the batch's:
	 * the writeback starts now, the rename waits for the barrier. */
	int batch_dir = walker_dir(s, t);
	bool batched = replacing && s->batch && dev && !out->unnamed && batch_dir != -1 &&
		       t->own_dir < 0 && (t->old_fd < 0 || t->old_named) &&
		       durable_batches(out->fd, dev);
	bool barrier = batched && flush;
	if (barrier) {
		sync_file_range(out->fd, 0, 0, SYNC_FILE_RANGE_WRITE);
		flush = false;
	}
	if (!err && (durable ? fsync(out->fd) : flush ? fdatasync(out->fd) : 0) < 0) {
		err = -errno;
		what = "cannot sync";
	}
	if (!cancelled(&err) && s->o->verify && S_ISREG(st->st_mode) && !out->special) {
		int r = sp_compare(in, 0, out->fd, 0, (uint64_t)st->st_size);
		err = r < 0 ? r : r ? -EIO : 0;
		what = r > 0 ? "verification failed: the copy differs from its source:"
		       : "cannot verify";
	}
	if (!cancelled(&err) && out->unnamed) {
		err = unnamed_commit(s, t, out->fd);
		out->temp = false;
		what = "cannot create regular file";
	}
	int fd = out->fd;
	out->fd = -1;
	/* Which file a failed copy made under its name is, for its removal. */
	struct stat made;
	if (err && out->direct && !out->ino && fstat(fd, &made) == 0) {
		out->dev = made.st_dev;
		out->ino = made.st_ino;
	}
	if (close(fd) < 0 && !err) {
		err = -errno;
		what = "failed to close";
		/* A file linked in already: the failed copy leaves nothing. */
		if (out->unnamed)
			unlinkat(t->dirfd, t->base, 0);
	}
	if (!cancelled(&err) && out->temp && batched) {
		out->temp = false; /* the batch's now, reported there */
		return batch_add(s->batch, batch_dir, dev, out->name, t->base, t->path,
				 (uint64_t)st->st_size, barrier) || !kept;
	}
	if (!cancelled(&err) && out->temp) {
		err = temp_commit(s, t, out->name);
		out->temp = false;
		what = "cannot create regular file";
	}
	if (err && !(err == -ECANCELED && spmove_cancel))
		cli_error(err == -EIO && s->o->verify ? 0 : -err, "%s %s", what, quoted(t->path));
	if (!err)
		out->direct = false; /* complete: output_discard() keeps it */
	return err != 0 || !kept;
}

/* Remove what a failed copy left behind (a direct copy only while its
 * name is still that file, or when it could not be looked at, in a hidden
 * tree, where no one else makes files). */
static void output_discard(const struct target *t, struct output *out)
{
	struct stat st;
	if (out->fd >= 0 && out->direct && !out->ino && fstat(out->fd, &st) == 0) {
		out->dev = st.st_dev;
		out->ino = st.st_ino;
	}
	if (out->fd >= 0)
		close(out->fd);
	out->fd = -1;
	if (out->temp && !out->unnamed)
		unlinkat(t->dirfd, out->name, 0);
	if (out->direct && fstatat(t->dirfd, t->base, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode) &&
	    (out->ino ? st.st_dev == out->dev && st.st_ino == out->ino : t->hidden))
		unlinkat(t->dirfd, t->base, 0);
}

/* Report a failed copy of the data in GNU's words. */
static void data_error(int err, enum sp_side side, const char *src, const char *dst)
{
	if (side == SP_SIDE_INPUT)
		cli_error(err, "error reading %s", quoted(src));
	else if (side == SP_SIDE_OUTPUT)
		cli_error(err, "error writing %s", quoted(dst));
	else
		cli_error(err, "error copying %s to %s", quoted(src), quoted(dst));
}

/* The largest file a copy may find already in place (left_unchanged()):
 * past it, a read of both files costs more than a new file, and a clone
 * costs nothing. */
#define UNCHANGED_MAX (256 * 1024)
/* The files looked at before their misses count (left_unchanged()), the
 * misses to one file found that stop the looks, and how many files a look
 * then samples. */
#define UNCHANGED_TRIES 16
#define UNCHANGED_MISSES 4
#define UNCHANGED_SAMPLE 32

/* Whether this run may leave an existing file that already holds its
 * source's bytes as it is (below): a copy onto it that asks nothing of
 * it but the bytes and the attributes keeps_already() checks -- no flush
 * (--fsync), no way of writing (--reflink=always, --sparse, --method, -M,
 * --nocache), no move, no SELinux context, no report of how the bytes
 * went (--debug, a --progress display counting them). */
static bool may_leave_unchanged(const struct copier *s)
{
	const struct spmove_options *o = s->o;
	return !o->move && !(o->keep & KEEP_CONTEXT) && !o->fsync && !o->remove_destination &&
	       !o->attributes_only && !o->debug && !o->path && !s->progress &&
	       o->reflink != REFLINK_ALWAYS && o->sparse == SPARSE_AUTO &&
	       (!o->mover || (!o->mover->splice_flags && !(o->mover->flags & SP_NOCACHE)));
}

/* Whether the file left (seen, open as fd) has already the attributes
 * that -p, -a or --preserve would give it from in (st), so that leaving
 * it gives cp's result: the same mode and owner where they are kept, and
 * no extended attribute or ACL on either file where they or the mode
 * are (files with some are not compared further: they are copied).  The
 * times kept are set after.  (The links -a keeps are the walker's: a
 * file's other names are linked to its copy, left or not, after it.) */
static bool keeps_already(const struct copier *s, int in, const struct stat *st, int fd,
			  const struct stat *seen)
{
	unsigned keep = s->o->keep;
	if ((keep & KEEP_MODE) && (st->st_mode & 07777) != (seen->st_mode & 07777))
		return false;
	if ((keep & KEEP_OWNER) && (st->st_uid != seen->st_uid || st->st_gid != seen->st_gid))
		return false;
	return !(keep & (KEEP_MODE | KEEP_XATTR)) ||
	       (flistxattr(in, NULL, 0) == 0 && flistxattr(fd, NULL, 0) == 0);
}

/* Whether the existing regular file t names, seen as old, already holds
 * the bytes of in (st, its own fstat), and was therefore left as it is:
 * only its times are set, as cp's write into it (and -p) sets them.  Its
 * old bytes and its new ones are the same, so whatever happens meanwhile
 * the name holds the old file or the new one, and the file keeps its
 * inode, links and attributes as cp keeps them -- without a new file, a
 * rename and the old file's release.  Asked only of small files
 * (UNCHANGED_MAX) of the same size, told the same by their blocks (a
 * clone on XFS or btrfs) or by their bytes, old read only where its pages
 * are in memory: a file to be read from the disk is copied as usual.  It
 * is opened without following a link and must be the file seen, with the
 * ctime it had, on a local file system measured here (durable_local());
 * on a disk, none of its data may be waiting to be written (where
 * cachestat(2) cannot tell, it is replaced as usual).  False, with
 * nothing changed, on any doubt or error: the copy then goes its usual
 * way. */
static bool left_unchanged(struct copier *s, int in, const struct stat *st,
			   const struct target *t, const struct stat *old)
{
	if (!old || !S_ISREG(old->st_mode) || !S_ISREG(st->st_mode) ||
	    old->st_size != st->st_size || st->st_size > UNCHANGED_MAX ||
	    !s->same || !may_leave_unchanged(s) || std_stream(old))
		return false;
	/* Where files of the same size mostly differ (a tree of changed
	 * records), the look costs more than it saves: after a first few,
	 * only one in UNCHANGED_SAMPLE is looked at while misses are more
	 * than UNCHANGED_MISSES times the files found unchanged, in all the
	 * run's threads together. */
	struct same_tally *n = s->same;
	uint64_t missed = atomic_load_explicit(&n->missed, memory_order_relaxed);
	if (missed >= UNCHANGED_TRIES &&
	    missed > UNCHANGED_MISSES * atomic_load_explicit(&n->found, memory_order_relaxed) &&
	    (atomic_fetch_add_explicit(&n->passed, 1, memory_order_relaxed) + 1) % UNCHANGED_SAMPLE)
		return false;
	/* Reading it should not change it: no access time where we may ask
	 * (its owner, or root). */
	int noatime = s->o->root || old->st_uid == my_uid ? O_NOATIME : 0;
	int fd = openat(t->dirfd, t->base,
			O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | noatime);
	if (fd < 0)
		return false;
	/* Its modification time is the copy's, as cp's write sets it; with
	 * -p, both times are the source's, as cp -p gives them. */
	struct timespec times[2] = { { 0, UTIME_OMIT }, { 0, UTIME_NOW } };
	if (s->o->keep & KEEP_TIMES) {
		times[0] = st->st_atim;
		times[1] = st->st_mtim;
	}
	/* On a disk, a file whose data is still to be written is not left
	 * to its own writer's flush: replaced, it is made durable as any
	 * other (durable.c). */
	struct stat seen;
	bool same = fstat(fd, &seen) == 0 && unchanged(&seen, old) &&
		    durable_local(fd, seen.st_dev) && keeps_already(s, in, st, fd, &seen);
	bool in_memory = same && durable_in_memory(fd, seen.st_dev);
	same = same && (in_memory || same_all_written(fd)) &&
	       same_content(in, st, fd, &seen, in_memory) && futimens(fd, times) == 0;
	close(fd);
	atomic_fetch_add_explicit(same ? &n->found : &n->missed, 1, memory_order_relaxed);
	return same;
}

/* Copy the data of in (st; st_is_fstat: in's own fstat, not a stand-in)
 * into the file t names (dst_st when it exists).  Returns 0 or 1 after a
 * report. */
static int copy_into(struct copier *s, const struct loc *src, int in, const struct stat *st,
		     bool st_is_fstat, const struct target *t, const struct stat *dst_st)
{
	/* A symbolic link replaced (never written through) lends the copy
	 * nothing: not its owner, not its mode. */
	struct output out = { .fd = -1, .replaces = dst_st && !S_ISLNK(dst_st->st_mode) };
	/* The source is open: under a very low limit its directory makes
	 * room for the copy (in is all that is read from now on). */
	if (s->spare_dir && *s->spare_dir >= 0) {
		close(*s->spare_dir);
		*s->spare_dir = SPARE_CLOSED;
	}
	if (st_is_fstat && out.replaces &&
	    left_unchanged(s, in, st, t, t->old_fd >= 0 ? &t->old : dst_st))
		return 0;
	int err = output_open(s, t, dst_st, st->st_mode, &out);
	if (err)
		output_free_acl(&out);
	if (err == -ESTALE) {
		cli_error(0, "skipping file %s, as it was replaced while being copied",
			  quoted(t->path));
		return 1;
	}
	if (err) {
		if (!(err == -ECANCELED && spmove_cancel))
			cli_error(-err, "cannot create regular file %s", quoted(t->path));
		return 1;
	}
	struct sp_result res = { .size = sizeof(res) };
	err = copy_data(s, in, out.fd, st, (out.temp || out.direct) && st_is_fstat, t->dev, &res);
	/* After a signal (SIGPIPE, SIGXFSZ...), only the signal tells. */
	if (err && res.path == SP_PATH_CLONE)
		cli_error(-err, "failed to clone %s from %s", quoted(t->path), quoted(src->path));
	else if (err && !spmove_cancel)
		data_error(-err, res.side, src->path, t->path);
	int status = err != 0;
	if (!status && !spmove_cancel)
		status = output_finish(s, t, &out, src, in, st, dst_st);
	if (status || spmove_cancel)
		output_discard(t, &out);
	output_free_acl(&out);
	return status || spmove_cancel;
}

bool copy_dir_plain(int dirfd)
{
	char path[64];
	return getxattr(loc_proc_path(dirfd, NULL, path, sizeof(path)), ACL_DEFAULT, NULL, 0) < 0 &&
	       (errno == ENODATA || errno == EOPNOTSUPP);
}

/* Whether a user may write the existing regular file t names, as open(2)
 * for writing would check.  cp refuses one it cannot write, unless -f. */
static bool may_write(const struct copier *s, const struct target *t, const struct stat *st)
{
	return s->o->root || !S_ISREG(st->st_mode) || s->o->move ||
	       s->o->remove_destination ||
	       faccessat(t->dirfd, t->base, W_OK, AT_EACCESS) == 0 || errno != EACCES;
}

/* Open the source src, seen as st (through a link when follow), checked
 * to be that file: never following a link that was not there, never
 * waiting for a FIFO's writer that it was not.  Returns 0 with the
 * descriptor in *in (its fstat in *now), or 1 after a report (or none
 * when the run was cancelled). */
static int open_source(const struct loc *src, const struct stat *st, bool follow,
		       struct stat *now, int *in)
{
	bool fifo = S_ISFIFO(st->st_mode);
	int fd;
	/* A FIFO's open waits for a writer: as for the output's. */
	do
		fd = loc_open_checked(src, O_RDONLY | (follow ? 0 : O_NOFOLLOW) |
					      (fifo ? 0 : O_NONBLOCK), st, now);
	while (fd == -EINTR && !spmove_cancel);
	if (fd == -EINTR)
		return 1;
	if (fd == -ESTALE) {
		loc_replaced(src);
		return 1;
	}
	if (fd < 0) {
		cli_error(-fd, "cannot open %s for reading", quoted(src->path));
		return 1;
	}
	/* A device copied as data is read as usual (a regular file does not
	 * care). */
	if (!fifo && !S_ISREG(now->st_mode))
		(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	*in = fd;
	return 0;
}

int copy_regular(struct copier *s, const struct loc *src, const struct stat *src_st, bool follow,
		 const struct loc *dst, const struct stat *dst_st, bool dst_absent,
		 bool dst_link)
{
	struct target t;
	/* What the name itself is was seen: only a link is looked at again
	 * (a name emptied by a backup or a removal is free: a link someone
	 * put there since is replaced, never followed). */
	if (dst_absent || !dst_link)
		target_init(&t, dst);
	else if (resolve_output(s, dst, dst_st, &t))
		return 1;
	t.absent = dst_absent;
	if (dst_st && !may_write(s, &t, dst_st)) {
		if (!s->o->force) {
			cli_error(EACCES, "cannot create regular file %s", quoted(dst->path));
			target_close(&t);
			return 1;
		}
		dst_st = NULL; /* -f: a new file replaces it */
	}
	struct stat in_st;
	int in = -1;
	int status = open_source(src, src_st, follow, &in_st, &in);
	if (!status) {
		status = copy_into(s, src, in, &in_st, true, &t, dst_st);
		close(in);
	}
	target_close(&t);
	return status;
}

/* What the destination name of a listed file holds, looked at by the
 * worker (the walker did not): nothing (t->absent), or a regular file that
 * a copy replaces as cp would write into it, opened without following
 * (t->old_fd, looked at through it: t->old).  STEP_GO_ON for anything
 * else -- a symbolic link (cp writes through it), a directory, a special
 * file, the source itself, a file whose other links -a keeps, one the user
 * may not write -- which the walker then checks and words as usual. */
static enum step look_listed_dst(const struct copier *s, struct target *t,
				 const struct stat *src)
{
	int fd = openat(t->dirfd, t->base, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? STEP_DONE : STEP_GO_ON;
	struct statx x;
	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &x) < 0) {
		close(fd);
		return STEP_GO_ON;
	}
	stat_of_statx(&x, &t->old);
	t->old_fd = fd;
	t->old_named = true;
	t->old_mount_root = mount_root(&x);
	t->absent = false;
	if (!S_ISREG(t->old.st_mode) || same_inode(&t->old, src) ||
	    ((s->o->keep & KEEP_LINKS) && t->old.st_nlink > 1) || !may_write(s, t, &t->old))
		return STEP_GO_ON;
	return STEP_DONE;
}

enum step copy_listed_regular(struct copier *s, const struct loc *src, const struct loc *dst,
			      bool look)
{
	/* Opened without following a symbolic link or waiting for a FIFO's
	 * writer, in case it is no longer the regular file the directory
	 * listed; anything unexpected goes back to the walker's usual way,
	 * which also words any error as before. */
	int in = openat(src->dir, src->name,
			O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
	if (in < 0)
		return STEP_GO_ON;
	struct stat in_st;
	if (fstat(in, &in_st) < 0 || !S_ISREG(in_st.st_mode) ||
	    ((s->o->keep & KEEP_LINKS) && in_st.st_nlink > 1)) {
		close(in);
		return STEP_GO_ON;
	}
	struct target t;
	target_init(&t, dst);
	t.absent = true;
	enum step rc = look ? look_listed_dst(s, &t, &in_st) : STEP_DONE;
	if (rc == STEP_DONE)
		rc = copy_into(s, src, in, &in_st, true, &t, t.absent ? NULL : &t.old)
		     ? STEP_FAILED : STEP_DONE;
	close(in);
	target_close(&t);
	return rc;
}

int copy_stdin(struct copier *s, const struct loc *dst)
{
	struct stat st, dst_st;
	struct target t;
	if (fstat(STDIN_FILENO, &st) < 0) {
		cli_error(errno, "cannot fstat %s", quoted("-"));
		return 1;
	}
	bool exists = loc_stat(dst, &dst_st, true) == 0;
	if (exists && S_ISREG(st.st_mode) && same_inode(&st, &dst_st)) {
		cli_error(0, "%s and %s are the same file", quoted("-"), quoted(dst->path));
		return 1;
	}
	if (resolve_output(s, dst, exists ? &dst_st : NULL, &t))
		return 1;
	/* A stream makes a file as the shell's > would. */
	struct stat as_file = st;
	if (!S_ISREG(st.st_mode))
		as_file.st_mode = S_IFREG | 0666;
	struct loc in = { AT_FDCWD, "-", "-", 0, false, false, false, false };
	int status = copy_into(s, &in, STDIN_FILENO, &as_file, S_ISREG(st.st_mode), &t,
			       exists ? &dst_st : NULL);
	target_close(&t);
	return status;
}

/* Make a file by temp_create() (link_target, mode, dev) and put it over
 * dst, then give it src's attributes.  Returns 0 or 1 after a report
 * worded by what ("cannot create symbolic link"). */
static int make_over(struct copier *s, const struct loc *src, const struct stat *st,
		     const struct loc *dst, const char *link_target, mode_t mode,
		     const char *what)
{
	struct target t;
	char name[32], proc[64];
	struct timespec since;
	target_init(&t, dst);
	loc_now(&since);
	int r = temp_create(t.dirfd, link_target, mode, st->st_rdev, name, sizeof(name));
	/* What was made is held by an O_PATH descriptor, checked to be it,
	 * before the rename: its attributes then go through that descriptor
	 * (its magic link), never through a name another user can swap. */
	int fd = r < 0 ? -1 : openat(t.dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	int err = r < 0 ? r : fd < 0 ? -errno : 0;
	if (!err && !loc_made_here(fd, link_target ? S_IFLNK : mode & S_IFMT, &since))
		err = -ESTALE;
	if (r >= 0 && err)
		unlinkat(t.dirfd, name, 0);
	if (!err)
		err = temp_commit(s, &t, name);
	if (!err && !link_target && !keeps_mode(s) &&
	    chmod(loc_proc_path(fd, NULL, proc, sizeof(proc)), new_file_mode(s, st->st_mode)) < 0)
		err = -errno;
	int status = 1;
	if (err == -ESTALE)
		loc_replaced(dst);
	else if (err)
		cli_error(-err, "%s %s", what, quoted(dst->path));
	else
		status = attrs_copy(s, src, -1, st, fd, dst, true);
	if (fd >= 0)
		close(fd);
	return status;
}

int copy_symlink(struct copier *s, const struct loc *src, const struct loc *dst,
		 const struct stat *st)
{
	char link[PATH_MAX];
	ssize_t n = readlinkat(src->dir, src->name, link, sizeof(link) - 1);
	if (n < 0) {
		cli_error(errno, "cannot read symbolic link %s", quoted(src->path));
		return 1;
	}
	link[n] = '\0';
	return make_over(s, src, st, dst, link, 0, "cannot create symbolic link");
}

int copy_special(struct copier *s, const struct loc *src, const struct loc *dst,
		 const struct stat *st)
{
	/* Private until its owner and mode are right. */
	mode_t mode = (st->st_mode & S_IFMT) | 0600;
	return make_over(s, src, st, dst, NULL, mode,
			 S_ISFIFO(st->st_mode) ? "cannot create fifo" : "cannot create special file");
}
