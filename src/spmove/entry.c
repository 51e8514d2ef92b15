/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove: one source to one destination, as cp and mv decide it -- the
 * same file, an existing destination (-n, -i, -u, backups), one made
 * earlier in the run, hard links kept, a rename for a move -- and then the
 * copy of a file, link, tree or special file. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "message.h"
#include "path.h"
#include "quote.h"
#include "rmtree.h"
#include "spmove.h"

/* What is known of the destination before anything is changed. */
struct dest {
	bool exists;
	bool followed;    /* st is of what a symbolic link dst names */
	bool link;        /* the name itself is a symbolic link */
	bool absent;      /* no entry at all has the name, not even a link */
	struct stat st;
	char *backup;     /* where it went, once backed up (malloc'd) */
};

/* Whether the source's symbolic links are followed at this level. */
static bool follows(const struct spmove *s, bool command_line)
{
	return s->c.o->deref == DEREF_ALWAYS || (command_line && s->c.o->deref == DEREF_ARGS);
}

/* Whether the paths a and b name the same directory entry (a decision
 * about names remembered as paths: nothing is done through them). */
static bool same_entry(const char *a, const char *b)
{
	char buf_a[PATH_MAX], buf_b[PATH_MAX];
	const char *dir_a, *base_a, *dir_b, *base_b;
	struct stat st_a, st_b;
	if (path_split(a, buf_a, sizeof(buf_a), &dir_a, &base_a) ||
	    path_split(b, buf_b, sizeof(buf_b), &dir_b, &base_b) || strcmp(base_a, base_b))
		return false;
	return stat(dir_a, &st_a) == 0 && stat(dir_b, &st_b) == 0 &&
	       st_a.st_dev == st_b.st_dev && st_a.st_ino == st_b.st_ino;
}

/* Whether a and b are the same directory entry: one name in one directory. */
static bool same_loc(const struct loc *a, const struct loc *b)
{
	size_t la = strcspn(a->name, "/"), lb = strcspn(b->name, "/");
	struct stat da, db;
	if (la != lb || strncmp(a->name, b->name, la))
		return false;
	if (a->dir == b->dir)
		return true;
	return fstatat(a->dir, ".", &da, 0) == 0 && fstatat(b->dir, ".", &db, 0) == 0 &&
	       same_inode(&da, &db);
}

#define same_file same_inode

/*
 * Whether copying src (st) onto the existing dst (dst_st) may go on
 * although they may be one file: cp's and mv's rules, which refuse
 * whatever would destroy the data ("'s' and 'f' are the same file") and
 * allow what only replaces a name.
 */
static bool same_file_ok(const struct spmove *s, const struct loc *src, const struct stat *st,
			 const struct loc *dst, const struct stat *dst_st)
{
	const struct spmove_options *o = s->c.o;
	bool move = o->move, backup = o->backup != BACKUP_NONE;
	struct stat src_l, dst_l;
	bool same = same_file(st, dst_st);
	struct stat dst_link;
	if (o->symbolic_link && loc_stat(dst, &dst_link, false) == 0 && S_ISLNK(dst_link.st_mode))
		return true; /* cp -s makes a link again */
	if (o->deref == DEREF_NEVER || move) {
		src_l = *st;
		dst_l = *dst_st;
		if (S_ISLNK(st->st_mode) && S_ISLNK(dst_st->st_mode)) {
			bool one_name = same_loc(src, dst);
			if (!one_name && (backup || !same))
				return true;
			return !one_name && !move;
		}
	} else {
		if (!same)
			return true;
		if (loc_stat(src, &src_l, false) || loc_stat(dst, &dst_l, false))
			return true;
		if (S_ISLNK(src_l.st_mode) && S_ISLNK(dst_l.st_mode) && o->remove_destination)
			return true;
	}
	bool same_link = same_file(&src_l, &dst_l);
	if (backup) {
		if (!same_link)
			return move || o->deref == DEREF_NEVER || !S_ISLNK(src_l.st_mode) ||
			       S_ISLNK(dst_l.st_mode);
		return !same_loc(src, dst);
	}
	if (move || o->remove_destination) {
		/* The destination name is replaced, not written through. */
		if (S_ISLNK(dst_l.st_mode))
			return true;
		if (same_link && dst_l.st_nlink > 1 && !same_loc(src, dst))
			return !move;
	}
	if (!S_ISLNK(src_l.st_mode) && !S_ISLNK(dst_l.st_mode) && !same_file(&src_l, &dst_l))
		return true;
	/* A symlink moved onto one of several hard links of its target:
	 * the data stays reachable through the link it names. */
	if (move && S_ISLNK(st->st_mode) && dst_l.st_nlink > 1) {
		char *real = realpath(src->path, NULL);
		bool ok = real && !same_entry(real, dst->path);
		free(real);
		if (real)
			return ok;
	}
	if (o->deref == DEREF_NEVER || move) {
		struct stat a, b;
		if (loc_stat(src, &a, true) || loc_stat(dst, &b, true))
			return true;
		return o->hard_link || !same_file(&a, &b); /* cp -dl: a link fails or replaces */
	}
	return false;
}

/* cp -l onto a link of the source already, where cp does nothing: dst is
 * the source file, or with -P is not a symbolic link and is the file both
 * names lead to. */
static bool already_linked(const struct spmove *s, const struct loc *src, const struct stat *st,
			   const struct loc *dst, const struct stat *dst_st)
{
	struct stat a, b, l;
	if (same_file(st, dst_st))
		return true;
	return s->c.o->deref == DEREF_NEVER && loc_stat(dst, &l, false) == 0 && !S_ISLNK(l.st_mode) &&
	       loc_stat(src, &a, true) == 0 && loc_stat(dst, &b, true) == 0 && same_file(&a, &b);
}

/* Whether dst (mode) may be written without asking: a symlink, root, or
 * write permission. */
static bool writable(const struct spmove *s, const struct loc *dst, mode_t mode)
{
	return S_ISLNK(mode) || s->c.o->root || faccessat(dst->dir, dst->name, W_OK, AT_EACCESS) == 0;
}

/* ls -l's letters for mode, without the type. */
static void mode_letters(mode_t mode, char out[10])
{
	static const char rwx[] = "rwxrwxrwx";
	for (int i = 0; i < 9; i++)
		out[i] = mode & (0400 >> i) ? rwx[i] : '-';
	if (mode & S_ISUID)
		out[2] = mode & S_IXUSR ? 's' : 'S';
	if (mode & S_ISGID)
		out[5] = mode & S_IXGRP ? 's' : 'S';
	if (mode & S_ISVTX)
		out[8] = mode & S_IXOTH ? 't' : 'T';
	out[9] = '\0';
}

/* Ask whether dst (st) may be replaced, as cp -i and mv -i word it. */
static bool overwrite_ok(const struct spmove *s, const struct loc *dst, const struct stat *st)
{
	if (writable(s, dst, st->st_mode))
		return ask("overwrite %s?", quoted(dst->path));
	char letters[10];
	mode_letters(st->st_mode, letters);
	bool replaces = s->c.o->move || s->c.o->remove_destination || s->c.o->force;
	return ask(replaces ? "replace %s, overriding mode %04o (%s)?"
			    : "unwritable %s (mode %04o, %s); try anyway?",
		   quoted(dst->path), (unsigned)(st->st_mode & 07777), letters);
}

/* Whether an existing dst is left alone: -n, --update=none[-fail], a "no"
 * to -i (mv also asks for a file it cannot write when on a terminal). */
static bool skip_existing(const struct spmove *s, const struct loc *dst, const struct stat *src_st,
			  const struct stat *dst_st)
{
	const struct spmove_options *o = s->c.o;
	if (o->update == UPDATE_NONE || o->update == UPDATE_NONE_FAIL)
		return true;
	if (o->move)
		return (o->ask == ASK_USER ||
			(o->ask == ASK_UNSET && isatty(STDIN_FILENO) &&
			 !writable(s, dst, dst_st->st_mode))) &&
		       !overwrite_ok(s, dst, dst_st);
	return !S_ISDIR(src_st->st_mode) && o->ask == ASK_USER && !overwrite_ok(s, dst, dst_st);
}

/* Whether --update=older leaves dst (not older than the source) alone. */
static bool not_older(const struct spmove *s, const struct stat *st, const struct stat *dst_st)
{
	if (s->c.o->update != UPDATE_OLDER || S_ISDIR(st->st_mode))
		return false;
	if (dst_st->st_mtim.tv_sec != st->st_mtim.tv_sec)
		return dst_st->st_mtim.tv_sec > st->st_mtim.tv_sec;
	return dst_st->st_mtim.tv_nsec >= st->st_mtim.tv_nsec;
}

/* Stat dst as cp/mv look at it: through a symbolic link only when a
 * regular file is copied into it.  lstat(2) first, stat(2) only for a
 * link: a name that does not exist (as in a new tree) costs one call and
 * is known not to be a dangling link.  Returns 0, or 1 after a report. */
static int stat_dest(const struct spmove *s, const struct stat *st, const struct loc *dst,
		     struct dest *d)
{
	const struct spmove_options *o = s->c.o;
	bool no_follow = !S_ISREG(st->st_mode) || o->move || o->backup != BACKUP_NONE ||
			 o->remove_destination || o->hard_link || o->symbolic_link ||
			 o->backup_copy;
	*d = (struct dest){ 0 };
	int err = loc_stat(dst, &d->st, false);
	d->link = !err && S_ISLNK(d->st.st_mode);
	/* A file where the command line's first look found none was put
	 * there by someone else meanwhile: not written into, not replaced. */
	if (!err && dst->seen_absent && !d->link) {
		loc_replaced(dst);
		return 1;
	}
	if (err) {
		d->absent = err == -ENOENT;
		if (d->absent)
			return 0;
	} else if (S_ISLNK(d->st.st_mode) && S_ISDIR(st->st_mode) && o->keep_directory_symlink &&
		   !o->move) {
		/* --keep-directory-symlink: a link to a directory is entered. */
		struct stat target;
		if (loc_stat(dst, &target, true) == 0 && S_ISDIR(target.st_mode)) {
			d->st = target;
			d->exists = d->followed = true;
			return 0;
		}
		d->exists = true;
		return 0;
	} else if (no_follow || !S_ISLNK(d->st.st_mode)) {
		/* Not a link: nothing was followed (a file with other links
		 * is then replaced, not written into, when -a keeps links). */
		d->exists = true;
		return 0;
	} else {
		struct stat link_st = d->st;
		err = loc_stat(dst, &d->st, true);
		if (!err) {
			d->exists = d->followed = true;
			return 0;
		}
		if (err == -ENOENT)
			return 0; /* a dangling link */
		/* cp -f onto a symbolic link loop replaces the link. */
		if (err == -ELOOP && o->force) {
			d->st = link_st;
			d->exists = true;
			return 0;
		}
	}
	cli_error(-err, "cannot stat %s", quoted(dst->path));
	return 1;
}

/* Status for a destination left alone: 0, or 1 after --update=none-fail's
 * message (or a "no" to -i, which GNU 9.11 counts as a failure). */
static int skipped(const struct spmove *s, const struct loc *dst)
{
	if (s->c.o->update == UPDATE_NONE_FAIL)
		cli_error(0, "not replacing %s", quoted(dst->path));
	else if (s->c.o->debug)
		printf("skipped %s\n", quoted(dst->path));
	return s->c.o->update != UPDATE_NONE;
}

/* What check_existing() found. */
enum existing {
	EXISTING_GO_ON,      /* copy onto it */
	EXISTING_SKIP,       /* leave it, status 0 (-n, -i answered no, cp -l) */
	EXISTING_KEEP_NEWER, /* --update keeps it (hard links still mirrored) */
	EXISTING_FAILED,     /* an error, reported: status 1 */
};

/*
 * Everything that may stop a copy onto an existing dst, or that happens to
 * dst first (a backup, a removal).
 */
static enum existing check_existing(struct spmove *s, const struct loc *src, const struct stat *st,
			  const struct loc *dst, struct dest *d, bool command_line,
			  struct outcome *out)
{
	const struct spmove_options *o = s->c.o;
	bool move = o->move;
	if (o->hard_link && already_linked(s, src, st, dst, &d->st))
		return EXISTING_SKIP; /* cp -l: already a link of the source */
	if (o->update != UPDATE_NONE && o->update != UPDATE_NONE_FAIL &&
	    !same_file_ok(s, src, st, dst, &d->st)) {
		cli_error(0, "%s and %s are the same file", quoted(src->path), quoted(dst->path));
		return EXISTING_FAILED;
	}
	if (not_older(s, st, &d->st)) {
		out->keep_source = true; /* the source stays */
		return EXISTING_KEEP_NEWER;
	}
	if (skip_existing(s, dst, st, &d->st)) {
		out->keep_source = true;
		return skipped(s, dst) ? EXISTING_FAILED : EXISTING_SKIP;
	}
	bool src_dir = S_ISDIR(st->st_mode), dst_dir = S_ISDIR(d->st.st_mode);
	if (src_dir != dst_dir && o->backup == BACKUP_NONE) {
		if (src_dir)
			cli_error(0, "cannot overwrite non-directory %s with directory %s",
				  quoted(dst->path), quoted(src->path));
		else
			cli_error(0, "cannot overwrite directory %s with non-directory %s",
				  quoted(dst->path), quoted(src->path));
		return EXISTING_FAILED;
	}
	const char *made = dst_dir || !command_line ? NULL : seen_find(s->created, &d->st);
	if (made && o->backup != BACKUP_NUMBERED && !strcmp(made, dst->path)) {
		cli_error(0, "will not overwrite just-created %s with %s", quoted(dst->path),
			  quoted(src->path));
		return EXISTING_FAILED;
	}
	char buf[PATH_MAX];
	const char *base;
	bool dots = path_split(src->path, buf, sizeof(buf), NULL, &base) == 0 &&
		    (!strcmp(base, ".") || !strcmp(base, ".."));
	if (o->backup != BACKUP_NONE && !dots && (move || !dst_dir)) {
		if (backup_is_source(o, st, dst)) {
			cli_error(0, "backing up %s might destroy source;  %s not %s",
				  quoted(dst->path), quoted(src->path), move ? "moved" : "copied");
			return EXISTING_FAILED;
		}
		d->backup = backup_rename(o, dst);
		if (!d->backup && errno != ENOENT) {
			cli_error(errno, "cannot backup %s", quoted(dst->path));
			return EXISTING_FAILED;
		}
		/* The name is free now: whatever appears there is not followed. */
		d->exists = d->link = d->followed = false;
	} else if (!dst_dir && !move &&
		   (o->remove_destination ||
		    (!o->attributes_only && (o->keep & KEEP_LINKS) && d->st.st_nlink > 1 &&
		     !d->followed) ||
		    (!o->attributes_only && o->deref == DEREF_NEVER && !S_ISREG(st->st_mode)))) {
		if (unlinkat(dst->dir, dst->name, 0) < 0 && errno != ENOENT) {
			cli_error(errno, "cannot remove %s", quoted(dst->path));
			return EXISTING_FAILED;
		}
		if (o->verbose)
			printf("removed %s\n", quoted(dst->path));
		d->exists = d->link = d->followed = false;
	}
	return EXISTING_GO_ON;
}

/* linkat(2) of the file fd (O_PATH) to the name dst: by the descriptor
 * itself, or (without CAP_DAC_READ_SEARCH before Linux 6.10) through its
 * magic link.  Returns 0 or -1 with errno set. */
static int link_fd(int fd, const struct loc *dst)
{
	if (linkat(fd, "", dst->dir, dst->name, AT_EMPTY_PATH) == 0)
		return 0;
	if (errno != ENOENT)
		return -1;
	char proc[64];
	return linkat(AT_FDCWD, loc_proc_path(fd, NULL, proc, sizeof(proc)), dst->dir, dst->name,
		      AT_SYMLINK_FOLLOW);
}

/* Remember which file dst, just made (or kept) as the copy of st's file,
 * is, so that its other links are made to that very file.  Returns 0, or
 * 1 when the batch the copy waited in failed (reported). */
static int remember_copy(struct spmove *s, const struct stat *st, const struct loc *dst)
{
	struct stat made;
	const char *name = seen_find(s->copies, st);
	if (!name || strcmp(name, dst->path))
		return 0;
	/* The copy takes its name first (batch.c): its links are made to
	 * it. */
	int status = s->c.batch ? batch_commit(s->batch) : 0;
	if (loc_stat(dst, &made, false) == 0)
		seen_set_copy(s->copies, st, &made);
	return status;
}

/* The path earlier, a copy's name as shown, as the file system has it now:
 * in the hidden tree (s->hidden) until it is shown, through buf (size
 * bytes).  Returns the path. */
static const char *hidden_path(const struct spmove *s, const char *earlier, char *buf,
			       size_t size)
{
	const char *shown = s->hidden.shown;
	size_t n = shown ? strlen(shown) : 0;
	if (!n || strncmp(earlier, shown, n) || (earlier[n] && earlier[n] != '/') ||
	    (size_t)snprintf(buf, size, "%s%s", s->hidden.real, earlier + n) >= size)
		return earlier;
	return buf;
}

/* Make dst a hard link to earlier (the copy of another link of the same
 * source file st), replacing what is there: from a descriptor of the
 * earlier copy, checked to be the file made then (the name is a path,
 * whose directories another user may have swapped since).  Returns 0 or
 * 1. */
static int link_again(const struct spmove *s, const struct stat *st, const char *earlier,
		      const struct loc *dst)
{
	struct stat want, now;
	char real[PATH_MAX];
	int fd = open(hidden_path(s, earlier, real, sizeof(real)), O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && (fstat(fd, &now) < 0 ||
			(seen_copy(s->copies, st, &want) && !same_inode(&want, &now)))) {
		close(fd);
		cli_error(0, "cannot create hard link %s to %s: it was replaced meanwhile",
			  quoted(dst->path), quoted(earlier));
		return 1;
	}
	int rc = fd < 0 ? -1 : link_fd(fd, dst);
	if (rc < 0 && fd >= 0 && errno == EEXIST && unlinkat(dst->dir, dst->name, 0) == 0)
		rc = link_fd(fd, dst);
	int err = errno;
	if (fd >= 0)
		close(fd);
	if (rc == 0)
		return 0;
	cli_error(err, "cannot create hard link %s to %s", quoted(dst->path), quoted(earlier));
	return 1;
}

/* Which earlier copy dst should be a hard link to, when one should:
 * links kept (-a, --preserve=links, every move), and the directory
 * copied into itself.  Records this copy for later ones. */
static const char *earlier_copy(struct spmove *s, const struct stat *st, const char *dst,
				bool command_line)
{
	const struct spmove_options *o = s->c.o;
	bool links = (o->keep & KEEP_LINKS) || o->move;
	if (S_ISDIR(st->st_mode))
		return command_line ? seen_add(s->copies, st, dst) : seen_find(s->copies, st);
	if (o->move && st->st_nlink == 1)
		return seen_find(s->copies, st);
	if (links && (st->st_nlink > 1 || (command_line && o->deref == DEREF_ARGS) ||
		      o->deref == DEREF_ALWAYS))
		return seen_add(s->copies, st, dst);
	return NULL;
}

/* A directory met again: refuse to copy it into itself, or to hard-link
 * it.  STEP_GO_ON for a directory reached twice through -L/-H, STEP_DONE
 * to skip it (named twice). */
static enum step directory_again(struct spmove *s, const struct loc *src, const struct stat *st,
			   const struct loc *dst, const char *earlier, const struct top *top,
			   bool command_line, struct outcome *out)
{
	/* The copy met under its own name, or under the temporary one of a
	 * hidden tree. */
	bool hidden = s->hidden.shown && st->st_dev == s->hidden.dev &&
		      st->st_ino == s->hidden.ino;
	if (hidden || same_entry(src->path, earlier)) {
		cli_error(0, "cannot copy a directory, %s, into itself, %s", quoted(top->src),
			  quoted(top->dst));
		out->into_self = true;
		return STEP_FAILED;
	}
	if (same_entry(dst->path, earlier)) {
		cli_error(0, "warning: source directory %s specified more than once",
			  quoted(top->src));
		out->keep_source = s->c.o->move;
		return STEP_DONE;
	}
	if (follows(s, command_line))
		return STEP_GO_ON;
	cli_error(0, "will not create hard link %s to directory %s", quoted(dst->path),
		  quoted(earlier));
	return STEP_FAILED;
}

/* Whether the directory dst is in may be written (errno says why not). */
static bool writable_dir(const struct loc *dst)
{
	return faccessat(dst->dir, ".", W_OK | X_OK, AT_EACCESS) == 0;
}

/* mv: rename src to dst.  STEP_GO_ON when a copy is needed (another file
 * system). */
static enum step move_by_rename(struct spmove *s, const struct loc *src, const struct stat *st,
			  const struct loc *dst, struct dest *d, const struct top *top,
			  struct outcome *out)
{
	/* "DST/" must be a directory (the name no longer carries the slash
	 * that made rename(2) say so). */
	if (dst->must_dir && !S_ISDIR(st->st_mode)) {
		cli_error(ENOTDIR, "cannot move %s to %s", quoted(src->path), quoted(dst->path));
		return STEP_FAILED;
	}
	if (renameat(src->dir, src->name, dst->dir, dst->name) == 0) {
		if (s->c.o->verbose)
			verbose_pair("renamed ", src->path, dst->path, d->backup);
		if (s->c.o->fsync)
			(void)loc_sync_dir(dst->dir);
		seen_add(s->created, st, dst->path);
		out->keep_source = true;
		return STEP_DONE;
	}
	int err = errno;
	if (err == EINVAL) {
		cli_error(0, "cannot move %s to a subdirectory of itself, %s", quoted(top->src),
			  quoted(top->dst));
		out->into_self = true;
		return STEP_FAILED;
	}
	if (err == EXDEV && s->c.o->no_copy) {
		cli_error(err, "cannot move %s to %s", quoted(src->path), quoted(dst->path));
		return STEP_FAILED;
	}
	if (err == EXDEV && d->exists && !S_ISDIR(d->st.st_mode) && !writable_dir(dst)) {
		/* mv removes the target first: its directory must be writable. */
		cli_error(errno, "inter-device move failed: %s to %s; unable to remove target",
			  quoted(src->path), quoted(dst->path));
		return STEP_FAILED;
	}
	if (err == EXDEV) {
		/* As rename(2) would: an empty directory is replaced, a full one
		 * refuses.  A file is replaced by the copy's own rename. */
		if (d->exists && S_ISDIR(d->st.st_mode) &&
		    unlinkat(dst->dir, dst->name, AT_REMOVEDIR) < 0 && errno != ENOENT) {
			cli_error(errno, "inter-device move failed: %s to %s; unable to remove target",
				  quoted(src->path), quoted(dst->path));
			return STEP_FAILED;
		}
		if (d->exists && S_ISDIR(d->st.st_mode))
			d->exists = false;
		return STEP_GO_ON;
	}
	switch (err) {
	case EDQUOT: case EEXIST: case EISDIR: case EMLINK: case ENOSPC: case ETXTBSY:
	case ENOTEMPTY:
		cli_error(err, "cannot overwrite %s", quoted(dst->path));
		break;
	default:
		cli_error(err, "cannot move %s to %s", quoted(src->path), quoted(dst->path));
	}
	return STEP_FAILED;
}

/* Whether a failed link(2) or symlink(2) onto dst may remove dst and try
 * again: cp -f, and -i once the user said yes (cp's rule for -l and -s). */
static bool may_replace(const struct spmove *s)
{
	return s->c.o->force || s->c.o->remove_destination || s->c.o->ask == ASK_USER;
}

/* cp -l: dst made a hard link of src (of what a symbolic link src names
 * when links are followed), replacing dst only as may_replace() says.
 * Returns 0 or 1. */
static int make_hard_link(struct spmove *s, const struct loc *src, const struct stat *st,
			  bool follow, const struct loc *dst)
{
	/* From a descriptor of the file seen (src may have been swapped for
	 * a link, or another file, since). */
	struct stat now;
	int fd = loc_open_checked(src, O_PATH | (follow ? 0 : O_NOFOLLOW), st, &now);
	if (fd == -ESTALE) {
		loc_replaced(src);
		return 1;
	}
	int err = fd < 0 ? -fd : link_fd(fd, dst) == 0 ? 0 : errno;
	if (err == EEXIST && may_replace(s)) {
		err = unlinkat(dst->dir, dst->name, 0) == 0 && link_fd(fd, dst) == 0 ? 0 : errno;
	}
	if (fd >= 0)
		close(fd);
	if (!err)
		return 0;
	cli_error(err, "cannot create hard link %s to %s", quoted(dst->path), quoted(src->path));
	return 1;
}

/* cp -s: dst made a symbolic link to src's name as given, which must be
 * absolute unless dst is made in the current directory.  Returns 0 or 1. */
static int make_symbolic_link(struct spmove *s, const struct loc *src, const struct loc *dst)
{
	if (src->path[0] != '/') {
		struct stat dot, here;
		bool in_dot = dst->dir == AT_FDCWD || stat(".", &dot) < 0 ||
			      fstat(dst->dir, &here) < 0 || same_inode(&dot, &here);
		if (!in_dot) {
			cli_error(0, "%s: can make relative symbolic links only in current directory",
				  cli_quote(dst->path));
			return 1;
		}
	}
	if (symlinkat(src->path, dst->dir, dst->name) == 0)
		return 0;
	int err = errno;
	if (err == EEXIST && (s->c.o->force || s->c.o->remove_destination)) {
		if (unlinkat(dst->dir, dst->name, 0) == 0 &&
		    symlinkat(src->path, dst->dir, dst->name) == 0)
			return 0;
		err = errno;
	}
	cli_error(err, "cannot create symbolic link %s to %s", quoted(dst->path),
		  quoted(src->path));
	return 1;
}

/* --debug: how the regular file st was copied, in GNU's words and ours:
 * the path that moved the bytes (copy offload: yes for copy_file_range(2),
 * which the file system may offload; avoided when the options ruled it
 * out; no otherwise; the path named at the end), the
 * clone, and holes looked for (a file with fewer blocks than its size). */
static void debug_line(const struct spmove *s, const struct stat *st)
{
	/* --reflink=never (or --sparse=never) rules copy_file_range(2) out,
	 * since it may share blocks: GNU's "avoided". */
	bool avoided = s->c.o->reflink == REFLINK_NEVER;
	const char *offload = s->c.data_path == SP_PATH_COPY_FILE_RANGE ? "yes"
			      : s->c.data_path == SP_PATH_NONE         ? "unknown"
			      : avoided                             ? "avoided"
								    : "no";
	const char *reflink = s->c.cloned > 0 ? "yes" : s->c.cloned < 0 ? "unsupported" : "no";
	bool holes = (uint64_t)st->st_blocks * 512 < (uint64_t)st->st_size;
	const char *sparse = s->c.o->sparse == SPARSE_NEVER    ? "no"
			     : s->c.o->sparse == SPARSE_ALWAYS ? (holes ? "SEEK_HOLE + zeros" : "zeros")
			     : holes                         ? "SEEK_HOLE"
							     : "no";
	printf("copy offload: %s, reflink: %s, sparse detection: %s", offload, reflink, sparse);
	if (s->c.data_path != SP_PATH_NONE)
		printf(" (data: %s)", sp_path_name(s->c.data_path));
	putchar('\n');
}

/* cp --attributes-only for the regular file src: dst made empty, or kept
 * with its data, and given src's attributes as the options say.
 * Returns 0 or 1. */
static int copy_attributes_only(struct spmove *s, const struct loc *src, const struct stat *st,
				bool follow, const struct loc *dst, const struct dest *d)
{
	struct stat now;
	int src_fd = loc_open_checked(src, O_RDONLY | O_NONBLOCK | (follow ? 0 : O_NOFOLLOW), st,
				      &now);
	if (src_fd == -ESTALE) {
		loc_replaced(src);
		return 1;
	}
	if (src_fd < 0) {
		cli_error(-src_fd, "cannot open %s for reading", quoted(src->path));
		return 1;
	}
	/* An existing file is opened as it was seen (through a symbolic link
	 * only when the name was one then) and must be that file. */
	int flags = O_WRONLY | O_NOCTTY | O_CLOEXEC;
	int fd = d->exists ? openat(dst->dir, dst->name, flags | (d->link ? 0 : O_NOFOLLOW))
			   : openat(dst->dir, dst->name, flags | O_CREAT | O_EXCL | O_NOFOLLOW,
				    new_file_mode(&s->c, st->st_mode));
	if (fd < 0) {
		cli_error(errno, "cannot create regular file %s", quoted(dst->path));
		close(src_fd);
		return 1;
	}
	struct stat dst_now;
	const char *refused = NULL;
	if (d->exists && (fstat(fd, &dst_now) < 0 || !same_inode(&dst_now, &d->st)))
		refused = "replaced";
	/* A file with other hard links is another name's file too: it is
	 * not given away, nor opened to more users, by a copy onto this one.
	 * The count at the first look counts as well: a name removed between
	 * the open and the fstat (a file renamed over it) lowers it. */
	else if (d->exists && (dst_now.st_nlink > 1 || d->st.st_nlink > 1) &&
		 !S_ISDIR(dst_now.st_mode) &&
		 ((((s->c.o->keep & KEEP_OWNER) || s->c.o->move) &&
		   (dst_now.st_uid != st->st_uid || dst_now.st_gid != st->st_gid)) ||
		  (keeps_mode(&s->c) && (st->st_mode & 07777 & ~dst_now.st_mode))))
		refused = "linked";
	if (refused) {
		if (*refused == 'r')
			loc_replaced(dst);
		else
			cli_error(0, "not changing the attributes of %s: it has other hard links",
				  quoted(dst->path));
		close(fd);
		close(src_fd);
		return 1;
	}
	int status = attrs_copy(&s->c, src, src_fd, st, fd, dst, !d->exists);
	if (close(fd) < 0 && !status) {
		cli_error(errno, "failed to close %s", quoted(dst->path));
		status = 1;
	}
	close(src_fd);
	return status;
}

/* mv --exchange: swap src and dst in one renameat2(RENAME_EXCHANGE),
 * unless -n or --update keeps dst.  Returns 0 or 1. */
static int exchange(struct spmove *s, const struct loc *src, const struct stat *st,
		    const struct loc *dst, struct outcome *out)
{
	struct stat dst_st;
	out->keep_source = true; /* nothing is copied, nothing removed after */
	if (loc_stat(dst, &dst_st, false) == 0) {
		if (not_older(s, st, &dst_st))
			return 0;
		if (skip_existing(s, dst, st, &dst_st))
			return skipped(s, dst);
	}
	if (renameat2(src->dir, src->name, dst->dir, dst->name, RENAME_EXCHANGE) < 0) {
		cli_error(errno, "cannot exchange %s and %s", quoted(src->path), quoted(dst->path));
		return 1;
	}
	if (s->c.o->verbose)
		printf("exchanged %s <-> %s\n", quoted(src->path), quoted(dst->path));
	if (s->c.o->fsync)
		(void)loc_sync_dir(dst->dir);
	return 0;
}

/* Whether directory st is one of the directories being copied. */
static bool cyclic(const struct stat *st, const struct ancestor *up)
{
	for (; up; up = up->up)
		if (up->dev == st->st_dev && up->ino == st->st_ino)
			return true;
	return false;
}

/* Open the directory dst, new (made by this run) or existing (seen as
 * seen), without following a symbolic link, into *fd and its fstat into
 * *st.  Returns 0, or 1 after a report: another file has the name now. */
static int open_dest_dir(const struct spmove *s, const struct loc *dst, bool made,
			 const struct timespec *since, const struct stat *seen, bool follow, int *fd,
			 struct stat *st)
{
	/* "link/" given as an existing destination: the directory it named
	 * (checked below); one this run made is never reached through a link. */
	int no_follow = follow || (dst->must_dir && !made) ? 0 : O_NOFOLLOW;
	*fd = openat(dst->dir, dst->name, O_RDONLY | O_DIRECTORY | no_follow | O_CLOEXEC);
	if (*fd < 0 && errno == EACCES && !made)
		*fd = openat(dst->dir, dst->name, O_PATH | O_DIRECTORY | no_follow | O_CLOEXEC);
	if (*fd < 0) {
		cli_error(errno, "cannot open %s", quoted(dst->path));
		return 1;
	}
	/* What mkdir(2) made is this process's, born since; an existing one
	 * is the one looked at.  Anything else was put there by someone else
	 * (even a directory of this user's, made earlier). */
	bool same = fstat(*fd, st) == 0 &&
		    (made ? loc_made_here(*fd, S_IFDIR, since) : same_inode(seen, st));
	if (same)
		return 0;
	close(*fd);
	*fd = -1;
	loc_replaced(dst);
	return 1;
}

/* The mode cp gives a directory it made without keeping the source's
 * (src_mode): what mkdir(2) made (made, asked with all the owner's bits),
 * with the owner's bits the source lacks taken away and the omitted bits
 * the umask lets through added. */
static mode_t dir_final_mode(const struct spmove *s, mode_t src_mode, const struct stat *made,
			     mode_t omitted)
{
	mode_t mode = made->st_mode & 07777;
	mode &= ~(S_IRWXU & ~src_mode);
	return mode | (omitted & ~s->c.o->umask);
}

/* Whether the descriptor fd was opened with O_PATH (no attributes by it). */
static bool path_only(int fd)
{
	int flags = fcntl(fd, F_GETFL);
	return flags >= 0 && (flags & O_PATH);
}

/* A directory's copy between its entries and its attributes: what giving
 * it its attributes takes.  When the workers may still be copying its
 * files, the walker goes on to the next directory meanwhile, and this
 * waits (s->deferred, its names copied) until then: the workers are not
 * left idle while the walker opens and lists the next directory. */
struct dir_copy {
	struct ancestor here;      /* the jobs handed over point at it */
	struct stat st;            /* the source directory, as copied */
	struct loc src, dst;
	char *paths;               /* src's and dst's, once kept */
	bool made;                 /* the run made the copy */
	bool dst_by_fd;            /* its descriptor is not O_PATH */
	mode_t omitted;            /* permission bits left out of mkdir(2) */
	const struct top *top;     /* for the copies the workers give back */
	struct outcome *out;
};

/* Give the copy of c's directory the attributes of the source (once all
 * its entries are copied).  Returns 0 or 1. */
static int dir_attributes(struct spmove *s, const struct dir_copy *c)
{
	const struct spmove_options *o = s->c.o;
	int fd = c->here.dst_fd, src_fd = c->here.src_fd;
	if (fd < 0 || src_fd < 0)
		return 1; /* reported by tree_leave() */
	/* O_PATH descriptors too: attrs_copy() reaches the very directories. */
	int status = attrs_copy(&s->c, &c->src, src_fd, &c->st, fd, &c->dst, c->made);
	/* A new directory gets the mode mkdir(2) gave it, with the owner's
	 * bits the source has and the bits left out that the umask lets
	 * through (cp's result); --no-preserve=mode, the default mode. */
	mode_t mode = c->made && !o->no_keep_mode
		      ? dir_final_mode(s, c->st.st_mode, &c->here.dst_st, c->omitted)
		      : new_file_mode(&s->c, c->st.st_mode);
	if (c->made && !keeps_mode(&s->c) &&
	    (o->no_keep_mode || mode != (c->here.dst_st.st_mode & 07777)) && fchmod(fd, mode) < 0) {
		cli_error(errno, "setting permissions for %s", quoted(c->dst.path));
		status = 1;
	}
	if ((o->fsync || o->move) && c->dst_by_fd && fsync(fd) < 0) {
		cli_error(errno, "cannot sync %s", quoted(c->dst.path));
		status = 1;
	}
	return status;
}

/* Let go of c's descriptors. */
static void dir_close(struct dir_copy *c)
{
	if (c->here.dst_fd >= 0)
		close(c->here.dst_fd);
	if (c->here.src_fd >= 0)
		close(c->here.src_fd);
}

int copy_finish_deferred(struct spmove *s)
{
	struct dir_copy *c = s->deferred;
	if (!c)
		return 0;
	s->deferred = NULL;
	/* What the workers give back may be a directory now (the tree
	 * changed meanwhile): its copy is finished at once. */
	s->no_defer = true;
	int status = tree_settle(s, &c->here, c->top, c->out);
	s->no_defer = false;
	if (c->here.dst_fd >= 0 && c->here.src_fd >= 0)
		status |= dir_attributes(s, c) | tree_leave(&c->here, &c->src);
	dir_close(c);
	free(c->paths);
	free(c);
	return status;
}

/* Whether c, its entries listed and handed over, may wait for the
 * workers while the walker goes on (copy_finish_deferred() then finishes
 * it); if so, keep its names.  Not one held open by O_PATH (whose
 * attributes are set by name). */
static bool dir_defer(struct spmove *s, struct dir_copy *c, const struct top *top,
		      struct outcome *out)
{
	if (c->here.dst_fd < 0 || c->here.src_fd < 0 || !c->dst_by_fd)
		return false;
	size_t src_len = strlen(c->src.path) + 1, dst_len = strlen(c->dst.path) + 1;
	c->paths = malloc(src_len + dst_len);
	if (!c->paths)
		return false;
	memcpy(c->paths, c->src.path, src_len);
	memcpy(c->paths + src_len, c->dst.path, dst_len);
	c->src.name = c->paths + (c->src.name - c->src.path);
	c->src.path = c->paths;
	c->dst.name = c->paths + src_len + (c->dst.name - c->dst.path);
	c->dst.path = c->paths + src_len;
	c->here.src_loc = &c->src;
	c->top = top;
	c->out = out;
	s->deferred = c;
	return true;
}

/* Whether the new directory dst, the top of an operand's copy, is made
 * under a temporary name beside its own and shown once complete: in a
 * plain copy (a move and --fsync make each file durable under the name it
 * keeps) that reads no stream (with --copy-contents the copy may wait for
 * a FIFO's writer, who may be waiting to see the tree: coreutils'
 * cp/parent-perm-race.sh), one tree at a time, and where the paths of its
 * copies can be told from the ones shown (hard links are made to the
 * earlier copy's path: hidden_path()). */
static bool may_hide(const struct spmove *s, const struct loc *dst)
{
	const struct spmove_options *o = s->c.o;
	size_t n = strlen(dst->path), k = strlen(dst->name);
	return !o->move && !o->fsync && !o->copy_contents && !s->hidden.shown && k && n >= k &&
	       !strcmp(dst->path + n - k, dst->name) && (n == k || dst->path[n - k - 1] == '/') &&
	       n - k + sizeof(".spmove-12345678") <= sizeof(s->hidden.real);
}

/* rm_tree_at_checked(): the hidden tree's top is the directory made
 * (arg: s->hidden); below it, all is the copy's. */
static bool hidden_dir(const struct stat *st, bool top, void *arg)
{
	const struct hidden_top *h = arg;
	return !top || (st->st_dev == h->dev && st->st_ino == h->ino);
}

/* Show the tree made under the name temp beside dst (s->hidden: the
 * directory made there, or when it could not be opened, whatever
 * directory has the name) under dst's name: one rename(2), which replaces
 * nothing another process put there meanwhile.  When another file took
 * the name since, the copy fails as cp's mkdir(2) would have, and what it
 * made is removed.  Returns 0, or 1 after a report. */
static int show_tree(struct spmove *s, const struct loc *dst, const char *temp)
{
	struct stat st;
	bool known = s->hidden.ino != 0;
	int err = fstatat(dst->dir, temp, &st, AT_SYMLINK_NOFOLLOW) < 0 ? -errno
		  : !S_ISDIR(st.st_mode) ||
		    (known && (st.st_dev != s->hidden.dev || st.st_ino != s->hidden.ino))
		  ? -ESTALE : 0;
	if (!err && renameat2(dst->dir, temp, dst->dir, dst->name, RENAME_NOREPLACE) < 0)
		err = -errno;
	/* A file system without RENAME_NOREPLACE: a free name is taken by a
	 * plain rename (which could replace an empty directory only). */
	if (err == -EINVAL && fstatat(dst->dir, dst->name, &st, AT_SYMLINK_NOFOLLOW) < 0 &&
	    errno == ENOENT)
		err = renameat(dst->dir, temp, dst->dir, dst->name) < 0 ? -errno : 0;
	s->hidden.shown = NULL;
	if (!err)
		return 0;
	if (err == -ESTALE || err == -ENOENT) {
		cli_error(0, "cannot create directory %s: its copy was moved away from %s",
			  quoted(dst->path), quoted(s->hidden.real));
		return 1;
	}
	cli_error(-err, "cannot create directory %s", quoted(dst->path));
	int gone = known ? rm_tree_at_checked(dst->dir, temp, NULL, hidden_dir, &s->hidden)
		   : unlinkat(dst->dir, temp, AT_REMOVEDIR) < 0 ? -errno : 0;
	if (gone)
		cli_error(-gone, "cannot remove %s", quoted(s->hidden.real));
	return 1;
}

/* Copy the directory src (st; follow: looked at through a symbolic link)
 * to dst: make it (private until filled), copy its entries, then give it
 * its attributes.  A new tree is made under a temporary name (may_hide()),
 * shown by show_tree() when complete, or when the run is cut short by a
 * signal: no file of it is seen under its name half-written, and each file
 * is written under its own name at once, without the unnamed file and the
 * link that stand in for the tree's one rename elsewhere.  Returns 0 or 1. */
static int copy_directory(struct spmove *s, const struct loc *src, const struct stat *st,
			  bool follow, const struct loc *dst, const struct dest *d,
			  const struct top *top, struct ancestor *up, struct outcome *out)
{
	const struct spmove_options *o = s->c.o;
	if (cyclic(st, up)) {
		cli_error(0, "cannot copy cyclic symbolic link %s", quoted(src->path));
		return 1;
	}
	/* Opened before anything is made: a directory that another user put
	 * in its place (a link to one, or another directory) is not copied.
	 * One that cannot be read is still made, as cp does. */
	struct stat src_now;
	int no_follow = follow ? 0 : O_NOFOLLOW;
	int src_fd = loc_open_checked(src, O_RDONLY | O_DIRECTORY | no_follow, st, &src_now);
	if (src_fd == -EACCES)
		src_fd = loc_open_checked(src, O_PATH | O_DIRECTORY | no_follow, st, &src_now);
	if (src_fd == -ESTALE) {
		loc_replaced(src);
		return 1;
	}
	if (src_fd < 0) {
		cli_error(-src_fd, "cannot access %s", quoted(src->path));
		return 1;
	}
	/* On the heap when its attributes may wait for the workers. */
	bool may_wait = up && !s->no_defer && pool_may_defer(s) && tree_may_defer(up->depth + 1);
	struct dir_copy own, *c = may_wait ? malloc(sizeof(*c)) : NULL;
	if (!c)
		c = &own;
	*c = (struct dir_copy){
		.here = { .up = up, .dev = st->st_dev, .ino = st->st_ino, .src_fd = src_fd,
			  .dst_fd = -1, .depth = up ? up->depth + 1 : 1, .src_loc = src,
			  .follow = follow },
		.st = *st, .src = *src, .dst = *dst, .made = !d->exists };
	struct ancestor *here = &c->here;
	int status = 1;
	bool made = c->made;
	/* Its files' copies let go of a directory of their own only. */
	int *spare = s->c.spare_dir;
	s->c.spare_dir = NULL;
	struct stat operand_dir;
	bool let_go = false;
	/* The temporary name of a new tree's top, while it has one. */
	const struct loc *shown = dst;
	struct loc hidden_loc;
	char hidden_name[32];
	bool hide = made && !up && may_hide(s, dst), hidden_made = false;
	/* A move removes, after the copy, only the directories it copied. */
	if (o->move && s->moved_dirs && !seen_find(s->moved_dirs, &src_now) &&
	    !seen_add(s->moved_dirs, &src_now, "") && !seen_find(s->moved_dirs, &src_now)) {
		cli_error(ENOMEM, "cannot copy %s", quoted(src->path));
		goto done;
	}
	/* Deep in a tree, the source directory of an ancestor is let go
	 * before this one's copy is made, its destination once the copy is
	 * open (tree_leave() opens them again). */
	status = tree_enter(s, here, top, out);
	struct timespec since;
	loc_now(&since);
	/* Permission bits left out of mkdir(2) until the directory is filled,
	 * as cp leaves them out: group and other write (all of group and
	 * other when the owner is to change). */
	if (made) {
		bool owner = (o->keep & KEEP_OWNER) || o->move;
		c->omitted = st->st_mode & (owner ? 077 : 022);
		/* The kernel cuts the mode by the umask or a default ACL, keeps
		 * the sticky bit and gives the parent's set-group-ID bit, as for
		 * mkdir(1); the owner may fill it whatever its mode says. */
		mode_t mode = (keeps_mode(&s->c) || o->no_keep_mode ? new_file_mode(&s->c, st->st_mode)
							       : st->st_mode & 07777) & ~c->omitted;
		int err = hide ? copy_temp_dir(dst->dir, mode | S_IRWXU, hidden_name,
					       sizeof(hidden_name))
			  : mkdirat(dst->dir, dst->name, mode | S_IRWXU) < 0 ? -errno : 0;
		if (err) {
			cli_error(-err, "cannot create directory %s", quoted(dst->path));
			status = 1;
			goto leave;
		}
		if (hide) {
			hidden_loc = *dst;
			hidden_loc.name = hidden_name;
			hidden_loc.hidden = hidden_made = true;
			dst = &hidden_loc;
			c->dst = hidden_loc;
			size_t dir_len = strlen(shown->path) - strlen(shown->name);
			snprintf(s->hidden.real, sizeof(s->hidden.real), "%.*s%s", (int)dir_len,
				 shown->path, hidden_name);
			s->hidden.shown = shown->path;
			s->hidden.dev = 0;
			s->hidden.ino = 0; /* until it is opened */
		}
		if (o->verbose && o->move)
			printf("created directory %s\n", quoted(dst->path));
		else if (o->verbose)
			verbose_pair("", src->path, dst->path, NULL);
	}
	if (open_dest_dir(s, dst, made, &since, &d->st, d->followed && S_ISDIR(d->st.st_mode),
			  &here->dst_fd, &here->dst_st)) {
		here->dst_fd = -1;
		status = 1;
		goto leave;
	}
	if (hidden_made) {
		s->hidden.dev = here->dst_st.st_dev;
		s->hidden.ino = here->dst_st.st_ino;
	}
	tree_entered(here);
	/* Asked once: both dir_defer() and dir_attributes() need it. */
	c->dst_by_fd = !path_only(here->dst_fd);
	/* At the top, under a very low limit, the operand's directory goes
	 * too (not when the copy was reached through a link: ".." of it is
	 * not that directory). */
	let_go = !d->followed && tree_let_go_operand(dst, here, &operand_dir);
	/* Known, so that a copy into itself finds itself there. */
	if (made && !out->made_dir) {
		seen_add(s->copies, &here->dst_st, dst->path);
		out->made_dir = true;
	}
	bool outer = s->in_new_dir;
	s->in_new_dir = made;
	/* cp -x: a directory of another file system is made, not filled. */
	bool wait = c != &own;
	if (!(o->one_file_system && up && up->dev != st->st_dev))
		status |= copy_children(s, src, dst, top, here, out, !wait);
	s->in_new_dir = outer;
	/* The directory before it, whose files are copied by now or nearly,
	 * is finished first; then this one waits in its place. */
	status |= copy_finish_deferred(s);
	if (wait && dir_defer(s, c, top, out)) {
		s->c.spare_dir = spare;
		return status;
	}
	if (wait)
		status |= tree_settle(s, NULL, top, out);
	/* Closed and opened again (tree.c) when the tree was deep. */
	if (here->dst_fd < 0 || here->src_fd < 0) {
		status = 1; /* reported by tree_leave() */
		goto done;
	}
	status |= dir_attributes(s, c);
leave:
	/* Here's descriptors may go on the way (set to -1). */
	status |= tree_leave(here, src);
done:
	/* Also after a failure below: the operand's number is its again. */
	if (let_go)
		status |= tree_take_back_operand(dst, here, &operand_dir);
	if (hidden_made)
		status |= show_tree(s, shown, hidden_name);
	dir_close(c);
	if (c != &own)
		free(c);
	s->c.spare_dir = spare;
	return status;
}

/* Copy the data of src (st, follow) into dst (d) with copy_regular(),
 * and say with --debug how it went.  Returns 0 or 1. */
static int copy_file_data(struct spmove *s, const struct loc *src, const struct stat *st,
			  bool follow, const struct loc *dst, const struct dest *d)
{
	if (s->c.o->debug) {
		s->c.cloned = 0;
		s->c.data_path = SP_PATH_NONE;
	}
	int rc = copy_regular(&s->c, src, st, follow, dst, d->exists ? &d->st : NULL, d->absent,
			      d->link);
	if (s->c.o->debug)
		debug_line(s, st);
	return rc;
}

/* Copy src (st; follow: looked at through a symbolic link) to dst by its
 * type.  Returns 0 or 1. */
static int copy_by_type(struct spmove *s, const struct loc *src, const struct stat *st,
			bool follow, const struct loc *dst, struct dest *d,
			const struct top *top, struct ancestor *up, struct outcome *out)
{
	bool as_data = (!s->c.o->recursive || s->c.o->copy_contents) && !s->c.o->move;
	if (s->c.progress)
		cli_progress_name(s->c.progress, src->path);
	if (s->c.o->hard_link && !S_ISDIR(st->st_mode))
		return make_hard_link(s, src, st, follow, dst);
	if (s->c.o->symbolic_link && !S_ISDIR(st->st_mode))
		return make_symbolic_link(s, src, dst);
	if (s->c.o->attributes_only && S_ISREG(st->st_mode))
		return copy_attributes_only(s, src, st, follow, dst, d);
	if (s->c.o->attributes_only && S_ISLNK(st->st_mode) && d->exists) {
		/* cp --attributes-only leaves an existing file to a link. */
		cli_error(EEXIST, "cannot create symbolic link %s", quoted(dst->path));
		return 1;
	}
	switch (st->st_mode & S_IFMT) {
	case S_IFDIR:
		return copy_directory(s, src, st, follow, dst, d, top, up, out);
	case S_IFLNK:
		return copy_symlink(&s->c, src, dst, st);
	case S_IFREG:
		/* A file to replace goes too (its checks were made here), but
		 * not a link's target: resolve_output() is the walker's. */
		if (up && (d->absent || (d->exists && !d->link)) && pool_takes(s, st))
			return pool_copy(s, src, st, follow, dst, d->absent ? NULL : &d->st, up,
					 LISTED_NO) == STEP_FAILED;
		return copy_file_data(s, src, st, follow, dst, d);
	case S_IFIFO: case S_IFCHR: case S_IFBLK: case S_IFSOCK:
		/* A socket read as data cannot be opened: GNU's error. */
		if (as_data)
			return copy_file_data(s, src, st, follow, dst, d);
		return copy_special(&s->c, src, dst, st);
	}
	cli_error(0, "%s has unknown file type", quoted(src->path));
	return 1;
}

/* copy_entry() once the destination d is known: what is there decides,
 * then src is linked, renamed or copied.  Returns 0 or 1; d is the
 * caller's to free. */
static int copy_to_dest(struct spmove *s, const struct loc *src, const struct stat *st,
			bool follow, const struct loc *dst, struct dest *d, const struct top *top,
			struct ancestor *up, struct outcome *out)
{
	const struct spmove_options *o = s->c.o;
	bool command_line = !up;
	enum existing found = d->exists ? check_existing(s, src, st, dst, d, command_line, out)
					: EXISTING_GO_ON;
	if (found == EXISTING_KEEP_NEWER) {
		/* Kept by --update, yet hard links of the source are mirrored. */
		const char *earlier = S_ISDIR(st->st_mode) ? NULL
				      : earlier_copy(s, st, dst->path, command_line);
		if (!earlier && !S_ISDIR(st->st_mode))
			return remember_copy(s, st, dst);
		return earlier && strcmp(earlier, dst->path) ? link_again(s, st, earlier, dst) : 0;
	}
	if (found != EXISTING_GO_ON)
		return found == EXISTING_FAILED;
	struct stat link_st;
	if (command_line && !o->move && o->backup == BACKUP_NONE &&
	    loc_stat(dst, &link_st, false) == 0 &&
	    S_ISLNK(link_st.st_mode) && seen_find(s->created, &link_st)) {
		cli_error(0, "will not copy %s through just-created symlink %s", quoted(src->path),
			  quoted(dst->path));
		return 1;
	}
	if (o->verbose && !o->move && !S_ISDIR(st->st_mode))
		verbose_pair("", src->path, dst->path, d->backup);
	const char *earlier = earlier_copy(s, st, dst->path, command_line);
	enum step step = STEP_GO_ON;
	if (earlier && S_ISDIR(st->st_mode))
		step = directory_again(s, src, st, dst, earlier, top, command_line, out);
	else if (earlier)
		step = link_again(s, st, earlier, dst) ? STEP_FAILED : STEP_DONE;
	if (step == STEP_GO_ON && o->move && command_line)
		step = move_by_rename(s, src, st, dst, d, top, out);
	if (step != STEP_GO_ON)
		return step;
	if (o->move && o->verbose && !S_ISDIR(st->st_mode))
		verbose_pair("copied ", src->path, dst->path, d->backup);
	int rc = copy_by_type(s, src, st, follow, dst, d, top, up, out);
	if (rc && o->move)
		seen_forget(s->copies, st);
	else if (!rc && !earlier && !S_ISDIR(st->st_mode) && ((o->keep & KEEP_LINKS) || o->move))
		rc = remember_copy(s, st, dst);
	struct stat made;
	if (!rc && command_line && loc_stat(dst, &made, false) == 0)
		seen_add(s->created, &made, dst->path);
	return rc;
}

int copy_entry(struct spmove *s, const struct loc *src, const struct loc *dst,
	       const struct top *top, struct ancestor *up, struct outcome *out,
	       struct stat *src_st)
{
	const struct spmove_options *o = s->c.o;
	bool command_line = !up, follow = follows(s, command_line);
	struct stat st;
	int err = loc_stat(src, &st, follow);
	if (err) {
		cli_error(-err, "cannot stat %s", quoted(src->path));
		return 1;
	}
	if (src_st)
		*src_st = st;
	if (S_ISDIR(st.st_mode) && !o->recursive && !o->move) {
		cli_error(0, "-r not specified; omitting directory %s", quoted(src->path));
		return 1;
	}
	if (command_line && !o->move && !S_ISDIR(st.st_mode) &&
	    o->backup == BACKUP_NONE) {
		const char *before = seen_add(s->sources, &st, src->path);
		if (before && same_entry(before, src->path)) {
			cli_error(0, "warning: source file %s specified more than once",
				  quoted(src->path));
			out->keep_source = o->move;
			return 0;
		}
	}
	if (o->exchange && command_line)
		return exchange(s, src, &st, dst, out);
	/* In a directory this run made, as in cp, a name is known to be free
	 * without a look (should another process take it meanwhile, the copy
	 * replaces what it made, in one step). */
	struct dest d = { .absent = true };
	if (!(s->in_new_dir && !command_line) && stat_dest(s, &st, dst, &d))
		return 1;
	int rc = copy_to_dest(s, src, &st, follow, dst, &d, top, up, out);
	free(d.backup);
	return rc;
}
