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
#include <unistd.h>

#include "message.h"
#include "path.h"
#include "rmtree.h"
#include "spmove.h"

/* The names in directory path (not . and ..), as one block of
 * NUL-terminated strings ending in an empty one, each after one byte: the
 * type the directory lists (d_type) plus 1; the directory is closed again.
 * Returns NULL with errno set on failure. */
static char *read_names(const char *path)
{
	DIR *d = opendir(path);
	if (!d)
		return NULL;
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

int copy_children(struct spmove *s, const char *src, const char *dst, const struct top *top,
		  const struct ancestor *up, struct outcome *out)
{
	char *names = read_names(src);
	if (!names) {
		cli_error(errno, "cannot access %s", quoted(src));
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
		int err = path_join(from, PATH_MAX, src, name);
		if (!err)
			err = path_join(to, PATH_MAX, dst, name);
		if (err) {
			cli_error(err, "cannot copy %s", quoted(from));
			status = 1;
			continue;
		}
		int rc = listed && type == DT_REG ? pool_copy(s, from, to, true) : COPY_LOOK_AGAIN;
		status |= rc == COPY_LOOK_AGAIN ? copy_entry(s, from, to, top, up, out) : rc;
	}
	if (!from || !to) {
		cli_error(ENOMEM, "cannot copy %s", quoted(src));
		status = 1;
	}
	free(from);
	free(to);
	free(names);
	/* The workers' copies end before the directory gets its attributes;
	 * what they gave back is copied the usual way. */
	status |= pool_wait(s);
	char *again_src, *again_dst;
	bool again = false;
	while (pool_again(s, &again_src, &again_dst)) {
		if (!spmove_cancel && !out->into_self)
			status |= copy_entry(s, again_src, again_dst, top, up, out);
		free(again_src);
		free(again_dst);
		again = true;
	}
	if (again)
		status |= pool_wait(s);
	/* The directory copy.c kept open for dst's files: the caller's next
	 * file goes elsewhere. */
	dir_memo_forget(s);
	s->tree_depth--;
	return status;
}

/* -v: what rm -v says of each removal. */
static void say_removed(const char *path, bool is_dir, void *arg)
{
	printf(is_dir ? "removed directory %s\n" : "removed %s\n", quoted(path));
}

int remove_source(const struct spmove *s, const char *path)
{
	int err = rm_tree_at_told(AT_FDCWD, path, s->o->verbose ? say_removed : NULL, NULL);
	if (err) {
		cli_error(err, "cannot remove %s", quoted(path));
		return 1;
	}
	return 0;
}
