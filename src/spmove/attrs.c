/* spmove: the attributes a copy keeps -- times, ownership, extended
 * attributes (libattr), mode and ACLs (libacl) -- as cp -p/-a and mv do. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <acl/libacl.h>
#include <attr/error_context.h>
#include <attr/libattr.h>

#include "message.h"
#include "spmove.h"

#define SPECIAL_BITS (S_ISUID | S_ISGID | S_ISVTX)

bool keeps_mode(const struct spmove *s)
{
	return (s->o->keep & KEEP_MODE) || s->o->move;
}

mode_t new_file_mode(const struct spmove *s, mode_t src_mode)
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
	/* The names the libraries are given ("/proc/self/fd/N/NAME") and the
	 * ones messages quote. */
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

/* Change dst's (fd's, when fd >= 0) owner; never follows a symbolic link. */
static int change_owner(int fd, const struct loc *dst, uid_t uid, gid_t gid)
{
	return fd >= 0 ? fchown(fd, uid, gid)
		       : fchownat(dst->dir, dst->name, uid, gid, AT_SYMLINK_NOFOLLOW);
}

/* Keep ownership.  Returns 1 when kept, 0 when it could not be and need
 * not be (a user cannot give files away: the group is kept if it can be),
 * -1 after a reported error. */
static int keep_owner(const struct spmove *s, int fd, const struct loc *dst, const struct stat *st)
{
	if (change_owner(fd, dst, st->st_uid, st->st_gid) == 0)
		return 1;
	if ((errno == EPERM || errno == EINVAL) && !s->o->root) {
		(void)!change_owner(fd, dst, (uid_t)-1, st->st_gid);
		return 0;
	}
	cli_error(errno, "failed to preserve ownership for %s", quoted(dst->path));
	return s->o->require_keep ? -1 : 0;
}

/* Keep mode and ACLs (mode bits without the special ones when ownership was
 * not kept).  Returns 0 or 1 after a reported error that must fail. */
static int keep_mode(const struct spmove *s, const struct loc *src, int src_fd,
		     mode_t mode_type, mode_t mode, int fd, const struct loc *dst,
		     struct reporter *r)
{
	int rc = 0;
	/* A directory's default ACL goes only by name: the name of the very
	 * file, through /proc. */
	bool by_fd = src_fd >= 0 && fd >= 0 && !S_ISDIR(mode_type);
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
	if ((fd >= 0 ? fchmod(fd, mode)
		     : fchmodat(dst->dir, dst->name, mode, AT_SYMLINK_NOFOLLOW)) < 0) {
		cli_error(errno, "preserving permissions for %s", quoted(dst->path));
		return s->o->require_keep;
	}
	return rc;
}

int attrs_copy(const struct spmove *s, const struct loc *src, int src_fd, const struct stat *st,
	       int fd, const struct loc *dst, bool new_file)
{
	const struct spmove_options *o = s->o;
	bool move = o->move, link = S_ISLNK(st->st_mode);
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
		if ((fd >= 0 ? futimens(fd, ts)
			     : utimensat(dst->dir, dst->name, ts, AT_SYMLINK_NOFOLLOW)) < 0) {
			cli_error(errno, "preserving times for %s", quoted(dst->path));
			if (o->require_keep)
				return 1;
		}
	}
	if ((o->keep & KEEP_OWNER) || move) {
		int kept = keep_owner(s, fd, dst, st);
		if (kept < 0)
			return 1;
		if (kept == 0)
			mode &= ~(mode_t)SPECIAL_BITS;
	}
	/* After the owner: chown() drops file capabilities. */
	if ((o->keep & KEEP_XATTR) || move) {
		int rc;
		if (src_fd >= 0 && fd >= 0) {
			rc = attr_copy_fd(src->path, src_fd, dst->path, fd, copy_this_xattr, &r.ctx);
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
		return keep_mode(s, src, src_fd, st->st_mode, mode, fd, dst, &r);
	if (o->no_keep_mode && new_file && fd >= 0 && fchmod(fd, new_file_mode(s, st->st_mode)) < 0) {
		cli_error(errno, "preserving permissions for %s", quoted(dst->path));
		return 1;
	}
	return 0;
}
