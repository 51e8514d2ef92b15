/* spmove: the operands -- SRC DST, SRC... DIR or -t DIR SRC... -- each
 * copied (or moved) as a file or a tree. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "message.h"
#include "path.h"
#include "spmove.h"
#include "usage.h"

/* Whether dst lies inside the directory src (or is it): copying would never
 * end.  Compares real paths: dst's directory must exist. */
static bool inside(const char *src, const char *dst)
{
	char buf[PATH_MAX], name[PATH_MAX];
	const char *dir, *base;
	if (path_split(dst, buf, sizeof(buf), &dir, &base))
		return false;
	char *s = realpath(src, NULL), *d = realpath(dir, NULL);
	bool in = false;
	if (s && d && path_join(name, sizeof(name), d, base) == 0) {
		size_t len = strlen(s);
		in = !strncmp(name, s, len) && (name[len] == '/' || name[len] == '\0');
	}
	free(s);
	free(d);
	return in;
}

/* Copy or move a directory operand.  Returns 0 or 1. */
static int do_directory(struct spmove *s, const char *src, const char *dst,
			const struct stat *st)
{
	struct stat dst_st;
	/* rename(2) would replace an empty directory: -n and -i come first. */
	if (s->o->remove_source && s->o->overwrite != OVERWRITE_YES &&
	    lstat(dst, &dst_st) == 0 &&
	    (s->o->overwrite == OVERWRITE_NO || !ask_overwrite(dst)))
		return 0;
	if (s->o->remove_source && rename(src, dst) == 0)
		return 0;
	if (s->o->remove_source && errno != EXDEV) {
		report(src, dst, errno, "cannot move");
		return 1;
	}
	if (!s->o->recursive && !s->o->remove_source) {
		report(src, dst, 0, "-r not specified; omitting directory");
		return 1;
	}
	if (inside(src, dst)) {
		report(src, dst, 0, "cannot copy a directory into itself");
		return 1;
	}
	int status = copy_tree(s, src, dst, st);
	if (!status && s->o->remove_source && !spmove_cancel)
		status = remove_tree(src, dst);
	return status;
}

/* Copy or move one operand src to dst.  Returns 0 or 1. */
static int do_operand(struct spmove *s, const char *src, const char *dst)
{
	if (!strcmp(src, "-"))
		return copy_file(s, src, dst, NULL);
	struct stat st;
	bool no_follow = s->o->recursive || s->o->remove_source;
	if ((no_follow ? lstat(src, &st) : stat(src, &st)) < 0) {
		report(src, dst, errno, "cannot stat");
		return 1;
	}
	if (S_ISDIR(st.st_mode))
		return do_directory(s, src, dst, &st);
	if (s->o->recursive)
		return copy_tree(s, src, dst, &st);
	return copy_file(s, src, dst, &st);
}

/* Run every operand into the directory dir.  Returns 0 or 1. */
static int into_directory(struct spmove *s, char **srcs, int n, const char *dir)
{
	int status = 0;
	for (int i = 0; i < n && !spmove_cancel; i++) {
		char buf[PATH_MAX], dst[PATH_MAX];
		const char *base;
		if (!strcmp(srcs[i], "-")) {
			report(srcs[i], dir, 0, "cannot stream standard input into a directory");
			status = 1;
			continue;
		}
		int err = path_split(srcs[i], buf, sizeof(buf), NULL, &base);
		if (!err)
			err = path_join(dst, sizeof(dst), dir, base);
		if (err) {
			report(srcs[i], dir, err, "cannot copy");
			status = 1;
			continue;
		}
		status |= do_operand(s, srcs[i], dst);
	}
	return status;
}

/* Whether path names a directory (following symbolic links); when not,
 * errno says why (ENOTDIR for something else). */
static bool is_dir(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return false;
	errno = ENOTDIR;
	return S_ISDIR(st.st_mode);
}

int run_operands(struct spmove *s, char **args, int n, const char *target_dir)
{
	if (target_dir) {
		if (n < 1)
			return cli_usage_message("missing file operand");
		if (!is_dir(target_dir)) {
			cli_error(errno, "target directory %s", quoted(target_dir));
			return 1;
		}
		return into_directory(s, args, n, target_dir);
	}
	if (n < 1)
		return cli_usage_message("missing file operand");
	if (n < 2)
		return cli_usage_message("missing destination file operand after %s",
					 quoted(args[0]));
	const char *dst = args[n - 1];
	if (is_dir(dst))
		return into_directory(s, args, n - 1, dst);
	if (n > 2) {
		cli_error(0, "target %s is not a directory", quoted(dst));
		return 1;
	}
	return do_operand(s, args[0], dst);
}
