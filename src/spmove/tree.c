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
 * type the directory lists (d_type) plus 1.  fd (which may be O_PATH)
 * stays open.  Returns NULL
 * with errno set on failure. */
static char *read_names(int fd)
{
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

/* Wait for the workers' copies and copy what they gave back the usual
 * way.  Returns 0 or 1 when one of them failed (reported). */
static int pool_settle(struct spmove *s, const struct top *top, struct outcome *out)
{
	int status = pool_wait(s);
	struct loc src, dst;
	struct ancestor *up;
	struct job *j;
	bool again = false;
	while ((j = pool_again(s, &src, &dst, &up))) {
		if (!spmove_cancel && !out->into_self)
			status |= copy_entry(s, &src, &dst, top, up, out, NULL);
		pool_job_free(j);
		again = true;
	}
	if (again)
		status |= pool_wait(s);
	return status;
}

int tree_enter(struct spmove *s, struct ancestor *here, const struct top *top,
	       struct outcome *out)
{
	struct ancestor *far = above(here, tree_window());
	if (!far || far->src_fd < 0)
		return 0;
	/* Copies handed over from there still name it by descriptor. */
	int status = pool_settle(s, top, out);
	close(far->src_fd);
	close(far->dst_fd);
	far->src_fd = far->dst_fd = -1;
	return status;
}

/* Open ".." of fd, checked to be the directory (dev, ino).  Returns the
 * descriptor, or a negative errno (-ESTALE: another directory). */
static int open_parent(int fd, dev_t dev, ino_t ino)
{
	struct stat st;
	int parent = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (parent < 0)
		return -errno;
	if (fstat(parent, &st) == 0 && st.st_dev == dev && st.st_ino == ino)
		return parent;
	close(parent);
	return -ESTALE;
}

int tree_leave(struct ancestor *here, const struct loc *src)
{
	struct ancestor *far = above(here, tree_window());
	if (!far || far->src_fd >= 0)
		return 0;
	struct ancestor *near = above(here, tree_window() - 1);
	int src_fd = open_parent(near->src_fd, far->dev, far->ino);
	int dst_fd = src_fd < 0 ? src_fd
		     : open_parent(near->dst_fd, far->dst_st.st_dev, far->dst_st.st_ino);
	if (dst_fd >= 0) {
		far->src_fd = src_fd;
		far->dst_fd = dst_fd;
		return 0;
	}
	cli_error(dst_fd == -ESTALE ? 0 : -dst_fd, "cannot return to the directory above %s%s",
		  quoted(src->path), dst_fd == -ESTALE ? ": it was moved meanwhile" : "");
	if (src_fd >= 0)
		close(src_fd);
	far->src_fd = far->dst_fd = -1;
	return 1;
}

int copy_children(struct spmove *s, const struct loc *src, const struct loc *dst,
		  const struct top *top, struct ancestor *here, struct outcome *out)
{
	char *names = read_names(here->src_fd);
	if (!names) {
		cli_error(errno, "cannot access %s", quoted(src->path));
		return 1;
	}
	int status = 0;
	s->tree_depth++;
	/* Files listed as regular in a directory the run made go straight to
	 * the copy workers: no lstat(2) here, no look at the free name. */
	bool listed = pool_takes_listed(s);
	char *from = malloc(PATH_MAX), *to = malloc(PATH_MAX);
	for (const char *name = names; from && to && *name && !spmove_cancel && !out->into_self;
	     name += strlen(name) + 1) {
		unsigned char type = (unsigned char)*name++ - 1;
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
		enum step rc = listed && type == DT_REG
			       ? pool_copy(s, &child_src, NULL, false, &child_dst, NULL, here, true)
			       : STEP_GO_ON;
		status |= rc == STEP_GO_ON
			  ? copy_entry(s, &child_src, &child_dst, top, here, out, NULL)
			  : rc == STEP_FAILED;
	}
	if (!from || !to) {
		cli_error(ENOMEM, "cannot copy %s", quoted(src->path));
		status = 1;
	}
	free(from);
	free(to);
	free(names);
	/* The workers' copies end before the directory gets its attributes;
	 * what they gave back is copied the usual way. */
	status |= pool_settle(s, top, out);
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
