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
#include "spmove.h"

/* What is known of the destination before anything is changed. */
struct dest {
	bool exists;
	bool followed;    /* st is of what a symbolic link dst names */
	bool absent;      /* no entry at all has the name, not even a link */
	struct stat st;
	char *backup;     /* where it went, once backed up (malloc'd) */
};

/* Whether the source's symbolic links are followed at this level. */
static bool follows(const struct spmove *s, bool command_line)
{
	return s->o->deref == DEREF_ALWAYS || (command_line && s->o->deref == DEREF_ARGS);
}

/* Whether names a and b are the same directory entry. */
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

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/*
 * Whether copying src (st) onto the existing dst (dst_st) may go on
 * although they may be one file: cp's and mv's rules, which refuse
 * whatever would destroy the data ("'s' and 'f' are the same file") and
 * allow what only replaces a name.
 */
static bool same_file_ok(const struct spmove *s, const char *src, const struct stat *st,
			 const char *dst, const struct stat *dst_st)
{
	const struct spmove_options *o = s->o;
	bool move = o->remove_source, backup = o->backup != BACKUP_NONE;
	struct stat src_l, dst_l;
	bool same = same_file(st, dst_st);
	if (o->deref == DEREF_NEVER || move) {
		src_l = *st;
		dst_l = *dst_st;
		if (S_ISLNK(st->st_mode) && S_ISLNK(dst_st->st_mode)) {
			bool one_name = same_entry(src, dst);
			if (!one_name && (backup || !same))
				return true;
			return !one_name && !move;
		}
	} else {
		if (!same)
			return true;
		if (lstat(src, &src_l) < 0 || lstat(dst, &dst_l) < 0)
			return true;
		if (S_ISLNK(src_l.st_mode) && S_ISLNK(dst_l.st_mode) && o->remove_destination)
			return true;
	}
	bool same_link = same_file(&src_l, &dst_l);
	if (backup) {
		if (!same_link)
			return move || o->deref == DEREF_NEVER || !S_ISLNK(src_l.st_mode) ||
			       S_ISLNK(dst_l.st_mode);
		return !same_entry(src, dst);
	}
	if (move || o->remove_destination) {
		/* The destination name is replaced, not written through. */
		if (S_ISLNK(dst_l.st_mode))
			return true;
		if (same_link && dst_l.st_nlink > 1 && !same_entry(src, dst))
			return !move;
	}
	if (!S_ISLNK(src_l.st_mode) && !S_ISLNK(dst_l.st_mode) && !same_file(&src_l, &dst_l))
		return true;
	/* A symlink moved onto one of several hard links of its target:
	 * the data stays reachable through the link it names. */
	if (move && S_ISLNK(st->st_mode) && dst_l.st_nlink > 1) {
		char *real = realpath(src, NULL);
		bool ok = real && !same_entry(real, dst);
		free(real);
		if (real)
			return ok;
	}
	if (o->deref == DEREF_NEVER || move) {
		struct stat a, b;
		if (stat(src, &a) < 0 || stat(dst, &b) < 0)
			return true;
		return !same_file(&a, &b);
	}
	return false;
}

/* Whether dst (mode) may be written without asking: a symlink, root, or
 * write permission. */
static bool writable(const struct spmove *s, const char *dst, mode_t mode)
{
	return S_ISLNK(mode) || s->root || faccessat(AT_FDCWD, dst, W_OK, AT_EACCESS) == 0;
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
static bool overwrite_ok(const struct spmove *s, const char *dst, const struct stat *st)
{
	if (writable(s, dst, st->st_mode))
		return ask("overwrite %s?", quoted(dst));
	char letters[10];
	mode_letters(st->st_mode, letters);
	bool replaces = s->o->remove_source || s->o->remove_destination || s->o->force;
	return ask(replaces ? "replace %s, overriding mode %04o (%s)?"
			    : "unwritable %s (mode %04o, %s); try anyway?",
		   quoted(dst), (unsigned)(st->st_mode & 07777), letters);
}

/* Whether an existing dst is left alone: -n, --update=none[-fail], a "no"
 * to -i (mv also asks for a file it cannot write when on a terminal). */
static bool skip_existing(const struct spmove *s, const char *dst, const struct stat *src_st,
			  const struct stat *dst_st)
{
	const struct spmove_options *o = s->o;
	if (o->update == UPDATE_NONE || o->update == UPDATE_NONE_FAIL)
		return true;
	if (o->remove_source)
		return (o->ask == ASK_USER ||
			(o->ask == ASK_UNSET && isatty(STDIN_FILENO) &&
			 !writable(s, dst, dst_st->st_mode))) &&
		       !overwrite_ok(s, dst, dst_st);
	return !S_ISDIR(src_st->st_mode) && o->ask == ASK_USER && !overwrite_ok(s, dst, dst_st);
}

/* Whether --update=older leaves dst (not older than the source) alone. */
static bool not_older(const struct spmove *s, const struct stat *st, const struct stat *dst_st)
{
	if (s->o->update != UPDATE_OLDER || S_ISDIR(st->st_mode))
		return false;
	if (dst_st->st_mtim.tv_sec != st->st_mtim.tv_sec)
		return dst_st->st_mtim.tv_sec > st->st_mtim.tv_sec;
	return dst_st->st_mtim.tv_nsec >= st->st_mtim.tv_nsec;
}

/* Stat dst as cp/mv look at it: through a symbolic link only when a
 * regular file is copied into it.  lstat(2) first, stat(2) only for a
 * link: a name that does not exist (as in a new tree) costs one call and
 * is known not to be a dangling link.  Returns 0, or 1 after a report. */
static int stat_dest(const struct spmove *s, const struct stat *st, const char *dst,
		     struct dest *d)
{
	const struct spmove_options *o = s->o;
	bool no_follow = !S_ISREG(st->st_mode) || o->remove_source || o->backup != BACKUP_NONE ||
			 o->remove_destination;
	*d = (struct dest){ 0 };
	if (lstat(dst, &d->st) < 0) {
		d->absent = errno == ENOENT;
		if (d->absent)
			return 0;
	} else if (no_follow || !S_ISLNK(d->st.st_mode)) {
		d->exists = true;
		d->followed = !no_follow;
		return 0;
	} else {
		struct stat link_st = d->st;
		if (stat(dst, &d->st) == 0) {
			d->exists = d->followed = true;
			return 0;
		}
		if (errno == ENOENT)
			return 0; /* a dangling link */
		/* cp -f onto a symbolic link loop replaces the link. */
		if (errno == ELOOP && o->force) {
			d->st = link_st;
			d->exists = true;
			return 0;
		}
	}
	cli_error(errno, "cannot stat %s", quoted(dst));
	return 1;
}

/* Status for a destination left alone: 0, or 1 after --update=none-fail's
 * message (or a "no" to -i, which GNU 9.11 counts as a failure). */
static int skipped(const struct spmove *s, const char *dst)
{
	if (s->o->update == UPDATE_NONE_FAIL)
		cli_error(0, "not replacing %s", quoted(dst));
	return s->o->update != UPDATE_NONE;
}

/*
 * Everything that may stop a copy onto an existing dst, or that happens to
 * dst first (a backup, a removal).  Returns 0 to go on, -1 to stop with
 * status 0 (a skipped file), SKIP_OLDER for a destination --update keeps,
 * or 1 after a reported error.
 */
enum { SKIP_OLDER = -2 };
static int check_existing(struct spmove *s, const char *src, const struct stat *st,
			  const char *dst, struct dest *d, bool command_line,
			  struct outcome *out)
{
	const struct spmove_options *o = s->o;
	bool move = o->remove_source;
	if (o->update != UPDATE_NONE && o->update != UPDATE_NONE_FAIL &&
	    !same_file_ok(s, src, st, dst, &d->st)) {
		cli_error(0, "%s and %s are the same file", quoted(src), quoted(dst));
		return 1;
	}
	if (not_older(s, st, &d->st)) {
		out->renamed = true; /* the source stays */
		return SKIP_OLDER;
	}
	if (skip_existing(s, dst, st, &d->st)) {
		out->renamed = true;
		return skipped(s, dst) ? 1 : -1;
	}
	bool src_dir = S_ISDIR(st->st_mode), dst_dir = S_ISDIR(d->st.st_mode);
	if (src_dir != dst_dir && o->backup == BACKUP_NONE) {
		if (src_dir)
			cli_error(0, "cannot overwrite non-directory %s with directory %s",
				  quoted(dst), quoted(src));
		else
			cli_error(0, "cannot overwrite directory %s with non-directory %s",
				  quoted(dst), quoted(src));
		return 1;
	}
	const char *made = dst_dir || !command_line ? NULL : seen_find(s->created, &d->st);
	if (made && o->backup != BACKUP_NUMBERED && !strcmp(made, dst)) {
		cli_error(0, "will not overwrite just-created %s with %s", quoted(dst), quoted(src));
		return 1;
	}
	char buf[PATH_MAX];
	const char *base;
	bool dots = path_split(src, buf, sizeof(buf), NULL, &base) == 0 &&
		    (!strcmp(base, ".") || !strcmp(base, ".."));
	if (o->backup != BACKUP_NONE && !dots && (move || !dst_dir)) {
		if (backup_is_source(o, src, st, dst)) {
			cli_error(0, "backing up %s might destroy source;  %s not %s", quoted(dst),
				  quoted(src), move ? "moved" : "copied");
			return 1;
		}
		d->backup = backup_rename(o, dst);
		if (!d->backup && errno != ENOENT) {
			cli_error(errno, "cannot backup %s", quoted(dst));
			return 1;
		}
		d->exists = false;
	} else if (!dst_dir && !move &&
		   (o->remove_destination ||
		    ((o->keep & KEEP_LINKS) && d->st.st_nlink > 1 && !d->followed) ||
		    (o->deref == DEREF_NEVER && !S_ISREG(st->st_mode)))) {
		if (unlink(dst) < 0 && errno != ENOENT) {
			cli_error(errno, "cannot remove %s", quoted(dst));
			return 1;
		}
		if (o->verbose)
			printf("removed %s\n", quoted(dst));
		d->exists = false;
	}
	return 0;
}

/* Make dst a hard link to earlier (the copy of another link of the same
 * source file), replacing what is there.  Returns 0 or 1. */
static int link_again(const struct spmove *s, const char *earlier, const char *dst)
{
	if (linkat(AT_FDCWD, earlier, AT_FDCWD, dst, 0) == 0)
		return 0;
	if (errno == EEXIST && unlink(dst) == 0 && linkat(AT_FDCWD, earlier, AT_FDCWD, dst, 0) == 0)
		return 0;
	cli_error(errno, "cannot create hard link %s to %s", quoted(dst), quoted(earlier));
	return 1;
}

/* Which earlier copy dst should be a hard link to, when one should:
 * links kept (-a, --preserve=links, every move), and the directory
 * copied into itself.  Records this copy for later ones. */
static const char *earlier_copy(struct spmove *s, const struct stat *st, const char *dst,
				bool command_line)
{
	const struct spmove_options *o = s->o;
	bool links = (o->keep & KEEP_LINKS) || o->remove_source;
	if (S_ISDIR(st->st_mode))
		return command_line ? seen_add(s->copies, st, dst) : seen_find(s->copies, st);
	if (o->remove_source && st->st_nlink == 1)
		return seen_find(s->copies, st);
	if (links && (st->st_nlink > 1 || (command_line && o->deref == DEREF_ARGS) ||
		      o->deref == DEREF_ALWAYS))
		return seen_add(s->copies, st, dst);
	return NULL;
}

/* A directory met again: refuse to copy it into itself, or to hard-link
 * it.  Returns -1 to go on (a directory reached twice through -L/-H), 0
 * to skip it (named twice), 1 after an error. */
static int directory_again(struct spmove *s, const char *src, const char *dst,
			   const char *earlier, const struct top *top, bool command_line,
			   struct outcome *out)
{
	if (same_entry(src, earlier)) {
		cli_error(0, "cannot copy a directory, %s, into itself, %s", quoted(top->src),
			  quoted(top->dst));
		out->into_self = true;
		return 1;
	}
	if (same_entry(dst, earlier)) {
		cli_error(0, "warning: source directory %s specified more than once",
			  quoted(top->src));
		out->renamed = s->o->remove_source;
		return 0;
	}
	if (follows(s, command_line))
		return -1;
	cli_error(0, "will not create hard link %s to directory %s", quoted(dst),
		  quoted(earlier));
	return 1;
}

/* Whether the directory dst is in may be written (errno says why not). */
static bool writable_dir(const char *dst)
{
	char buf[PATH_MAX];
	const char *dir, *base;
	return path_split(dst, buf, sizeof(buf), &dir, &base) ||
	       faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) == 0;
}

/* mv: rename src to dst.  Returns 0 when done, -1 when a copy is needed
 * (another file system), or 1 after a report. */
static int move_by_rename(struct spmove *s, const char *src, const struct stat *st,
			  const char *dst, struct dest *d, const struct top *top,
			  struct outcome *out)
{
	if (rename(src, dst) == 0) {
		if (s->o->verbose)
			verbose_pair("renamed ", src, dst, d->backup);
		if (s->o->fsync) {
			char buf[PATH_MAX];
			const char *dir, *base;
			int fd = path_split(dst, buf, sizeof(buf), &dir, &base) ? -1
				 : open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (fd >= 0) {
				fsync(fd);
				close(fd);
			}
		}
		seen_add(s->created, st, dst);
		out->renamed = true;
		return 0;
	}
	int err = errno;
	if (err == EINVAL) {
		cli_error(0, "cannot move %s to a subdirectory of itself, %s", quoted(top->src),
			  quoted(top->dst));
		out->into_self = true;
		return 1;
	}
	if (err == EXDEV && d->exists && !S_ISDIR(d->st.st_mode) && !writable_dir(dst)) {
		/* mv removes the target first: its directory must be writable. */
		cli_error(errno, "inter-device move failed: %s to %s; unable to remove target",
			  quoted(src), quoted(dst));
		return 1;
	}
	if (err == EXDEV) {
		/* As rename(2) would: an empty directory is replaced, a full one
		 * refuses.  A file is replaced by the copy's own rename. */
		if (d->exists && S_ISDIR(d->st.st_mode) && rmdir(dst) < 0 && errno != ENOENT) {
			cli_error(errno, "inter-device move failed: %s to %s; unable to remove target",
				  quoted(src), quoted(dst));
			return 1;
		}
		if (d->exists && S_ISDIR(d->st.st_mode))
			d->exists = false;
		return -1;
	}
	switch (err) {
	case EDQUOT: case EEXIST: case EISDIR: case EMLINK: case ENOSPC: case ETXTBSY:
	case ENOTEMPTY:
		cli_error(err, "cannot overwrite %s", quoted(dst));
		break;
	default:
		cli_error(err, "cannot move %s to %s", quoted(src), quoted(dst));
	}
	return 1;
}

/* Whether directory st is one of the directories being copied. */
static bool cyclic(const struct stat *st, const struct ancestor *up)
{
	for (; up; up = up->up)
		if (up->dev == st->st_dev && up->ino == st->st_ino)
			return true;
	return false;
}

/* Copy the directory src (st) to dst: make it (private until filled),
 * copy its entries, then give it its attributes.  Returns 0 or 1. */
static int copy_directory(struct spmove *s, const char *src, const struct stat *st,
			  const char *dst, const struct dest *d, const struct top *top,
			  const struct ancestor *up, struct outcome *out)
{
	const struct spmove_options *o = s->o;
	if (cyclic(st, up)) {
		cli_error(0, "cannot copy cyclic symbolic link %s", quoted(src));
		return 1;
	}
	bool made = !d->exists;
	if (made) {
		bool owner = (o->keep & KEEP_OWNER) || o->remove_source;
		mode_t mode = new_file_mode(s, st->st_mode) & ~(mode_t)(owner ? 077 : 022);
		if (mkdir(dst, mode | S_IRWXU) < 0) {
			cli_error(errno, "cannot create directory %s", quoted(dst));
			return 1;
		}
		/* Known, so that a copy into itself finds itself there. */
		struct stat made_st;
		if (!out->made_dir && stat(dst, &made_st) == 0) {
			seen_add(s->copies, &made_st, dst);
			out->made_dir = true;
		}
		if (o->verbose && o->remove_source)
			printf("created directory %s\n", quoted(dst));
		else if (o->verbose)
			verbose_pair("", src, dst, NULL);
	}
	struct ancestor here = { up, st->st_dev, st->st_ino };
	bool outer = s->in_new_dir;
	s->in_new_dir = made;
	int status = copy_children(s, src, dst, top, &here, out);
	s->in_new_dir = outer;
	int fd = open(dst, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int src_fd = open(src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		cli_error(errno, "cannot open %s", quoted(dst));
		status = 1;
	} else {
		status |= attrs_copy(s, src, src_fd, st, fd, dst, made);
		/* A new directory gets the source's mode (umask applied). */
		if (made && !keeps_mode(s) && fchmod(fd, new_file_mode(s, st->st_mode)) < 0) {
			cli_error(errno, "setting permissions for %s", quoted(dst));
			status = 1;
		}
		if ((o->fsync || o->remove_source) && fsync(fd) < 0) {
			cli_error(errno, "cannot sync %s", quoted(dst));
			status = 1;
		}
		close(fd);
	}
	if (src_fd >= 0)
		close(src_fd);
	return status;
}

/* Copy src (st) to dst by its type.  Returns 0 or 1. */
static int copy_by_type(struct spmove *s, const char *src, const struct stat *st,
			const char *dst, struct dest *d, const struct top *top,
			const struct ancestor *up, struct outcome *out)
{
	bool as_data = !s->o->recursive && !s->o->remove_source;
	if (s->progress)
		cli_progress_name(s->progress, src);
	switch (st->st_mode & S_IFMT) {
	case S_IFDIR:
		return copy_directory(s, src, st, dst, d, top, up, out);
	case S_IFLNK:
		return copy_symlink(s, src, dst, st);
	case S_IFREG:
		if (d->absent && pool_takes(s, st))
			return pool_copy(s, src, dst, false);
		return copy_regular(s, src, dst, d->exists ? &d->st : NULL, d->absent);
	case S_IFIFO: case S_IFCHR: case S_IFBLK:
		if (as_data)
			return copy_regular(s, src, dst, d->exists ? &d->st : NULL, d->absent);
		return copy_special(s, src, dst, st);
	case S_IFSOCK:
		return copy_special(s, src, dst, st);
	}
	cli_error(0, "%s has unknown file type", quoted(src));
	return 1;
}

/* Stat the source as the options say.  Returns 0 or 1 after a report. */
static int stat_source(const struct spmove *s, const char *src, bool command_line,
		       struct stat *st)
{
	if ((follows(s, command_line) ? stat(src, st) : lstat(src, st)) == 0)
		return 0;
	cli_error(errno, "cannot stat %s", quoted(src));
	return 1;
}

int copy_entry(struct spmove *s, const char *src, const char *dst, const struct top *top,
	       const struct ancestor *up, struct outcome *out)
{
	const struct spmove_options *o = s->o;
	bool command_line = !up;
	struct stat st;
	if (stat_source(s, src, command_line, &st))
		return 1;
	if (S_ISDIR(st.st_mode) && !o->recursive && !o->remove_source) {
		cli_error(0, "-r not specified; omitting directory %s", quoted(src));
		return 1;
	}
	if (command_line && !o->remove_source && !S_ISDIR(st.st_mode) &&
	    o->backup == BACKUP_NONE) {
		const char *before = seen_add(s->sources, &st, src);
		if (before && same_entry(before, src)) {
			cli_error(0, "warning: source file %s specified more than once", quoted(src));
			out->renamed = o->remove_source;
			return 0;
		}
	}
	/* In a directory this run made, as in cp, a name is known to be free
	 * without a look (should another process take it meanwhile, the copy
	 * replaces what it made, in one step). */
	struct dest d = { .absent = true };
	if (!(s->in_new_dir && !command_line) && stat_dest(s, &st, dst, &d))
		return 1;
	int rc = d.exists ? check_existing(s, src, &st, dst, &d, command_line, out) : 0;
	if (rc == SKIP_OLDER) {
		/* Kept by --update, yet hard links of the source are mirrored. */
		const char *earlier = S_ISDIR(st.st_mode) ? NULL
				      : earlier_copy(s, &st, dst, command_line);
		free(d.backup);
		return earlier && strcmp(earlier, dst) ? link_again(s, earlier, dst) : 0;
	}
	if (rc) {
		free(d.backup);
		return rc < 0 ? 0 : rc;
	}
	struct stat link_st;
	if (command_line && !o->remove_source && o->backup == BACKUP_NONE &&
	    lstat(dst, &link_st) == 0 &&
	    S_ISLNK(link_st.st_mode) && seen_find(s->created, &link_st)) {
		cli_error(0, "will not copy %s through just-created symlink %s", quoted(src),
			  quoted(dst));
		free(d.backup);
		return 1;
	}
	if (o->verbose && !o->remove_source && !S_ISDIR(st.st_mode))
		verbose_pair("", src, dst, d.backup);
	const char *earlier = earlier_copy(s, &st, dst, command_line);
	if (earlier && S_ISDIR(st.st_mode)) {
		rc = directory_again(s, src, dst, earlier, top, command_line, out);
		if (rc >= 0) {
			free(d.backup);
			return rc;
		}
	} else if (earlier) {
		free(d.backup);
		return link_again(s, earlier, dst);
	}
	if (o->remove_source && command_line) {
		rc = move_by_rename(s, src, &st, dst, &d, top, out);
		if (rc >= 0) {
			free(d.backup);
			return rc;
		}
	}
	if (o->remove_source && o->verbose && !S_ISDIR(st.st_mode))
		verbose_pair("copied ", src, dst, d.backup);
	rc = copy_by_type(s, src, &st, dst, &d, top, up, out);
	if (rc && o->remove_source)
		seen_forget(s->copies, &st);
	struct stat made;
	if (!rc && command_line && lstat(dst, &made) == 0)
		seen_add(s->created, &made, dst);
	free(d.backup);
	return rc;
}
