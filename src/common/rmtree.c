/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Removing a directory tree, as rm -r does, without following symbolic
 * links. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rmtree.h"

/* How many directories of the current path stay open; the ones above them
 * are closed and opened again through ".." on the way back.  When an open
 * fails for want of descriptors (EMFILE), the highest open one but the
 * deepest goes first, down to two: rm's budget. */
enum { OPEN_LEVELS = 4 };

/* One directory on the path from the top of the tree down to the one
 * being emptied. */
struct level {
	DIR *dir;                /* NULL while closed (too far up) */
	dev_t dev;               /* which directory it is */
	ino_t ino;
	char name[NAME_MAX + 1]; /* its name in the level above (not for the top) */
};

/* The removal: the path from the top down to the directory being read. */
struct walk {
	int top_dirfd;           /* rm_tree_at()'s arguments */
	const char *top_name;
	struct level *levels;    /* levels[0] is the top */
	size_t depth, allocated;
	rm_tree_removed *removed; /* told of each removal, or NULL */
	rm_tree_check *check;    /* asked before a directory is emptied, or NULL */
	void *arg;
};

/* Tell w's caller that name in the deepest directory (the top itself when
 * name is NULL) was removed, by its path from the top's name. */
static void tell(const struct walk *w, const char *name, bool is_dir)
{
	if (!w->removed)
		return;
	char path[PATH_MAX];
	size_t len = (size_t)snprintf(path, sizeof(path), "%s", w->top_name);
	for (size_t i = 1; i < w->depth && len < sizeof(path); i++)
		len += (size_t)snprintf(path + len, sizeof(path) - len, "/%s", w->levels[i].name);
	if (name && len < sizeof(path))
		snprintf(path + len, sizeof(path) - len, "/%s", name);
	w->removed(path, is_dir, w->arg);
}

/* The descriptor of the deepest directory, or of the top's parent. */
static int deepest_fd(const struct walk *w)
{
	return w->depth ? dirfd(w->levels[w->depth - 1].dir) : w->top_dirfd;
}

/* Close the highest directory still open above the deepest, to make room
 * for another descriptor.  Returns whether there was one. */
static bool let_go(struct walk *w)
{
	for (size_t i = 0; i + 1 < w->depth; i++) {
		if (w->levels[i].dir) {
			closedir(w->levels[i].dir);
			w->levels[i].dir = NULL;
			return true;
		}
	}
	return false;
}

/* Open the directory name in the deepest one (never through a symbolic
 * link) as the new deepest, closing the level that is now more than
 * OPEN_LEVELS up.  Returns 0 or an errno value. */
static int enter(struct walk *w, const char *name)
{
	if (w->depth == w->allocated) {
		size_t n = w->allocated ? 2 * w->allocated : OPEN_LEVELS;
		struct level *grown = realloc(w->levels, n * sizeof(*grown));
		if (!grown)
			return ENOMEM;
		w->levels = grown;
		w->allocated = n;
	}
	struct level *l = &w->levels[w->depth];
	struct stat st;
	int fd;
	do
		fd = openat(deepest_fd(w), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	while (fd < 0 && errno == EMFILE && let_go(w));
	if (fd < 0 || fstat(fd, &st) < 0 || !(l->dir = fdopendir(fd))) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		return err;
	}
	/* Only a directory the caller identified is emptied: one swapped in
	 * for it is left as it is. */
	if (w->check && !w->check(&st, w->depth == 0, w->arg)) {
		closedir(l->dir);
		return ESTALE;
	}
	l->dev = st.st_dev;
	l->ino = st.st_ino;
	if (w->depth)
		strcpy(l->name, name); /* a d_name: at most NAME_MAX bytes */
	/* The open levels are the deepest ones, without gaps: closing the one
	 * OPEN_LEVELS up (unless it was closed before, on an earlier way down,
	 * or by let_go()) keeps them OPEN_LEVELS at most. */
	if (++w->depth > OPEN_LEVELS) {
		struct level *old = &w->levels[w->depth - 1 - OPEN_LEVELS];
		if (old->dir)
			closedir(old->dir);
		old->dir = NULL;
	}
	return 0;
}

/* Remove name from the deepest directory, or enter it when it is a
 * directory itself.  Returns 0 or an errno value. */
static int remove_or_enter(struct walk *w, const char *name)
{
	if (unlinkat(deepest_fd(w), name, 0) == 0) {
		tell(w, w->depth ? name : NULL, false);
		return 0;
	}
	int err = errno;
	if (err != EISDIR && err != EPERM)
		return err;
	/* EPERM for something that is no directory stays EPERM. */
	int entered = enter(w, name);
	return entered == ENOTDIR ? err : entered;
}

/* Open the level above the deepest again, through "..", when it was
 * closed, and check that it is still the directory it was.  Returns 0 or
 * an errno value. */
static int reopen_parent(struct walk *w)
{
	struct level *up = &w->levels[w->depth - 2];
	if (up->dir)
		return 0;
	struct stat st;
	int fd = openat(deepest_fd(w), "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int err = fd < 0 || fstat(fd, &st) < 0 ? errno : 0;
	if (!err && (st.st_dev != up->dev || st.st_ino != up->ino))
		err = ENOENT;
	if (!err && !(up->dir = fdopendir(fd)))
		err = errno;
	if (err && fd >= 0)
		close(fd);
	return err;
}

/* Close the deepest directory, now empty, and remove it from the one
 * above.  Returns 0 or an errno value. */
static int leave(struct walk *w)
{
	int err = w->depth > 1 ? reopen_parent(w) : 0;
	struct level *l = &w->levels[--w->depth];
	closedir(l->dir);
	if (!err && unlinkat(deepest_fd(w), w->depth ? l->name : w->top_name, AT_REMOVEDIR) < 0)
		err = errno;
	if (!err)
		tell(w, w->depth ? l->name : NULL, true);
	return err;
}

int rm_tree_at(int dirfd, const char *name)
{
	return rm_tree_at_told(dirfd, name, NULL, NULL);
}

int rm_tree_at_told(int dirfd, const char *name, rm_tree_removed *removed, void *arg)
{
	return rm_tree_at_checked(dirfd, name, removed, NULL, arg);
}

int rm_tree_at_checked(int dirfd, const char *name, rm_tree_removed *removed,
		       rm_tree_check *check, void *arg)
{
	struct walk w = { .top_dirfd = dirfd, .top_name = name, .removed = removed,
			  .check = check, .arg = arg };
	int err = remove_or_enter(&w, name);
	while (!err && w.depth) {
		errno = 0;
		struct dirent *e = readdir(w.levels[w.depth - 1].dir);
		if (!e)
			err = errno ? errno : leave(&w);
		else if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			err = remove_or_enter(&w, e->d_name);
	}
	while (w.depth--)
		if (w.levels[w.depth].dir)
			closedir(w.levels[w.depth].dir);
	free(w.levels);
	return -err;
}
