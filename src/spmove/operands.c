/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove: the operands -- SRC DST, SRC... DIR, -t DIR SRC... or -T SRC
 * DST -- each copied (or moved) as cp and mv do; a move across file
 * systems removes a source only once all of it is copied. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "message.h"
#include "path.h"
#include "spmove.h"
#include "usage.h"

/* Whether path ends in a slash. */
static bool trailing_slash(const char *path)
{
	size_t len = strlen(path);
	return len > 0 && path[len - 1] == '/';
}

/* Whether this is cp -bf FILE FILE, which copies FILE to its backup. */
static bool copy_onto_backup(const struct spmove *s, const char *src, const struct loc *dst)
{
	struct stat st;
	return !s->c.o->move && s->c.o->force && s->c.o->backup != BACKUP_NONE &&
	       !strcmp(src, dst->path) && loc_stat(dst, &st, true) == 0 && S_ISREG(st.st_mode);
}

/* Copy src to the name of its backup, without a backup of that.
 * Returns 0 or 1.  The copy runs in a context of its own, whose
 * description is the run's with no backup: s->c.o, shared read-only with
 * the workers' contexts, is never pointed elsewhere.  A regular file at
 * the top goes to no worker (pool_takes() needs a tree), so nothing keeps
 * the context's address; what the copy changed in it (methods used,
 * --debug's facts, the sets of names) is the walker's again after. */
static int copy_to_backup(struct spmove *s, const struct loc *src)
{
	struct loc backup = *src;
	char *path = backup_path(s->c.o, src, &backup.name);
	if (!path) {
		cli_error(errno, "cannot backup %s", quoted(src->path));
		return 1;
	}
	backup.path = path;
	struct spmove_options o = *s->c.o;
	o.backup = BACKUP_NONE;
	o.backup_copy = true;
	struct spmove here = *s;
	here.c.o = &o;
	struct top top = { src->path, path };
	struct outcome out = { 0 };
	int status = copy_entry(&here, src, &backup, &top, NULL, &out, NULL);
	here.c.o = s->c.o;
	*s = here;
	free(path);
	return status;
}

/* Copy or move the operand src to dst (with its directory, when already
 * open).  Returns 0 or 1. */
static int operand_at(struct spmove *s, const struct loc *src, const struct loc *dst)
{
	if (s->c.o->dash_stdin && !strcmp(src->path, "-") && !s->c.o->move)
		return copy_stdin(&s->c, dst);
	struct stat st;
	/* "SRC DST/" names a directory: a file cannot go there. */
	if (trailing_slash(dst->path) && !s->c.o->move && loc_stat(src, &st, true) == 0 &&
	    !S_ISDIR(st.st_mode) && loc_stat(dst, &st, false) == -ENOENT) {
		cli_error(ENOTDIR, "cannot create regular file %s", quoted(dst->path));
		return 1;
	}
	if (copy_onto_backup(s, src->path, dst))
		return copy_to_backup(s, src);
	struct top top = { src->path, dst->path };
	struct outcome out = { 0 };
	int status = copy_entry(s, src, dst, &top, NULL, &out, &st);
	if (out.into_self)
		return 1;
	if (status || !s->c.o->move || out.keep_source || spmove_cancel)
		return status;
	/* The directory that names the copy is durable before anything of
	 * the source goes (its own entries were synced as they were made). */
	int err = loc_sync_dir(dst->dir);
	if (err) {
		cli_error(-err, "cannot sync %s", quoted(dst->path));
		return 1;
	}
	return remove_source(s, src, &st);
}

/* The directory of dst_path cannot be opened (-err): report it as cp and
 * mv do when they come to make the file there, after -v's line.
 * Returns 1. */
static int no_dest_dir(const struct spmove *s, const struct loc *src, const char *dst_path,
		       int err)
{
	struct stat st;
	bool follow = s->c.o->deref == DEREF_ALWAYS || s->c.o->deref == DEREF_ARGS;
	bool dash = s->c.o->dash_stdin && !strcmp(src->path, "-");
	int src_err = !dash ? loc_stat(src, &st, follow && !s->c.o->move)
		      : fstat(STDIN_FILENO, &st) < 0 ? -errno : 0;
	if (src_err) {
		cli_error(-src_err, "cannot stat %s", quoted(src->path));
		return 1;
	}
	if (s->c.o->move) {
		cli_error(-err, "cannot move %s to %s", quoted(src->path), quoted(dst_path));
		return 1;
	}
	if (S_ISDIR(st.st_mode) && !s->c.o->recursive) {
		cli_error(0, "-r not specified; omitting directory %s", quoted(src->path));
		return 1;
	}
	if (s->c.o->verbose && !S_ISDIR(st.st_mode))
		verbose_pair("", src->path, dst_path, NULL);
	cli_error(-err, S_ISDIR(st.st_mode) ? "cannot create directory %s"
		       : "cannot create regular file %s", quoted(dst_path));
	return 1;
}

/* Copy or move one operand src to dst, dst_dir: dst's directory when
 * open, else -1.  Returns 0 or 1. */
static int do_operand(struct spmove *s, const char *src_path, const char *dst_path, int dst_dir,
		      const char *dst_name, bool dst_absent)
{
	struct loc_buf src_buf, dst_buf;
	struct loc src, dst = { dst_dir, dst_name, dst_path, 0, false, false, false, false };
	int err = loc_operand(src_path, &src_buf, &src);
	if (err) {
		cli_error(-err, "cannot stat %s", quoted(src_path));
		return 1;
	}
	/* mv SRC/: rename(2) would refuse a symbolic link there (ENOTDIR),
	 * and so does a move (at its one look, copy_entry()'s). */
	src.no_link = s->c.o->move;
	if (dst_dir < 0 && (err = loc_operand(dst_path, &dst_buf, &dst))) {
		int status = no_dest_dir(s, &src, dst_path, err);
		loc_close(&src);
		return status;
	}
	dst.seen_absent = dst_dir < 0 && dst_absent;
	int status = operand_at(s, &src, &dst);
	loc_close(&src);
	if (dst_dir < 0)
		loc_close(&dst);
	return status;
}

/* A directory cp --parents made, to be given its source's attributes once
 * the operand is copied. */
struct made_dir {
	int parent;       /* the destination directory it is in */
	char *name;       /* its entry name there */
	char *path;       /* its whole name, for messages */
	int src_parent;   /* the source directory it copies ... */
	char *src_name;   /* ... and the name there */
	char *src_path;
	struct stat st;   /* the source directory's status */
	bool existed;     /* there already: only the attributes -p keeps */
	int fd;           /* it (O_PATH): its attributes go through this ... */
	int src_fd;       /* ... and come from this (O_PATH) */
};

/* Give the directories made for --parents their sources' attributes (as
 * -p, -a, --preserve say; otherwise the source's mode less the umask, or
 * with --no-preserve=mode the default), innermost first, and free them.
 * Returns 0 or 1. */
static int parents_protect(struct spmove *s, struct made_dir *made, int n)
{
	int status = 0;
	while (n-- > 0) {
		struct made_dir *m = &made[n];
		/* Through the descriptors of the very directories, never by
		 * a name another user could have swapped meanwhile. */
		struct loc src = { m->src_fd, ".", m->src_path, 0, false, false, false, false };
		struct loc dst = { m->fd, ".", m->path, 0, false, false, false, false };
		mode_t mode = s->c.o->no_keep_mode ? 0777 : m->st.st_mode & 07777;
		char proc[64];
		if (!m->name || !m->path || !m->src_name || !m->src_path) {
			cli_error(ENOMEM, "cannot copy %s", quoted(m->src_path ? m->src_path : "?"));
			status = 1;
		} else if (!m->existed &&
			   chmod(loc_proc_path(m->fd, NULL, proc, sizeof(proc)), mode & ~s->c.o->umask) < 0) {
			cli_error(errno, "setting permissions for %s", quoted(m->path));
			status = 1;
		} else {
			status |= attrs_copy(&s->c, &src, m->src_fd, &m->st, m->fd, &dst, !m->existed);
		}
		free(m->name);
		free(m->path);
		free(m->src_name);
		free(m->src_path);
	}
	return status;
}

/* cp --parents: src copied to dir/src, the directories of its name made in
 * dir (dirfd) one component at a time, never through a symbolic link, as
 * the source's directories are (reached through descriptors too).
 * Returns 0 or 1. */
static int parents_operand(struct spmove *s, const char *src, const char *dir, int dirfd)
{
	enum { MAX_DEPTH = 256 };
	struct made_dir made[MAX_DEPTH];
	int n_made = 0, fds[MAX_DEPTH * 2], n_fds = 0, status = 1;
	char dst[PATH_MAX], name[PATH_MAX];
	if (path_join(dst, sizeof(dst), dir, src) ||
	    snprintf(name, sizeof(name), "%s", src) >= (int)sizeof(name)) {
		cli_error(ENAMETOOLONG, "cannot copy %s", quoted(src));
		return 1;
	}
	size_t dst_base = strlen(dst) - strlen(src);
	int cur = dirfd, src_cur = AT_FDCWD;
	if (name[0] == '/') {
		src_cur = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (src_cur < 0)
			goto fail_errno;
		fds[n_fds++] = src_cur;
	}
	char *p = name;
	for (;;) {
		while (*p == '/')
			p++;
		char *end = strchr(p, '/');
		char *rest = end;
		while (rest && *rest == '/')
			rest++;
		if (!end || !*rest)
			break; /* p is the last component */
		*end = '\0';
		char prefix[PATH_MAX];
		snprintf(prefix, sizeof(prefix), "%.*s", (int)(end - name), src);
		char dst_prefix[PATH_MAX];
		snprintf(dst_prefix, sizeof(dst_prefix), "%.*s", (int)(dst_base + (size_t)(end - name)),
			 dst);
		if (n_fds + 2 > MAX_DEPTH * 2) {
			cli_error(ENAMETOOLONG, "cannot copy %s", quoted(src));
			goto out;
		}
		int src_next = openat(src_cur, p, O_PATH | O_DIRECTORY | O_CLOEXEC);
		struct stat src_st;
		if (src_next < 0 || fstat(src_next, &src_st) < 0) {
			cli_error(errno, "failed to get attributes of %s", quoted(prefix));
			goto out;
		}
		fds[n_fds++] = src_next;
		int next = openat(cur, p, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		bool keep = s->c.o->keep & (KEEP_MODE | KEEP_OWNER | KEEP_TIMES);
		if (next >= 0 && keep) {
			/* cp -p --parents gives existing directories the
			 * source's attributes too. */
			made[n_made++] = (struct made_dir){ .parent = cur, .name = strdup(p),
							    .path = strdup(dst_prefix),
							    .src_parent = src_cur,
							    .src_name = strdup(p),
							    .src_path = strdup(prefix), .st = src_st,
							    .existed = true, .fd = next,
							    .src_fd = src_next };
		} else if (next < 0 && errno == ENOENT) {
			mode_t mode = s->c.o->no_keep_mode ? 0777 : src_st.st_mode & 07777;
			struct timespec since;
			loc_now(&since);
			if (mkdirat(cur, p, mode | S_IRWXU) < 0) {
				cli_error(errno, "cannot make directory %s", quoted(dst_prefix));
				goto out;
			}
			if (s->c.o->verbose)
				printf("%s -> %s\n", prefix, dst_prefix);
			/* It must be the directory just made (not one another
			 * user swapped in) before anything goes into it. */
			next = openat(cur, p, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (next >= 0 && !loc_made_here(next, S_IFDIR, &since)) {
				close(next);
				cli_error(0, "skipping file %s, as it was replaced while being copied",
					  quoted(dst_prefix));
				goto out;
			}
			if (next >= 0)
				made[n_made++] = (struct made_dir){ .parent = cur, .name = strdup(p),
								    .path = strdup(dst_prefix),
								    .src_parent = src_cur,
								    .src_name = strdup(p),
								    .src_path = strdup(prefix),
								    .st = src_st, .fd = next,
								    .src_fd = src_next };
		}
		if (next < 0) {
			if (errno == ENOTDIR || errno == ELOOP)
				cli_error(0, "%s exists but is not a directory", quoted(dst_prefix));
			else
				cli_error(errno, "cannot access %s", quoted(dst_prefix));
			goto out;
		}
		fds[n_fds++] = next;
		cur = next;
		src_cur = src_next;
		p = rest;
	}
	status = do_operand(s, src, dst, cur, dst + dst_base + (size_t)(p - name), false);
out:
	status |= parents_protect(s, made, n_made);
	while (n_fds > 0)
		close(fds[--n_fds]);
	return status;
fail_errno:
	cli_error(errno, "cannot copy %s", quoted(src));
	return 1;
}

/* Run every operand into the directory dir, opened once.  Returns 0 or 1. */
static int into_directory(struct spmove *s, char **srcs, int n, const char *dir)
{
	int dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		cli_error(errno, "target directory %s", quoted(dir));
		return 1;
	}
	int status = 0;
	for (int i = 0; i < n && !spmove_cancel; i++) {
		char buf[PATH_MAX], dst[PATH_MAX];
		const char *base;
		if (s->c.o->dash_stdin && !strcmp(srcs[i], "-") && !s->c.o->move) {
			cli_error(0, "cannot copy standard input into directory %s", quoted(dir));
			status = 1;
			continue;
		}
		if (s->c.o->parents) {
			status |= parents_operand(s, srcs[i], dir, dirfd);
			continue;
		}
		int err = path_split(srcs[i], buf, sizeof(buf), NULL, &base);
		if (!err)
			err = path_join(dst, sizeof(dst), dir, base);
		if (err) {
			cli_error(-err, "cannot copy %s", quoted(srcs[i]));
			status = 1;
			continue;
		}
		status |= do_operand(s, srcs[i], dst, dirfd, dst + strlen(dst) - strlen(base), false);
	}
	close(dirfd);
	return status;
}

/* Whether path names a directory (following symbolic links); when not,
 * errno says why (ENOTDIR for something else). */
static bool is_dir(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return false;
	errno = ENOTDIR;
	return S_ISDIR(st.st_mode);
}

int run_operands(struct spmove *s, char **args, int n, const char *target_dir)
{
	if (target_dir && s->c.o->no_target_directory) {
		cli_error(0, "cannot combine --target-directory (-t) and --no-target-directory (-T)");
		return 1;
	}
	if (n < 1)
		return cli_usage_message("missing file operand");
	if (target_dir) {
		if (!is_dir(target_dir)) {
			cli_error(errno, "target directory %s", quoted(target_dir));
			return 1;
		}
		return into_directory(s, args, n, target_dir);
	}
	if (n < 2)
		return cli_usage_message("missing destination file operand after %s",
					 quoted(args[0]));
	if (s->c.o->no_target_directory && s->c.o->parents)
		return cli_usage_message("with --parents, the destination must be a directory");
	if (s->c.o->no_target_directory) {
		if (n > 2)
			return cli_usage_message("extra operand %s", quoted(args[2]));
		return do_operand(s, args[0], args[1], -1, NULL, false);
	}
	const char *dst = args[n - 1];
	if (is_dir(dst))
		return into_directory(s, args, n - 1, dst);
	/* Nothing there at this first look: a file found there later was put
	 * there meanwhile (stat_dest() refuses it). */
	bool absent = errno == ENOENT;
	if (s->c.o->parents)
		return cli_usage_message("with --parents, the destination must be a directory");
	if (n > 2) {
		cli_error(errno, "target %s", quoted(dst));
		return 1;
	}
	return do_operand(s, args[0], dst, -1, NULL, absent);
}
