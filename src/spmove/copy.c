/* spmove: copy one file (or symbolic link) into place.  The data goes to a
 * temporary file in DST's directory that replaces DST only when it is
 * complete (and durable, when asked or when the source is to be removed). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "path.h"
#include "spmove.h"

/* DST split into an open directory and a name in it. */
struct target {
	int dirfd;
	const char *base;
	char path[PATH_MAX];
	bool exists;       /* the name exists (a dangling symlink counts) */
	struct stat st;    /* what it names (lstat) */
};

/* Open dst's directory.  Returns 0 or an errno value. */
static int target_open(const char *dst, struct target *t)
{
	const char *dir;
	int err = path_split(dst, t->path, sizeof(t->path), &dir, &t->base);
	if (err)
		return err;
	t->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->dirfd < 0)
		return errno;
	t->exists = fstatat(t->dirfd, t->base, &t->st, AT_SYMLINK_NOFOLLOW) == 0;
	if (!t->exists && errno != ENOENT) {
		err = errno;
		close(t->dirfd);
		return err;
	}
	return 0;
}

/* Create an empty temporary file (or, given link_target, a symbolic link to
 * it) under a fresh name in t's directory; the name goes to name.  Returns
 * the file's fd (0 for a link) or a negative errno. */
static int temp_create(const struct target *t, const char *link_target, char *name,
		       size_t size)
{
	for (int tries = 0; tries < 100; tries++) {
		uint32_t r;
		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = (uint32_t)getpid() * 2654435761u + (uint32_t)tries;
		snprintf(name, size, ".spmove-%08x", r);
		int fd = link_target ? symlinkat(link_target, t->dirfd, name)
				     : openat(t->dirfd, name, O_RDWR | O_CREAT | O_EXCL |
					      O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

mode_t new_file_mode(const struct spmove *s, mode_t src_mode)
{
	if (s->o->preserve_mode)
		return src_mode & 07777;
	return src_mode & 0777 & ~s->umask;
}

int preserve_attributes(const struct spmove *s, int fd, int dirfd, const char *name,
			const struct stat *st)
{
	int err = 0;
	if (s->o->preserve_owner) {
		int r = fd >= 0 ? fchown(fd, st->st_uid, st->st_gid)
				: fchownat(dirfd, name, st->st_uid, st->st_gid, AT_SYMLINK_NOFOLLOW);
		/* Like cp -p: someone else's ownership is kept only by root. */
		if (r < 0 && errno != EPERM)
			err = errno;
	}
	if (fd >= 0 && !err && s->o->preserve_mode && fchmod(fd, st->st_mode & 07777) < 0)
		err = errno;
	if (!err && s->o->preserve_times) {
		struct timespec ts[2] = { st->st_atim, st->st_mtim };
		int r = fd >= 0 ? futimens(fd, ts)
				: utimensat(dirfd, name, ts, AT_SYMLINK_NOFOLLOW);
		if (r < 0)
			err = errno;
	}
	return err;
}

/* Whether an existing t may be replaced (-n and -i).  Reports nothing. */
static bool may_replace(const struct spmove *s, const struct target *t, const char *dst)
{
	if (!t->exists || s->o->overwrite == OVERWRITE_YES)
		return true;
	return s->o->overwrite == OVERWRITE_ASK && ask_overwrite(dst);
}

/* Where the bytes go: DST itself (--in-place, or a DST that is not a
 * regular file, such as /dev/null) or a temporary file. */
struct output {
	int fd;
	bool temp;
	bool special;  /* DST is a device or FIFO: written, never read back */
	char name[32];
};

/* Open the output for a source with mode src_mode.  Returns 0 or an errno value. */
static int output_open(const struct spmove *s, const struct target *t, mode_t src_mode,
		       struct output *out)
{
	bool special = t->exists && !S_ISREG(t->st.st_mode) && !S_ISLNK(t->st.st_mode);
	out->special = special;
	out->temp = !special && !s->o->in_place;
	if (out->temp) {
		out->fd = temp_create(t, NULL, out->name, sizeof(out->name));
		return out->fd < 0 ? -out->fd : 0;
	}
	int flags = O_TRUNC | O_CLOEXEC | O_NOCTTY | (special ? O_WRONLY : O_RDWR | O_CREAT);
	out->fd = openat(t->dirfd, t->base, flags, new_file_mode(s, src_mode));
	if (out->fd < 0 && t->exists && !special && s->o->overwrite == OVERWRITE_YES &&
	    unlinkat(t->dirfd, t->base, 0) == 0)
		out->fd = openat(t->dirfd, t->base, flags, new_file_mode(s, src_mode));
	return out->fd < 0 ? errno : 0;
}

/* Give the finished output its mode and -p attributes.  Returns 0 or an errno. */
static int output_attributes(const struct spmove *s, const struct target *t,
			     const struct output *out, const struct stat *src_st)
{
	if (!out->temp)
		return s->o->preserve_mode || s->o->preserve_owner || s->o->preserve_times
			       ? preserve_attributes(s, out->fd, -1, NULL, src_st) : 0;
	/* A stream (standard input) makes a file as the shell's > would. */
	mode_t src_mode = S_ISREG(src_st->st_mode) ? src_st->st_mode : 0666;
	mode_t mode = new_file_mode(s, src_mode);
	if (t->exists && S_ISREG(t->st.st_mode) && !s->o->preserve_mode) {
		/* cp keeps an existing DST's mode and owner. */
		mode = t->st.st_mode & 07777;
		if (geteuid() == 0 && fchown(out->fd, t->st.st_uid, t->st.st_gid) < 0)
			return errno;
	}
	if (fchmod(out->fd, mode) < 0)
		return errno;
	return preserve_attributes(s, out->fd, -1, NULL, src_st);
}

/* Whether the run was interrupted by a signal; sets *err to ECANCELED then. */
static bool cancelled(int *err)
{
	if (spmove_cancel && !*err)
		*err = ECANCELED;
	return *err != 0;
}

/* Make the output complete and durable, verify it, and put it in place.
 * Returns 0 or an errno value; *what names the step that failed. */
static int output_finish(struct spmove *s, const struct target *t, struct output *out,
			 int in, const struct stat *src_st, const char **what)
{
	int err = output_attributes(s, t, out, src_st);
	*what = "cannot set attributes";
	bool durable = s->o->fsync || s->o->remove_source;
	if (!err && durable && fsync(out->fd) < 0) {
		err = errno;
		*what = "cannot sync";
	}
	if (!cancelled(&err) && s->o->verify && S_ISREG(src_st->st_mode) && !out->special) {
		int r = sp_compare(in, 0, out->fd, 0, (uint64_t)src_st->st_size);
		err = r < 0 ? -r : r ? EIO : 0;
		*what = r > 0 ? "verification failed: the copy differs" : "cannot verify";
	}
	int fd = out->fd;
	out->fd = -1;
	if (close(fd) < 0 && !err) {
		err = errno;
		*what = "cannot close";
	}
	if (cancelled(&err) || !out->temp)
		return err;
	if (renameat(t->dirfd, out->name, t->dirfd, t->base) < 0) {
		*what = "cannot rename into place";
		return errno;
	}
	out->temp = false;
	if (durable && fsync(t->dirfd) < 0) {
		*what = "cannot sync directory";
		return errno;
	}
	return 0;
}

/* Remove what a failed copy left behind. */
static void output_discard(const struct target *t, struct output *out)
{
	if (out->fd >= 0)
		close(out->fd);
	out->fd = -1;
	if (out->temp)
		unlinkat(t->dirfd, out->name, 0);
}

/* Resolve a DST that is a symbolic link to the file it names, as cp writes
 * through it.  Returns 0 or an errno value (ENOENT for a dangling link). */
static int follow_target(struct target *t, const char *dst)
{
	char *real = realpath(dst, NULL);
	if (!real)
		return errno;
	close(t->dirfd);
	int err = target_open(real, t);
	free(real);
	if (!err)
		t->exists = fstatat(t->dirfd, t->base, &t->st, 0) == 0;
	return err;
}

/* Copy the symbolic link src (whose lstat is st) to t, replacing what is
 * there in one rename.  Returns 0 or 1 after a reported error. */
static int copy_symlink(struct spmove *s, const char *src, const char *dst,
			const struct target *t, const struct stat *st)
{
	char link[PATH_MAX], name[32];
	ssize_t n = readlink(src, link, sizeof(link) - 1);
	if (n < 0) {
		report(src, dst, errno, "cannot read symbolic link");
		return 1;
	}
	link[n] = '\0';
	int r = temp_create(t, link, name, sizeof(name));
	int err = r < 0 ? -r : preserve_attributes(s, -1, t->dirfd, name, st);
	if (!err && renameat(t->dirfd, name, t->dirfd, t->base) < 0)
		err = errno;
	if (err) {
		if (r >= 0)
			unlinkat(t->dirfd, name, 0);
		report(src, dst, err, "cannot create symbolic link");
		return 1;
	}
	if (s->o->remove_source && unlink(src) < 0) {
		report(src, dst, errno, "copied, but cannot remove the source");
		return 1;
	}
	return 0;
}

/* Move src by rename(2) when on the same filesystem.  Returns 0 when done,
 * EXDEV when a copy is needed, or another errno value. */
static int try_rename(const struct spmove *s, const char *src, const struct target *t)
{
	if (renameat(AT_FDCWD, src, t->dirfd, t->base) < 0)
		return errno;
	if (s->o->fsync && fsync(t->dirfd) < 0)
		return errno;
	return 0;
}

/* The copy of a regular file (or any readable source) src to target t.
 * Returns 0 or 1 after a reported error. */
static int copy_data_into(struct spmove *s, const char *src, const char *dst,
			  const struct target *t, bool is_stdin)
{
	int in = is_stdin ? STDIN_FILENO : open(src, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	if (in < 0 || fstat(in, &st) < 0) {
		report(src, dst, errno, "cannot open");
		if (in > STDIN_FILENO)
			close(in);
		return 1;
	}
	struct output out = { .fd = -1 };
	const char *what = "cannot create";
	int err = output_open(s, t, st.st_mode, &out);
	enum sp_side side = SP_SIDE_OUTPUT;
	if (!err) {
		int r = copy_data(s, in, out.fd, &st, &side);
		err = -r;
		what = side == SP_SIDE_OUTPUT ? "write error"
		       : side == SP_SIDE_INPUT ? "read error"
					       : "cannot copy";
	}
	if (!cancelled(&err))
		err = output_finish(s, t, &out, in, &st, &what);
	if (err)
		output_discard(t, &out);
	if (!is_stdin)
		close(in);
	if (err == ECANCELED && spmove_cancel)
		return 1; /* interrupted: main() reports by dying of the signal */
	if (err) {
		report(src, dst, err, "%s", what);
		return 1;
	}
	if (s->o->remove_source && !is_stdin && unlink(src) < 0) {
		report(src, dst, errno, "copied, but cannot remove the source");
		return 1;
	}
	return 0;
}

int copy_file(struct spmove *s, const char *src, const char *dst, const struct stat *st)
{
	bool is_stdin = !st;
	struct target t;
	int err = target_open(dst, &t);
	if (!err && t.exists && S_ISLNK(t.st.st_mode) && !(st && S_ISLNK(st->st_mode))) {
		err = follow_target(&t, dst);
		if (err == ENOENT) {
			report(src, dst, 0, "not writing through dangling symlink");
			close(t.dirfd);
			return 1;
		}
	}
	if (err) {
		report(src, dst, err, "cannot open the destination's directory");
		return 1;
	}
	int status = 0;
	struct stat in_st;
	if (is_stdin && fstat(STDIN_FILENO, &in_st) == 0)
		st = &in_st;
	if (t.exists && st && st->st_dev == t.st.st_dev && st->st_ino == t.st.st_ino) {
		report(src, dst, 0, "are the same file");
		status = 1;
	} else if (t.exists && S_ISDIR(t.st.st_mode)) {
		report(src, dst, 0, "cannot overwrite directory with non-directory");
		status = 1;
	} else if (!may_replace(s, &t, dst)) {
		status = 0;
	} else if (s->o->remove_source && !is_stdin &&
		   (err = try_rename(s, src, &t)) != EXDEV) {
		if (err)
			report(src, dst, err, "cannot move");
		status = err != 0;
	} else if (st && S_ISLNK(st->st_mode)) {
		status = copy_symlink(s, src, dst, &t, st);
	} else {
		status = copy_data_into(s, src, dst, &t, is_stdin);
	}
	close(t.dirfd);
	return status;
}
