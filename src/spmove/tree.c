/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove -r: the entries of a directory, each copied in turn; and the
 * source of a move across file systems removed once all of it is copied. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "message.h"
#include "path.h"
#include "rmtree.h"
#include "spmove.h"

/* The names in the directory fd (not . and ..), as one block of
 * NUL-terminated strings ending in an empty one, each after one byte: the
 * type the directory lists (d_type) plus 1, and in *regular and *dirs how
 * many are listed as regular files (or not said) and as directories.  fd
 * (which may be O_PATH) stays open.  Returns NULL with errno set on
 * failure. */
static char *read_names(int fd, size_t *regular, size_t *dirs)
{
	*regular = *dirs = 0;
	int own = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = own < 0 ? NULL : fdopendir(own);
	if (!d) {
		int err = errno;
		if (own >= 0)
			close(own);
		errno = err;
		return NULL;
	}
	size_t size = 4096, used = 0;
	char *names = malloc(size);
	struct dirent *e;
	int err = names ? 0 : ENOMEM;
	while (!err && (errno = 0, e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		size_t len = strlen(e->d_name) + 1;
		if (used + len + 2 > size) {
			char *bigger = realloc(names, size *= 2);
			if (!bigger) {
				err = ENOMEM;
				break;
			}
			names = bigger;
		}
		*regular += e->d_type == DT_REG || e->d_type == DT_UNKNOWN;
		*dirs += e->d_type == DT_DIR;
		names[used++] = (char)(e->d_type + 1);
		memcpy(names + used, e->d_name, len);
		used += len;
	}
	if (!err)
		err = errno;
	closedir(d);
	if (err) {
		free(names);
		errno = err;
		return NULL;
	}
	names[used] = '\0';
	return names;
}

/* How many levels of a tree keep their two directories open: as many as
 * the descriptor limit leaves room for beside the files being copied, at
 * most 64; under a very low limit only the innermost (a 60-level tree
 * copies under ulimit -n 12, as with cp). */
static unsigned tree_window(void)
{
	static unsigned window;
	if (!window) {
		struct rlimit r;
		rlim_t n = getrlimit(RLIMIT_NOFILE, &r) == 0 ? r.rlim_cur : 64;
		window = n < 32 ? 1 : n > 32 + 4 * 64 ? 64 : (unsigned)(n - 32) / 4 + 1;
	}
	return window;
}

/* The ancestor n levels above here, or NULL. */
static struct ancestor *above(struct ancestor *here, unsigned n)
{
	while (here && n--)
		here = here->up;
	return here;
}

int tree_settle(struct spmove *s, struct ancestor *dir, const struct top *top,
		struct outcome *out)
{
	int status = dir ? pool_wait_dir(s, dir) : pool_wait(s);
	struct loc src, dst;
	struct ancestor *up;
	struct job *j;
	bool again = false, made, here_made = s->in_new_dir;
	while ((j = pool_again(s, &src, &dst, &up, &made))) {
		/* As in the directory that listed it, which may be above this
		 * one: whether its names are known to be free. */
		s->in_new_dir = made;
		s->given_back = true;
		if (!spmove_cancel && !out->into_self)
			status |= copy_entry(s, &src, &dst, top, up, out, NULL);
		s->given_back = false;
		s->in_new_dir = here_made;
		pool_job_free(j);
		again = true;
	}
	if (again)
		status |= pool_wait(s);
	/* Then the replaced files waiting for their barrier take their
	 * names, while their directories are still open. */
	return status | batch_commit(s->batch);
}

int tree_enter(struct spmove *s, struct ancestor *here, const struct top *top,
	       struct outcome *out)
{
	struct ancestor *far = above(here, tree_window());
	if (!far || far->src_fd < 0)
		return 0;
	/* Copies handed over from there still name it by descriptor. */
	int status = copy_finish_deferred(s);
	status |= tree_settle(s, NULL, top, out);
	close(far->src_fd);
	far->src_fd = -1;
	return status;
}

void tree_entered(struct ancestor *here)
{
	struct ancestor *far = above(here, tree_window());
	if (far && far->dst_fd >= 0) {
		close(far->dst_fd);
		far->dst_fd = -1;
	}
}

/* Open ".." of fd, checked to be the directory (dev, ino).  Returns the
 * descriptor, or a negative errno (-ESTALE: another directory). */
static int open_parent(int fd, dev_t dev, ino_t ino)
{
	struct stat st;
	if (fd < 0)
		return -EBADF;
	int parent = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (parent < 0)
		return -errno;
	if (fstat(parent, &st) == 0 && st.st_dev == dev && st.st_ino == ino)
		return parent;
	close(parent);
	return -ESTALE;
}

/* Take back into *fd the descriptor of far's side that open_parent() gave
 * (or its error); own: *near is here's own, closed once not needed.
 * Returns 0 or the negative errno. */
static int take_parent(int got, int *fd, int *near, bool own)
{
	if (got < 0)
		return got;
	*fd = got;
	if (own) {
		close(*near);
		*near = -1;
	}
	return 0;
}

static int reopen_src(const struct ancestor *a, bool *temp);

int tree_leave(struct ancestor *here, const struct loc *src)
{
	struct ancestor *far = above(here, tree_window());
	if (!far || (far->src_fd >= 0 && far->dst_fd >= 0))
		return 0;
	struct ancestor *near = above(here, tree_window() - 1);
	/* One pair and one descriptor at most: each of here's goes as soon
	 * as its parent is back. */
	bool own = near == here;
	int err = 0;
	if (far->src_fd < 0 && near->follow) {
		/* Reached through a link (-L): ".." is the link target's
		 * parent, not far; walk down to far again instead. */
		if (own) {
			close(near->src_fd);
			near->src_fd = -1;
		}
		bool temp;
		err = reopen_src(far, &temp);
		if (err >= 0) {
			far->src_fd = err;
			err = 0;
		}
	} else if (far->src_fd < 0) {
		err = take_parent(open_parent(near->src_fd, far->dev, far->ino), &far->src_fd,
				  &near->src_fd, own);
	}
	if (!err && far->dst_fd < 0)
		err = take_parent(open_parent(near->dst_fd, far->dst_st.st_dev, far->dst_st.st_ino),
				  &far->dst_fd, &near->dst_fd, own);
	if (!err)
		return 0;
	cli_error(err == -ESTALE ? 0 : -err, "cannot return to the directory above %s%s",
		  quoted(src->path), err == -ESTALE ? ": it was moved meanwhile" : "");
	if (far->src_fd >= 0)
		close(far->src_fd);
	if (far->dst_fd >= 0)
		close(far->dst_fd);
	far->src_fd = far->dst_fd = -1;
	return 1;
}

/* Whether descriptors are so few that a file's copy is made with its
 * source directory closed: a limit under 8, or under 64 with fewer than
 * three free when first asked (the top directory's copy open: a parent
 * may have left some open).  Three descriptors beside 0-2 are then
 * enough, as for cp, which holds no directory open. */
static bool tree_tight(void)
{
	static int tight = -1;
	if (tight < 0) {
		struct rlimit r;
		tight = 0;
		if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < 64) {
			int free = 0;
			for (int fd = 0; fd < (int)r.rlim_cur; fd++)
				free += fcntl(fd, F_GETFD) < 0 && errno == EBADF;
			tight = r.rlim_cur < 8 || free < 3;
		}
	}
	return tight;
}

bool tree_may_defer(unsigned depth)
{
	return !tree_tight() && depth < tree_window();
}

bool tree_let_go_operand(const struct loc *dst, const struct ancestor *here, struct stat *was)
{
	/* ".." of the copy is that directory unless the copy is it (".")
	 * or above it (".."). */
	if (here->up || !tree_tight() || dst->dir < 0 || !strcmp(dst->name, ".") ||
	    !strcmp(dst->name, "..") || fstat(dst->dir, was) < 0)
		return false;
	close(dst->dir);
	return true;
}

int tree_take_back_operand(const struct loc *dst, struct ancestor *here, const struct stat *was)
{
	/* Done with the source: one more free descriptor. */
	if (here->src_fd >= 0)
		close(here->src_fd);
	here->src_fd = -1;
	/* The copy's descriptor may have the operand's number by now; it may
	 * be gone too (the tree moved: reported). */
	int fd = here->dst_fd < 0 ? -EBADF : 0;
	if (here->dst_fd == dst->dir) {
		int moved = fcntl(here->dst_fd, F_DUPFD_CLOEXEC, 3);
		if (moved < 0) {
			cli_error(errno, "cannot return to the directory above %s", quoted(dst->path));
			return 1;
		}
		close(here->dst_fd);
		here->dst_fd = moved;
	}
	if (fd == 0)
		fd = open_parent(here->dst_fd, was->st_dev, was->st_ino);
	if (fd >= 0 && fd != dst->dir) {
		if (dup3(fd, dst->dir, O_CLOEXEC) < 0) {
			int err = -errno;
			close(fd);
			fd = err;
		} else {
			close(fd);
		}
	}
	if (fd >= 0)
		return 0;
	if (here->dst_fd >= 0)
		cli_error(fd == -ESTALE ? 0 : -fd, "cannot return to the directory above %s%s",
			  quoted(dst->path), fd == -ESTALE ? ": it was moved meanwhile" : "");
	/* Its number names no directory meanwhile: nothing more is made or
	 * removed through it (the *at calls fail with ENOTDIR). */
	fd = open("/dev/null", O_PATH | O_CLOEXEC);
	if (fd >= 0 && fd != dst->dir) {
		(void)dup3(fd, dst->dir, O_CLOEXEC);
		close(fd);
	}
	return 1;
}

/* Open a's source directory: its own descriptor when open (*temp false),
 * else (*temp true, the caller closes it) from its parent's, opened the
 * same way in turn, or at the top from the operand's directory: by one
 * name at a time, never following a link that the first walk did not,
 * each checked to be the directory seen then (device, inode), so that a
 * directory swapped for a link or another directory is never entered.
 * Returns the descriptor or a negative errno (-ESTALE: another one). */
static int reopen_src(const struct ancestor *a, bool *temp)
{
	*temp = false;
	if (a->src_fd >= 0)
		return a->src_fd;
	if (!a->src_loc)
		return -ESTALE;
	int at = a->src_loc->dir;
	bool at_temp = false;
	if (a->up) {
		at = reopen_src(a->up, &at_temp);
		if (at < 0)
			return at;
	}
	int flags = O_DIRECTORY | O_CLOEXEC | O_NOCTTY | (a->follow ? 0 : O_NOFOLLOW);
	int fd = openat(at, a->src_loc->name, O_RDONLY | flags);
	if (fd < 0 && errno == EACCES)
		fd = openat(at, a->src_loc->name, O_PATH | flags);
	int err = fd < 0 ? -errno : 0;
	if (at_temp)
		close(at);
	struct stat st;
	if (!err && (fstat(fd, &st) < 0 || st.st_dev != a->dev || st.st_ino != a->ino ||
		     !S_ISDIR(st.st_mode)))
		err = -ESTALE;
	if (err) {
		if (fd >= 0)
			close(fd);
		return err;
	}
	*temp = true;
	return fd;
}

/* Open here's source directory again after a file's copy let it go
 * (SPARE_CLOSED).  Returns 0, or 1 after a report. */
static int reopen_here(struct ancestor *here, const struct loc *src)
{
	bool temp;
	int fd = reopen_src(here, &temp);
	here->src_fd = fd < 0 ? -1 : fd;
	if (fd >= 0)
		return 0;
	cli_error(fd == -ESTALE ? 0 : -fd, "cannot return to the directory %s%s", quoted(src->path),
		  fd == -ESTALE ? ": it was moved meanwhile" : "");
	return 1;
}

int copy_children(struct spmove *s, const struct loc *src, const struct loc *dst,
		  const struct top *top, struct ancestor *here, struct outcome *out, bool settle)
{
	size_t regular, dirs;
	char *names = read_names(here->src_fd, &regular, &dirs);
	if (!names) {
		cli_error(errno, "cannot access %s", quoted(src->path));
		return 1;
	}
	int status = 0;
	s->tree_depth++;
	/* Files listed as regular go straight to the copy workers, with no
	 * lstat(2) here: in a directory the run made, to names known to be
	 * free; in one that was there, the worker looks at the name. */
	pool_expect(s, regular, dirs);
	enum listed listed = pool_takes_listed(s);
	/* The files a worker replaces here may be born with their mode. */
	here->dst_plain = listed == LISTED_LOOK && here->dst_fd >= 0 && copy_dir_plain(here->dst_fd);
	bool tight = tree_tight();
	/* Under a very low limit, directories are let go between the
	 * commits: each replaced file is made durable alone. */
	struct batch *outer_batch = s->c.batch;
	s->c.batch = tight ? NULL : s->batch;
	char *from = malloc(PATH_MAX), *to = malloc(PATH_MAX);
	for (const char *name = names; from && to && *name && !spmove_cancel && !out->into_self;
	     name += strlen(name) + 1) {
		unsigned char type = (unsigned char)*name++ - 1;
		if (here->src_fd == SPARE_CLOSED && reopen_here(here, src)) {
			status = 1;
			break;
		}
		if (here->src_fd < 0) {
			status = 1; /* the tree moved: reported by tree_leave() */
			break;
		}
		struct loc child_src, child_dst;
		int err = loc_child(src, here->src_fd, name, from, PATH_MAX, &child_src);
		if (!err)
			err = loc_child(dst, here->dst_fd, name, to, PATH_MAX, &child_dst);
		if (err) {
			cli_error(-err, "cannot copy %s", quoted(from));
			status = 1;
			continue;
		}
		child_dst.dir_dev = here->dst_st.st_dev;
		/* Workers started by a file of this directory take the rest
		 * of its files unlooked at where the names are free. */
		if (!listed && s->pool && s->in_new_dir)
			listed = pool_takes_listed(s) == LISTED_FREE ? LISTED_FREE : LISTED_NO;
		enum step rc = listed && type == DT_REG
			       ? pool_copy(s, &child_src, NULL, false, &child_dst, NULL, here, listed)
			       : STEP_GO_ON;
		/* Under a very low limit a file's copy lets the source
		 * directory go (opened again above for the next name). */
		s->c.spare_dir = tight ? &here->src_fd : NULL;
		status |= rc == STEP_GO_ON
			  ? copy_entry(s, &child_src, &child_dst, top, here, out, NULL)
			  : rc == STEP_FAILED;
		s->c.spare_dir = NULL;
	}
	/* The caller gives the directory its attributes through it. */
	if (here->src_fd == SPARE_CLOSED && reopen_here(here, src))
		status = 1;
	if (!from || !to) {
		cli_error(ENOMEM, "cannot copy %s", quoted(src->path));
		status = 1;
	}
	free(from);
	free(to);
	free(names);
	/* The workers' copies end before the directory gets its attributes;
	 * what they gave back is copied the usual way. */
	if (settle)
		status |= tree_settle(s, NULL, top, out);
	s->c.batch = outer_batch;
	s->tree_depth--;
	return status;
}

/* What remove_source() may empty: the top it identified, and below it only
 * the directories the move copied; and -v's prefix of the paths. */
struct removal {
	const struct spmove *s;
	const struct stat *top;
	char prefix[PATH_MAX];   /* the path's directory part */
};

/* -v: what rm -v says of each removal. */
static void say_removed(const char *path, bool is_dir, void *arg)
{
	const struct removal *r = arg;
	char whole[PATH_MAX];
	snprintf(whole, sizeof(whole), "%s%s", r->prefix, path);
	printf(is_dir ? "removed directory %s\n" : "removed %s\n", quoted(whole));
}

static bool copied_dir(const struct stat *st, bool top, void *arg)
{
	const struct removal *r = arg;
	if (top)
		return same_inode(st, r->top);
	return seen_find(r->s->moved_dirs, st) != NULL;
}

int remove_source(const struct spmove *s, const struct loc *src, const struct stat *st)
{
	/* Only what was copied: a name that has another file now stays. */
	struct stat now;
	int err = loc_stat(src, &now, false);
	if (!err && (!same_inode(st, &now) || (st->st_mode & S_IFMT) != (now.st_mode & S_IFMT)))
		err = -ESTALE;
	struct removal r = { s, st, "" };
	snprintf(r.prefix, sizeof(r.prefix), "%.*s", (int)loc_dir_len(src), src->path);
	if (!err)
		err = rm_tree_at_checked(src->dir, src->name, s->c.o->verbose ? say_removed : NULL,
					 copied_dir, &r);
	if (err == -ESTALE) {
		cli_error(0, "cannot remove %s: it was replaced while being moved",
			  quoted(src->path));
		return 1;
	}
	if (err) {
		cli_error(-err, "cannot remove %s", quoted(src->path));
		return 1;
	}
	return 0;
}
