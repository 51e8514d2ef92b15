/* spmove: make one file at its destination -- a regular file's data, a
 * symbolic link, a special file.  Each is made under a temporary name in
 * the destination's directory and renamed over it only when complete (and
 * durable, when asked or when the source is to be removed): whatever
 * happens, the destination holds the old file or the new one. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include <acl/libacl.h>

#include "message.h"
#include "path.h"
#include "spmove.h"

/* A destination directory held open between the files copy_children()
 * puts into it: opening and closing it for each file were two of the
 * system calls that made spmove -r slower than cp -r on small files. */
struct dir_memo {
	int fd;
	bool no_clone;     /* FICLONE from no_clone_src into it was refused */
	dev_t no_clone_src;
	bool no_tmpfile;   /* its file system refused O_TMPFILE */
	char path[PATH_MAX];
};

void dir_memo_forget(struct spmove *s)
{
	if (!s->dir)
		return;
	close(s->dir->fd);
	free(s->dir);
	s->dir = NULL;
}

/* Where a new file goes: a directory and a name in it. */
struct target {
	int dirfd;
	struct dir_memo *memo; /* dirfd is the memo's (not to be closed), or NULL */
	const char *base;
	bool absent;          /* nothing has the name (as last looked) */
	char path[PATH_MAX];  /* the name the file gets, as opened */
	char buf[PATH_MAX];   /* path taken apart */
};

/* Open the directory of path, or take it from the memo of the directory
 * being filled (and remember it there while copy_children() runs).
 * Returns 0 or an errno value. */
static int target_open(struct spmove *s, const char *path, struct target *t)
{
	const char *dir;
	if (strlen(path) >= sizeof(t->path))
		return ENAMETOOLONG;
	strcpy(t->path, path);
	t->absent = false;
	int err = path_split(path, t->buf, sizeof(t->buf), &dir, &t->base);
	if (err)
		return err;
	t->memo = NULL;
	if (s->dir && !strcmp(s->dir->path, dir)) {
		t->memo = s->dir;
		t->dirfd = s->dir->fd;
		return 0;
	}
	t->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->dirfd < 0)
		return errno;
	if (!s->tree_depth || strlen(dir) >= sizeof(s->dir->path))
		return 0;
	dir_memo_forget(s);
	s->dir = calloc(1, sizeof(*s->dir));
	if (s->dir) {
		s->dir->fd = t->dirfd;
		strcpy(s->dir->path, dir);
		t->memo = s->dir;
	}
	return 0;
}

/* Let go of t's directory (the memo keeps its own). */
static void target_close(const struct target *t)
{
	if (!t->memo)
		close(t->dirfd);
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
 * Make a temporary name in t's directory: a symbolic link to link_target,
 * or with mode an empty regular file (S_IFREG and its permissions, which
 * the umask and a default ACL cut as open(2)'s), a FIFO, socket or device
 * (dev).  The name goes to name.  Returns the file's fd (0 for the others)
 * or a negative errno.
 */
static int temp_create(const struct target *t, const char *link_target, mode_t mode, dev_t dev,
		       char *name, size_t size)
{
	for (int tries = 0; tries < 100; tries++) {
		temp_name(name, size);
		int fd = link_target ? symlinkat(link_target, t->dirfd, name)
			 : !S_ISREG(mode) ? mknodat(t->dirfd, name, mode, dev)
					  : openat(t->dirfd, name, O_RDWR | O_CREAT | O_EXCL |
						   O_NOFOLLOW | O_CLOEXEC, mode & 07777);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* Make the directory entries of a new file durable when asked. */
static int dir_sync(const struct spmove *s, const struct target *t)
{
	if ((s->o->fsync || s->o->remove_source) && fsync(t->dirfd) < 0)
		return errno;
	return 0;
}

/* Put the temporary name over t's name (and make that durable when asked).
 * Returns 0 or an errno value; the temporary is gone either way. */
static int temp_commit(const struct spmove *s, const struct target *t, const char *name)
{
	if (renameat(t->dirfd, name, t->dirfd, t->base) < 0) {
		int err = errno;
		unlinkat(t->dirfd, name, 0);
		return err;
	}
	return dir_sync(s, t);
}

/* Give fd, a file made by O_TMPFILE, the name name in t's directory.
 * linkat(2) by the descriptor itself needs CAP_DAC_READ_SEARCH before
 * Linux 6.10, through /proc none; the one that failed is not tried again.
 * Returns 0 or an errno value (EEXIST: the name is taken). */
static int link_unnamed(const struct target *t, int fd, const char *name)
{
	static _Atomic bool by_fd_refused;
	if (!by_fd_refused) {
		if (linkat(fd, "", t->dirfd, name, AT_EMPTY_PATH) == 0)
			return 0;
		if (errno != ENOENT)
			return errno;
		by_fd_refused = true;
	}
	char proc[64];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	return linkat(AT_FDCWD, proc, t->dirfd, name, AT_SYMLINK_FOLLOW) == 0 ? 0 : errno;
}

/* Name fd, a complete file made by O_TMPFILE, as t says: linked to the
 * free name, or if another has taken it meanwhile, linked to a temporary
 * name and renamed over it (a copy replaces what it finds, in one step).
 * Returns 0 or an errno value. */
static int unnamed_commit(const struct spmove *s, const struct target *t, int fd)
{
	int err = link_unnamed(t, fd, t->base);
	if (!err)
		return dir_sync(s, t);
	if (err != EEXIST)
		return err;
	char name[32];
	for (int tries = 0; tries < 100; tries++) {
		temp_name(name, sizeof(name));
		err = link_unnamed(t, fd, name);
		if (err != EEXIST)
			return err ? err : temp_commit(s, t, name);
	}
	return EEXIST;
}

/* Whether the run was interrupted by a signal; sets *err to ECANCELED then. */
static bool cancelled(int *err)
{
	if (spmove_cancel && !*err)
		*err = ECANCELED;
	return *err != 0;
}

/* The file a copy writes: dst itself, or for a copy (not a move) into a
 * symbolic link, the file the link names -- also when it does not exist
 * yet, if POSIXLY_CORRECT is set (else that is refused, as cp does).
 * Returns 0, or 1 after a report. */
static int resolve_output(const struct spmove *s, const char *dst, bool exists,
			  char *out, size_t size)
{
	struct stat st;
	/* A link to a pipe or device (/dev/stdout) is opened, not resolved. */
	if (s->o->remove_source || s->o->remove_destination || lstat(dst, &st) < 0 ||
	    !S_ISLNK(st.st_mode) || (exists && stat(dst, &st) == 0 && !S_ISREG(st.st_mode))) {
		snprintf(out, size, "%s", dst);
		return 0;
	}
	char *real = realpath(dst, NULL);
	/* cp -f onto a symbolic link loop replaces the link. */
	if (!real && errno == ELOOP && s->o->force) {
		snprintf(out, size, "%s", dst);
		return 0;
	}
	if (real && exists) {
		snprintf(out, size, "%s", real);
		free(real);
		return 0;
	}
	free(real);
	if (!getenv("POSIXLY_CORRECT")) {
		cli_error(0, "not writing through dangling symlink %s", quoted(dst));
		return 1;
	}
	char link[PATH_MAX], buf[PATH_MAX];
	const char *dir, *base;
	ssize_t n = readlink(dst, link, sizeof(link) - 1);
	if (n < 0 || path_split(dst, buf, sizeof(buf), &dir, &base)) {
		cli_error(errno, "cannot create regular file %s", quoted(dst));
		return 1;
	}
	link[n] = '\0';
	if (link[0] == '/' || path_join(out, size, dir, link))
		snprintf(out, size, "%s", link);
	return 0;
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
	char name[32];
};

/* Open the output for a source with mode src_mode; dst_st is the existing
 * file's.  Returns 0 or an errno value. */
static int output_open(const struct spmove *s, const struct target *t,
		       const struct stat *dst_st, mode_t src_mode, struct output *out)
{
	/* A device or FIFO is written into (cp); a move replaces it. */
	out->special = dst_st && !s->o->remove_source &&
		       (S_ISCHR(dst_st->st_mode) || S_ISBLK(dst_st->st_mode) ||
			S_ISFIFO(dst_st->st_mode) || S_ISSOCK(dst_st->st_mode));
	out->temp = !out->special && !s->o->in_place;
	if (out->temp) {
		/* A plain copy into a new name is made with the mode it keeps
		 * (cp's: the source's, cut by the umask or a default ACL): a
		 * fchmod(2) per file fewer.  Anything else stays private (0600)
		 * until its owner, attributes and mode are right. */
		out->moded = !out->replaces && !s->o->keep && !s->o->no_keep_mode &&
			     !keeps_mode(s);
		mode_t mode = out->moded ? new_file_mode(s, src_mode) : 0600;
		/* For a free name, a file without a name until it is complete:
		 * one directory change (the link) instead of two (create and
		 * rename), and nothing to remove if the copy fails. */
		if (t->absent && !(t->memo && t->memo->no_tmpfile)) {
			out->fd = openat(t->dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, mode);
			if (out->fd >= 0) {
				out->unnamed = true;
				return 0;
			}
			if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
				return errno;
			if (t->memo)
				t->memo->no_tmpfile = true;
		}
		out->fd = temp_create(t, NULL, S_IFREG | mode, 0, out->name, sizeof(out->name));
		return out->fd < 0 ? -out->fd : 0;
	}
	int flags = O_TRUNC | O_CLOEXEC | O_NOCTTY | (out->special ? O_WRONLY : O_RDWR | O_CREAT);
	out->fd = openat(t->dirfd, t->base, flags, new_file_mode(s, src_mode));
	if (out->fd < 0 && dst_st && !out->special && s->o->force &&
	    unlinkat(t->dirfd, t->base, 0) == 0) {
		out->replaces = false;
		out->fd = openat(t->dirfd, t->base, flags, new_file_mode(s, src_mode));
	}
	return out->fd < 0 ? errno : 0;
}

/* Give a copy that replaces an existing file that file's mode, ACL and
 * (as root) owner, as cp does when it writes into it.  Returns 0 or errno. */
static int keep_replaced(const struct spmove *s, const struct target *t,
			 const struct output *out, const struct stat *old)
{
	if (s->root && fchown(out->fd, old->st_uid, old->st_gid) < 0)
		return errno;
	char temp[PATH_MAX];
	if (snprintf(temp, sizeof(temp), "/proc/self/fd/%d", out->fd) < (int)sizeof(temp) &&
	    perm_copy_file(t->path, temp, NULL) == 0)
		return 0;
	return fchmod(out->fd, old->st_mode & 07777) < 0 ? errno : 0;
}

/* Make the output complete: attributes, durability, the check of
 * --verify, and the rename into place.  Returns 0, or 1 after a report. */
static int output_finish(struct spmove *s, const struct target *t, struct output *out,
			 const char *src, int in, const struct stat *st,
			 const struct stat *dst_st, const char *dst)
{
	int err = 0;
	const char *what = "setting permissions for";
	/* As cp: attributes that cannot be kept fail the copy, not undo it.
	 * Extended attributes go first, while the file is still writable. */
	bool kept = out->special || !attrs_copy(s, src, in, st, out->fd, dst, !out->replaces);
	if (out->temp && out->replaces && !keeps_mode(s))
		err = keep_replaced(s, t, out, dst_st);
	else if (out->temp && !out->moded && !keeps_mode(s) &&
		 fchmod(out->fd, new_file_mode(s, st->st_mode)) < 0)
		err = errno;
	bool durable = s->o->fsync || s->o->remove_source;
	bool flush = !durable && out->temp && !t->absent && durable_before_replace(out->fd);
	if (!err && (durable ? fsync(out->fd) : flush ? fdatasync(out->fd) : 0) < 0) {
		err = errno;
		what = "cannot sync";
	}
	if (!cancelled(&err) && s->o->verify && S_ISREG(st->st_mode) && !out->special) {
		int r = sp_compare(in, 0, out->fd, 0, (uint64_t)st->st_size);
		err = r < 0 ? -r : r ? EIO : 0;
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
	if (close(fd) < 0 && !err) {
		err = errno;
		what = "failed to close";
		/* A file linked in already: the failed copy leaves nothing. */
		if (out->unnamed)
			unlinkat(t->dirfd, t->base, 0);
	}
	if (!cancelled(&err) && out->temp) {
		err = temp_commit(s, t, out->name);
		out->temp = false;
		what = "cannot create regular file";
	}
	if (err && !(err == ECANCELED && spmove_cancel))
		cli_error(err == EIO && s->o->verify ? 0 : err, "%s %s", what, quoted(dst));
	return err != 0 || !kept;
}

/* Remove what a failed copy left behind. */
static void output_discard(const struct target *t, struct output *out)
{
	if (out->fd >= 0)
		close(out->fd);
	out->fd = -1;
	if (out->temp && !out->unnamed)
		unlinkat(t->dirfd, out->name, 0);
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

/* Clone in's data into out, a new file in t's directory (--reflink).
 * With --reflink=auto, a directory whose file system refused clones from
 * in's (EOPNOTSUPP, EXDEV) is not asked again.  Returns 1 when cloned, 0
 * when the data must be copied, -1 after --reflink=always's report. */
static int try_clone(const struct spmove *s, const struct target *t, int in, int out,
		     const struct stat *st, const char *src, const char *dst)
{
	if (s->o->reflink == REFLINK_NEVER || !S_ISREG(st->st_mode))
		return 0;
	struct dir_memo *memo = t->memo;
	if (s->o->reflink != REFLINK_ALWAYS && memo && memo->no_clone &&
	    memo->no_clone_src == st->st_dev)
		return 0;
	if (clone_data(in, out) == 0)
		return 1;
	if (memo && (errno == EOPNOTSUPP || errno == EXDEV)) {
		memo->no_clone = true;
		memo->no_clone_src = st->st_dev;
	}
	if (s->o->reflink != REFLINK_ALWAYS)
		return 0;
	cli_error(errno, "failed to clone %s from %s", quoted(dst), quoted(src));
	return -1;
}

/* Copy the data of in (st; st_is_fstat: in's own fstat, not a stand-in)
 * into the file t names (dst_st when it exists), as dst in messages.
 * Returns 0 or 1 after a report. */
static int copy_into(struct spmove *s, const char *src, int in, const struct stat *st,
		     bool st_is_fstat, const struct target *t, const struct stat *dst_st,
		     const char *dst)
{
	struct output out = { .fd = -1, .replaces = dst_st != NULL };
	int err = output_open(s, t, dst_st, st->st_mode, &out);
	if (err) {
		cli_error(err, "cannot create regular file %s", quoted(dst));
		return 1;
	}
	int cloned = try_clone(s, t, in, out.fd, st, src, dst);
	int status = cloned < 0;
	if (!cloned) {
		enum sp_side side = SP_SIDE_OUTPUT;
		err = -copy_data(s, in, out.fd, st, out.temp && st_is_fstat, &side);
		/* After a signal (SIGPIPE, SIGXFSZ...), only the signal tells. */
		if (err && !spmove_cancel)
			data_error(err, side, src, dst);
		status = err != 0;
	}
	if (!status && !spmove_cancel)
		status = output_finish(s, t, &out, src, in, st, dst_st, dst);
	if (status || spmove_cancel)
		output_discard(t, &out);
	return status || spmove_cancel;
}

/* Whether a user may write the existing regular file path, as open(2) for
 * writing would check.  cp refuses one it cannot write, unless -f. */
static bool may_write(const struct spmove *s, const char *path, const struct stat *st)
{
	return s->root || !S_ISREG(st->st_mode) || s->o->remove_source ||
	       s->o->remove_destination || faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0 ||
	       errno != EACCES;
}

/* Copy src, open as in (in_st its fstat), to path (dst in messages; dst_st
 * and dst_absent as for copy_regular()).  Returns 0 or 1 after a report. */
static int copy_opened(struct spmove *s, const char *src, int in, const struct stat *in_st,
		       const char *path, const struct stat *dst_st, bool dst_absent,
		       const char *dst)
{
	struct target t;
	int err = target_open(s, path, &t);
	if (err) {
		cli_error(err, "cannot create regular file %s", quoted(dst));
		return 1;
	}
	t.absent = dst_absent;
	int status = copy_into(s, src, in, in_st, true, &t, dst_st, dst);
	target_close(&t);
	return status;
}

int copy_regular(struct spmove *s, const char *src, const char *dst,
		 const struct stat *dst_st, bool dst_absent)
{
	char path[PATH_MAX];
	if (dst_absent)
		snprintf(path, sizeof(path), "%s", dst);
	else if (resolve_output(s, dst, dst_st != NULL, path, sizeof(path)))
		return 1;
	if (dst_st && !may_write(s, path, dst_st)) {
		if (!s->o->force) {
			cli_error(EACCES, "cannot create regular file %s", quoted(dst));
			return 1;
		}
		dst_st = NULL; /* -f: a new file replaces it */
	}
	int in = open(src, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (in < 0) {
		cli_error(errno, "cannot open %s for reading", quoted(src));
		return 1;
	}
	struct stat in_st;
	int status = 1;
	if (fstat(in, &in_st) < 0)
		cli_error(errno, "cannot fstat %s", quoted(src));
	else
		status = copy_opened(s, src, in, &in_st, path, dst_st, dst_absent, dst);
	close(in);
	return status;
}

int copy_new_regular(struct spmove *s, const char *src, const char *dst)
{
	/* Opened without following a symbolic link or waiting for a FIFO's
	 * writer, in case it is no longer the regular file the directory
	 * listed; anything unexpected goes back to the walker's usual way,
	 * which also words any error as before. */
	int in = open(src, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
	if (in < 0)
		return COPY_LOOK_AGAIN;
	struct stat in_st;
	if (fstat(in, &in_st) < 0 || !S_ISREG(in_st.st_mode) ||
	    ((s->o->keep & KEEP_LINKS) && in_st.st_nlink > 1)) {
		close(in);
		return COPY_LOOK_AGAIN;
	}
	int status = copy_opened(s, src, in, &in_st, dst, NULL, true, dst);
	close(in);
	return status;
}

int copy_stdin(struct spmove *s, const char *dst)
{
	struct stat st, dst_st;
	struct target t;
	if (fstat(STDIN_FILENO, &st) < 0) {
		cli_error(errno, "cannot fstat %s", quoted("-"));
		return 1;
	}
	bool exists = stat(dst, &dst_st) == 0;
	if (exists && S_ISREG(st.st_mode) && st.st_dev == dst_st.st_dev &&
	    st.st_ino == dst_st.st_ino) {
		cli_error(0, "%s and %s are the same file", quoted("-"), quoted(dst));
		return 1;
	}
	char path[PATH_MAX];
	if (resolve_output(s, dst, exists, path, sizeof(path)))
		return 1;
	int err = target_open(s, path, &t);
	if (err) {
		cli_error(err, "cannot create regular file %s", quoted(dst));
		return 1;
	}
	/* A stream makes a file as the shell's > would. */
	struct stat as_file = st;
	if (!S_ISREG(st.st_mode))
		as_file.st_mode = S_IFREG | 0666;
	int status = copy_into(s, "-", STDIN_FILENO, &as_file, S_ISREG(st.st_mode), &t,
			       exists ? &dst_st : NULL, dst);
	target_close(&t);
	return status;
}

/* Make a file by temp_create() (link_target, mode, dev) and put it over
 * dst, then give it src's attributes.  Returns 0 or 1 after a report
 * worded by what ("cannot create symbolic link"). */
static int make_over(struct spmove *s, const char *src, const struct stat *st, const char *dst,
		     const char *link_target, mode_t mode, const char *what)
{
	struct target t;
	char name[32];
	int err = target_open(s, dst, &t);
	if (!err) {
		int r = temp_create(&t, link_target, mode, st->st_rdev, name, sizeof(name));
		err = r < 0 ? -r : temp_commit(s, &t, name);
		target_close(&t);
	}
	if (!err && !link_target && !keeps_mode(s) &&
	    fchmodat(AT_FDCWD, dst, new_file_mode(s, st->st_mode), 0) < 0)
		err = errno;
	if (err) {
		cli_error(err, "%s %s", what, quoted(dst));
		return 1;
	}
	return attrs_copy(s, src, -1, st, -1, dst, true);
}

int copy_symlink(struct spmove *s, const char *src, const char *dst, const struct stat *st)
{
	char link[PATH_MAX];
	ssize_t n = readlink(src, link, sizeof(link) - 1);
	if (n < 0) {
		cli_error(errno, "cannot read symbolic link %s", quoted(src));
		return 1;
	}
	link[n] = '\0';
	return make_over(s, src, st, dst, link, 0, "cannot create symbolic link");
}

int copy_special(struct spmove *s, const char *src, const char *dst, const struct stat *st)
{
	/* Private until its owner and mode are right. */
	mode_t mode = (st->st_mode & S_IFMT) | 0600;
	return make_over(s, src, st, dst, NULL, mode,
			 S_ISFIFO(st->st_mode) ? "cannot create fifo" : "cannot create special file");
}
