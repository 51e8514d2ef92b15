/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Removing a directory tree, as rm -r does, without following symbolic
 * links. */
#ifndef SPLICE_UTILS_RMTREE_H
#define SPLICE_UTILS_RMTREE_H

#include <stdbool.h>
#include <sys/stat.h>

/*
 * Remove name (relative to dirfd, or AT_FDCWD) and, when it is a
 * directory, everything under it.  Symbolic links are removed, never
 * followed.  However deep the tree, at most 5 descriptors are open at
 * once: deep directories are reached again through "..", checked to be
 * the directory left.  Stops at the first failure and returns its
 * negative errno (-ENOENT when a directory on the way back up is no longer
 * the one that was entered: the tree was moved meanwhile); returns 0 on
 * success.
 */
int rm_tree_at(int dirfd, const char *name);

/* Told of each file or directory rm_tree_at_told() removed, by its path
 * from the name it was given ("t/sub/y"). */
typedef void rm_tree_removed(const char *path, bool is_dir, void *arg);

/* rm_tree_at(), telling removed (with arg) of each removal as it happens. */
int rm_tree_at_told(int dirfd, const char *name, rm_tree_removed *removed, void *arg);

/* Asked (with the arg given) before a directory is emptied, with the
 * fstat of the directory as opened (top: the tree's top itself): whether
 * it may be.  A directory swapped in for the one meant is then left,
 * whole. */
typedef bool rm_tree_check(const struct stat *st, bool top, void *arg);

/* rm_tree_at_told(), emptying only the directories check allows
 * (-ESTALE, the removal stopped there, for one it does not). */
int rm_tree_at_checked(int dirfd, const char *name, rm_tree_removed *removed,
		       rm_tree_check *check, void *arg);

#endif
