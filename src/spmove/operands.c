/* spmove: the operands -- SRC DST, SRC... DIR, -t DIR SRC... or -T SRC
 * DST -- each copied (or moved) as cp and mv do; a move across file
 * systems removes a source only once all of it is copied. */
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

/* Whether path ends in a slash. */
static bool trailing_slash(const char *path)
{
	size_t len = strlen(path);
	return len > 0 && path[len - 1] == '/';
}

/* Whether this is cp -bf FILE FILE, which copies FILE to its backup. */
static bool copy_onto_backup(const struct spmove *s, const char *src, const char *dst)
{
	struct stat st;
	return !s->o->remove_source && s->o->force && s->o->backup != BACKUP_NONE &&
	       !strcmp(src, dst) && stat(dst, &st) == 0 && S_ISREG(st.st_mode);
}

/* Copy src to the name of its backup, without a backup of that.
 * Returns 0 or 1. */
static int copy_to_backup(struct spmove *s, const char *src)
{
	char *backup = backup_path(s->o, src);
	if (!backup) {
		cli_error(errno, "cannot backup %s", quoted(src));
		return 1;
	}
	struct spmove_options o = *s->o;
	o.backup = BACKUP_NONE;
	struct spmove plain = *s;
	plain.o = &o;
	struct top top = { src, backup };
	struct outcome out = { 0 };
	int status = copy_entry(&plain, src, backup, &top, NULL, &out);
	s->methods_used |= plain.methods_used;
	free(backup);
	return status;
}

/* Copy or move one operand src to dst.  Returns 0 or 1. */
static int do_operand(struct spmove *s, const char *src, const char *dst)
{
	if (!strcmp(src, "-") && !s->o->remove_source)
		return copy_stdin(s, dst);
	struct stat st;
	/* "SRC DST/" names a directory: a file cannot go there. */
	if (trailing_slash(dst) && !s->o->remove_source && stat(src, &st) == 0 &&
	    !S_ISDIR(st.st_mode) && lstat(dst, &st) < 0 && errno == ENOENT) {
		cli_error(ENOTDIR, "cannot create regular file %s", quoted(dst));
		return 1;
	}
	if (copy_onto_backup(s, src, dst))
		return copy_to_backup(s, src);
	struct top top = { src, dst };
	struct outcome out = { 0 };
	int status = copy_entry(s, src, dst, &top, NULL, &out);
	if (out.into_self)
		return 1;
	if (status || !s->o->remove_source || out.renamed || spmove_cancel)
		return status;
	int err = sync_parent(dst);
	if (err) {
		cli_error(err, "cannot sync %s", quoted(dst));
		return 1;
	}
	return remove_source(s, src);
}

/* Run every operand into the directory dir.  Returns 0 or 1. */
static int into_directory(struct spmove *s, char **srcs, int n, const char *dir)
{
	int status = 0;
	for (int i = 0; i < n && !spmove_cancel; i++) {
		char buf[PATH_MAX], dst[PATH_MAX];
		const char *base;
		if (!strcmp(srcs[i], "-") && !s->o->remove_source) {
			cli_error(0, "cannot copy standard input into directory %s", quoted(dir));
			status = 1;
			continue;
		}
		int err = path_split(srcs[i], buf, sizeof(buf), NULL, &base);
		if (!err)
			err = path_join(dst, sizeof(dst), dir, base);
		if (err) {
			cli_error(err, "cannot copy %s", quoted(srcs[i]));
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
	if (target_dir && s->o->no_target_directory) {
		cli_error(0, "cannot combine --target-directory (-t) and --no-target-directory (-T)");
		return 1;
	}
	if (n < 1)
		return cli_usage_message("missing file operand");
	if (target_dir) {
		if (!is_dir(target_dir)) {
			cli_error(errno, "target directory %s", quoted(target_dir));
			return 1;
		}
		return into_directory(s, args, n, target_dir);
	}
	if (n < 2)
		return cli_usage_message("missing destination file operand after %s",
					 quoted(args[0]));
	if (s->o->no_target_directory) {
		if (n > 2)
			return cli_usage_message("extra operand %s", quoted(args[2]));
		return do_operand(s, args[0], args[1]);
	}
	const char *dst = args[n - 1];
	if (is_dir(dst))
		return into_directory(s, args, n - 1, dst);
	if (n > 2) {
		cli_error(errno, "target %s", quoted(dst));
		return 1;
	}
	return do_operand(s, args[0], dst);
}
