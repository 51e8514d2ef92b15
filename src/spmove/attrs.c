/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove: the attributes a copy keeps -- times, ownership, extended
 * attributes (libattr), mode and ACLs (libacl) -- as cp -p/-a and mv do. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <acl/libacl.h>
#include <attr/error_context.h>
#include <attr/libattr.h>

#include "message.h"
#include "spmove.h"

#define SPECIAL_BITS (S_ISUID | S_ISGID | S_ISVTX)

bool keeps_mode(const struct copier *s)
{
	return (s->o->keep & KEEP_MODE) || s->o->move;
}

mode_t new_file_mode(const struct copier *s, mode_t src_mode)
{
	if (keeps_mode(s))
		return src_mode & 07777;
	if (s->o->no_keep_mode)
		return (S_ISDIR(src_mode) ? 0777 : 0666) & ~s->o->umask;
	return src_mode & 0777 & ~s->o->umask;
}

/* An error of libattr or libacl: errno tells which. */
static bool unsupported(int err)
{
	return err == ENOTSUP || err == ENOSYS;
}

/* libattr/libacl report through this: every error, or with -a all but
 * "not supported" by the target (cp -a keeps what it can, quietly). */
struct reporter {
	struct error_context ctx;
	bool quiet_unsupported;
	bool silent;
	bool reported;
	/* The names the libraries are given ("/proc/thread-self/fd/N/NAME")
	 * and the ones messages quote. */
	const char *src_given, *src_path, *dst_given, *dst_path;
};

static void __attribute__((format(printf, 2, 3)))
report_attr_error(struct error_context *ctx, const char *fmt, ...)
{
	struct reporter *r = (struct reporter *)ctx;
	int err = errno;
	if (r->silent || (r->quiet_unsupported && unsupported(err)))
		return;
	va_list ap;
	va_start(ap, fmt);
	cli_verror(err, fmt, ap);
	va_end(ap);
	r->reported = true;
}

static const char *quote_attr_name(struct error_context *ctx, const char *name)
{
	const struct reporter *r = (const struct reporter *)ctx;
	if (r->src_given && !strcmp(name, r->src_given))
		name = r->src_path;
	else if (r->dst_given && !strcmp(name, r->dst_given))
		name = r->dst_path;
	return quoted(name);
}

/* Leave POSIX ACLs to libacl (they go with the mode) and what
 * /etc/xattr.conf says to skip. */
static int copy_this_xattr(const char *name, struct error_context *ctx)
{
	return attr_copy_action(name, ctx) == 0;
}

/* Whether fd was opened with O_PATH: a FIFO, socket, device or symbolic
 * link spmove made, a directory it may only search.  Such a descriptor
 * takes fchownat(AT_EMPTY_PATH), fstat and the /proc/thread-self/fd/N
 * magic link, which the kernel resolves to that very object (never
 * following it further), for everything else. */
static bool path_fd(int fd)
{
	int flags = fd >= 0 ? fcntl(fd, F_GETFL) : -1;
	return flags >= 0 && (flags & O_PATH);
}

/* Change dst's (fd's, when fd >= 0) owner; never follows a symbolic link. */
static int change_owner(int fd, bool opath, const struct loc *dst, uid_t uid, gid_t gid)
{
	if (fd >= 0 && opath)
		return fchownat(fd, "", uid, gid, AT_EMPTY_PATH);
	return fd >= 0 ? fchown(fd, uid, gid)
		       : fchownat(dst->dir, dst->name, uid, gid, AT_SYMLINK_NOFOLLOW);
}

/* Change the mode of fd (O_PATH or not) or else of the entry dst. */
static int change_mode(int fd, bool opath, const struct loc *dst, mode_t mode)
{
	char proc[64];
	if (fd >= 0 && opath)
		return chmod(loc_proc_path(fd, NULL, proc, sizeof(proc)), mode);
	return fd >= 0 ? fchmod(fd, mode) : fchmodat(dst->dir, dst->name, mode, AT_SYMLINK_NOFOLLOW);
}

/* Set the times of fd (O_PATH or not) or else of the entry dst. */
static int change_times(int fd, bool opath, const struct loc *dst, const struct timespec ts[2])
{
	char proc[64];
	if (fd >= 0 && opath)
		return utimensat(AT_FDCWD, loc_proc_path(fd, NULL, proc, sizeof(proc)), ts, 0);
	return fd >= 0 ? futimens(fd, ts) : utimensat(dst->dir, dst->name, ts, AT_SYMLINK_NOFOLLOW);
}

/* Copy the extended attributes of the object from to the object to (both
 * /proc/thread-self/fd/N magic links, followed to the objects themselves), as
 * attr_copy_file() would, which takes names and never follows the last
 * one.  Returns 0 or -1 after a report through r. */
static int copy_xattrs_by_path(const char *from, const char *to, struct error_context *ctx)
{
	ssize_t n = listxattr(from, NULL, 0);
	if (n <= 0) {
		if (n < 0 && !unsupported(errno))
			ctx->error(ctx, "listing attributes of %s", ctx->quote(ctx, from));
		return n < 0 && !unsupported(errno) ? -1 : 0;
	}
	char *names = malloc((size_t)n + 1), *value = NULL;
	n = names ? listxattr(from, names, (size_t)n) : -1;
	int rc = n < 0 ? -1 : 0;
	for (ssize_t i = 0; i < n; i += (ssize_t)strlen(names + i) + 1) {
		const char *name = names + i;
		if (!copy_this_xattr(name, ctx))
			continue;
		ssize_t size = getxattr(from, name, NULL, 0);
		char *bigger = size >= 0 ? realloc(value, (size_t)size + 1) : NULL;
		if (bigger)
			value = bigger;
		if (size < 0 || !bigger || (size = getxattr(from, name, value, (size_t)size)) < 0) {
			ctx->error(ctx, "getting attribute %s of %s", name, ctx->quote(ctx, from));
			rc = -1;
			continue;
		}
		if (setxattr(to, name, value, (size_t)size, 0) < 0) {
			ctx->error(ctx, "setting attribute %s for %s", name, ctx->quote(ctx, to));
			rc = -1;
		}
	}
	free(value);
	free(names);
	return rc;
}

/* Keep ownership.  Returns 1 when kept, 0 when it could not be and need
 * not be (a user cannot give files away: the group is kept if it can be),
 * -1 after a reported error. */
static int keep_owner(const struct copier *s, int fd, bool opath, const struct loc *dst,
		      const struct stat *st)
{
	if (change_owner(fd, opath, dst, st->st_uid, st->st_gid) == 0)
		return 1;
	if ((errno == EPERM || errno == EINVAL) && !s->o->root) {
		(void)!change_owner(fd, opath, dst, (uid_t)-1, st->st_gid);
		return 0;
	}
	cli_error(errno, "failed to preserve ownership for %s", quoted(dst->path));
	return s->o->require_keep ? -1 : 0;
}

/* Keep mode and ACLs (mode bits without the special ones when ownership was
 * not kept).  Returns 0 or 1 after a reported error that must fail. */
static int keep_mode(const struct copier *s, const struct loc *src, int src_fd, bool src_opath,
		     mode_t mode_type, mode_t mode, int fd, bool opath, const struct loc *dst,
		     struct reporter *r)
{
	int rc = 0;
	/* A directory's default ACL goes only by name: the name of the very
	 * file, through /proc (as for what an O_PATH descriptor holds). */
	bool by_fd = src_fd >= 0 && fd >= 0 && !S_ISDIR(mode_type) && !src_opath && !opath;
	char src_name[PATH_MAX], dst_name[PATH_MAX];
	if (!by_fd) {
		r->src_given = src_fd >= 0 ? loc_proc_path(src_fd, NULL, src_name, sizeof(src_name))
				: loc_proc_path(src->dir, src->name, src_name, sizeof(src_name));
		r->dst_given = fd >= 0 ? loc_proc_path(fd, NULL, dst_name, sizeof(dst_name))
			       : loc_proc_path(dst->dir, dst->name, dst_name, sizeof(dst_name));
	}
	if ((by_fd ? perm_copy_fd(src->path, src_fd, dst->path, fd, &r->ctx)
		   : perm_copy_file(r->src_given, r->dst_given, &r->ctx)) != 0) {
		rc = s->o->require_keep;
		if (!r->reported)
			cli_error(errno, "preserving permissions for %s", quoted(dst->path));
	}
	struct stat now;
	if ((fd >= 0 ? fstat(fd, &now) : loc_stat(dst, &now, false)) == 0 &&
	    (now.st_mode & 07777) == mode)
		return rc;
	if (change_mode(fd, opath, dst, mode) < 0) {
		cli_error(errno, "preserving permissions for %s", quoted(dst->path));
		return s->o->require_keep;
	}
	return rc;
}

/* The set-ID bits of mode that a copy owned by someone other than the
 * source's owner must lose, as chown(2) would clear them: the
 * set-user-ID bit (and set-group-ID) when the owner differs, the
 * set-group-ID bit when the group does.  Directories keep theirs (they
 * only say how new entries are made).  -v says so. */
static mode_t foreign_set_id(const struct copier *s, const struct stat *st, mode_t mode, int fd,
			     const struct loc *dst)
{
	struct stat now;
	if (!(mode & (S_ISUID | S_ISGID)) || S_ISDIR(st->st_mode) ||
	    (fd >= 0 ? fstat(fd, &now) : loc_stat(dst, &now, false)) < 0)
		return mode;
	mode_t drop = now.st_uid != st->st_uid ? S_ISUID | S_ISGID
		      : now.st_gid != st->st_gid ? S_ISGID : 0;
	if ((mode & drop) && s->o->verbose)
		printf("cleared the set-ID bits of %s: its owner is not the source's\n",
		       quoted(dst->path));
	return mode & ~drop;
}

static int attrs_copy_from(const struct copier *s, const struct loc *src, int src_fd,
			   const struct stat *st, int fd, const struct loc *dst, bool new_file);

int attrs_copy(const struct copier *s, const struct loc *src, int src_fd, const struct stat *st,
	       int fd, const struct loc *dst, bool new_file)
{
	/* The source's attributes are read from the very file copied: by a
	 * descriptor of it, opened here if need be and checked to be the
	 * file seen (only a link is never followed; through one, the file
	 * seen is what it names). */
	int own = -1;
	if (src_fd < 0 && strcmp(src->path, "-")) {
		struct stat now;
		/* A regular file is opened for reading (attrs_copy_from()
		 * takes its descriptor to be a real one), anything else O_PATH. */
		int how = S_ISREG(st->st_mode) ? O_RDONLY | O_NONBLOCK : O_PATH;
		own = loc_open_checked(src, how | (S_ISLNK(st->st_mode) ? O_NOFOLLOW : 0), st, &now);
		if (own == -ESTALE) {
			loc_replaced(src);
			return 1;
		}
	}
	int rc = attrs_copy_from(s, src, own >= 0 ? own : src_fd, st, fd, dst, new_file);
	if (own >= 0)
		close(own);
	return rc;
}

static int attrs_copy_from(const struct copier *s, const struct loc *src, int src_fd,
			   const struct stat *st, int fd, const struct loc *dst, bool new_file)
{
	const struct spmove_options *o = s->o;
	bool move = o->move, link = S_ISLNK(st->st_mode);
	/* Only what is not a regular file may be held by O_PATH descriptors
	 * (a regular file's copy is always open for writing): no fcntl(2)
	 * per copied file. */
	bool opath = !S_ISREG(st->st_mode) && path_fd(fd);
	bool src_opath = !S_ISREG(st->st_mode) && path_fd(src_fd);
	/* mv reports every failure to keep an extended attribute, and goes on;
	 * cp --preserve=xattr reports and fails; cp --preserve=all reports
	 * all but "not supported"; cp -a none. */
	bool demanded = move || o->require_xattr;
	struct reporter r = { .ctx = { .error = report_attr_error, .quote = quote_attr_name },
			      .quiet_unsupported = !demanded, .silent = !demanded && o->quiet_xattr,
			      .src_path = src->path, .dst_path = dst->path };
	mode_t mode = st->st_mode & 07777;
	if ((o->keep & KEEP_TIMES) || move) {
		struct timespec ts[2] = { st->st_atim, st->st_mtim };
		if (change_times(fd, opath, dst, ts) < 0) {
			cli_error(errno, "preserving times for %s", quoted(dst->path));
			if (o->require_keep)
				return 1;
		}
	}
	if ((o->keep & KEEP_OWNER) || move) {
		int kept = keep_owner(s, fd, opath, dst, st);
		if (kept < 0)
			return 1;
		if (kept == 0)
			mode &= ~(mode_t)SPECIAL_BITS;
	} else if (keeps_mode(s)) {
		mode = foreign_set_id(s, st, mode, fd, dst);
	}
	/* After the owner: chown() drops file capabilities. */
	if ((o->keep & KEEP_XATTR) || move) {
		int rc;
		if (src_fd >= 0 && fd >= 0 && !src_opath && !opath) {
			rc = attr_copy_fd(src->path, src_fd, dst->path, fd, copy_this_xattr, &r.ctx);
		} else if (src_fd >= 0 && fd >= 0) {
			/* Through the magic links of the very objects. */
			char from[64], to[64];
			r.src_given = loc_proc_path(src_fd, NULL, from, sizeof(from));
			r.dst_given = loc_proc_path(fd, NULL, to, sizeof(to));
			rc = copy_xattrs_by_path(r.src_given, r.dst_given, &r.ctx);
			r.src_given = r.dst_given = NULL;
		} else {
			/* libattr's names are never followed at their end: the
			 * entries themselves, reached through their directories. */
			char from[PATH_MAX], to[PATH_MAX];
			r.src_given = loc_proc_path(src->dir, src->name, from, sizeof(from));
			r.dst_given = loc_proc_path(dst->dir, dst->name, to, sizeof(to));
			rc = attr_copy_file(r.src_given, r.dst_given, copy_this_xattr, &r.ctx);
			r.src_given = r.dst_given = NULL;
		}
		if (rc != 0 && o->require_xattr && !move)
			return 1;
	}
	if (link)
		return 0;
	if (keeps_mode(s))
		return keep_mode(s, src, src_fd, src_opath, st->st_mode, mode, fd, opath, dst, &r);
	if (o->no_keep_mode && new_file && fd >= 0 &&
	    change_mode(fd, opath, dst, new_file_mode(s, st->st_mode)) < 0) {
		cli_error(errno, "preserving permissions for %s", quoted(dst->path));
		return 1;
	}
	return 0;
}
