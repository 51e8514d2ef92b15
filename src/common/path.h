/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Paths taken apart and put together: a directory and a name in it. */
#ifndef SPLICE_UTILS_PATH_H
#define SPLICE_UTILS_PATH_H

#include <stddef.h>

/*
 * Split path into its directory and its last component, as dirname(1) and
 * basename(1) do: trailing slashes do not count ("a/b/" is "a" and "b"),
 * a path without a slash is in "." ("b" is "." and "b"), and "/" is "/"
 * and "/".  The parts are written into buf (size bytes); *dir (when dir is
 * not NULL) and *base then point into buf or to a constant string.
 * Returns 0, or -ENAMETOOLONG when path does not fit in buf.
 */
int path_split(const char *path, char *buf, size_t size, const char **dir, const char **base);

/* Write "DIR/NAME" into buf (size bytes); a DIR that ends in a slash gets
 * no second one.  Returns 0, or -ENAMETOOLONG when
 * it does not fit (buf then holds a truncated path). */
int path_join(char *buf, size_t size, const char *dir, const char *name);

#endif
