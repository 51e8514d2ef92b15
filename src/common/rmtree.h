/* Removing a directory tree, as rm -r does, without following symbolic
 * links. */
#ifndef SPLICE_UTILS_RMTREE_H
#define SPLICE_UTILS_RMTREE_H

/*
 * Remove name (relative to dirfd, or AT_FDCWD) and, when it is a
 * directory, everything under it.  Symbolic links are removed, never
 * followed.  However deep the tree, at most 17 descriptors are open at
 * once: deep directories are reached again through "..", checked to be
 * the directory left.  Stops at the first failure and returns its errno
 * value (ENOENT when a directory on the way back up is no longer the one
 * that was entered: the tree was moved meanwhile); returns 0 on success.
 */
int rm_tree_at(int dirfd, const char *name);

#endif
