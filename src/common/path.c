/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Paths taken apart and put together: a directory and a name in it. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "path.h"

int path_split(const char *path, char *buf, size_t size, const char **dir, const char **base)
{
	size_t len = strlen(path);
	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	while (len > 1 && buf[len - 1] == '/')
		buf[--len] = '\0';
	char *slash = strrchr(buf, '/');
	const char *d = ".";
	*base = buf;
	if (slash && slash[1]) {
		*base = slash + 1;
		while (slash > buf && slash[-1] == '/')
			slash--;
		if (slash == buf) {
			d = "/";
		} else {
			*slash = '\0';
			d = buf;
		}
	} else if (slash) {
		d = "/"; /* the path is "/" */
	}
	if (dir)
		*dir = d;
	return 0;
}

int path_join(char *buf, size_t size, const char *dir, const char *name)
{
	size_t len = strlen(dir), name_len = strlen(name);
	size_t slash = len && dir[len - 1] == '/' ? 0 : 1;
	if (len + slash + name_len >= size) {
		/* What fits, for the message that names it. */
		snprintf(buf, size, "%s%s%s", dir, slash ? "/" : "", name);
		return -ENAMETOOLONG;
	}
	/* Twice for each file of a tree, in the walker: no printf. */
	memcpy(buf, dir, len);
	if (slash)
		buf[len] = '/';
	memcpy(buf + len + slash, name, name_len + 1);
	return 0;
}
