/* spmove -r: copy a directory tree (regular files, directories, symbolic
 * links); and remove a moved tree once its copy is complete. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "path.h"
#include "rmtree.h"
#include "spmove.h"

/* dir/name into buf.  Returns false (after a report) when it is too long. */
static bool join(char *buf, const char *dir, const char *name, const char *src,
		 const char *dst)
{
	int err = path_join(buf, PATH_MAX, dir, name);
	if (err)
		report(src, dst, err, "cannot copy");
	return !err;
}

/* Copy the entries of directory src into the directory dst.  Returns 0 or 1. */
static int copy_entries(struct spmove *s, const char *src, const char *dst)
{
	DIR *d = opendir(src);
	if (!d) {
		report(src, dst, errno, "cannot read directory");
		return 1;
	}
	int status = 0;
	struct dirent *e;
	char from[PATH_MAX], to[PATH_MAX];
	while (!spmove_cancel && (errno = 0, e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!join(from, src, e->d_name, src, dst) || !join(to, dst, e->d_name, src, dst)) {
			status = 1;
			continue;
		}
		struct stat st;
		if (lstat(from, &st) < 0) {
			report(from, to, errno, "cannot stat");
			status = 1;
			continue;
		}
		status |= copy_tree(s, from, to, &st);
	}
	if (errno && !spmove_cancel) {
		report(src, dst, errno, "cannot read directory");
		status = 1;
	}
	closedir(d);
	return status;
}

/* Make dst a directory for a copy of src (st).  Returns 0, or 1 after a report;
 * *created tells whether it is new. */
static int make_dir(const struct spmove *s, const char *src, const char *dst,
		    const struct stat *st, bool *created)
{
	struct stat dst_st;
	*created = false;
	if (stat(dst, &dst_st) == 0) {
		if (S_ISDIR(dst_st.st_mode))
			return 0;
		report(src, dst, 0, "cannot overwrite non-directory with directory");
		return 1;
	}
	/* Private until its contents are in, as cp does. */
	if (mkdir(dst, 0700) < 0) {
		report(src, dst, errno, "cannot create directory");
		return 1;
	}
	*created = true;
	return 0;
}

/* Copy the directory src (st) to dst.  Returns 0 or 1. */
static int copy_dir(struct spmove *s, const char *src, const char *dst, const struct stat *st)
{
	bool created;
	if (make_dir(s, src, dst, st, &created))
		return 1;
	int status = copy_entries(s, src, dst);
	int fd = open(dst, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int err = fd < 0 ? errno : 0;
	if (!err && created && fchmod(fd, new_file_mode(s, st->st_mode)) < 0)
		err = errno;
	if (!err)
		err = preserve_attributes(s, fd, -1, NULL, st);
	if (!err && (s->o->fsync || s->o->remove_source) && fsync(fd) < 0)
		err = errno;
	if (fd >= 0)
		close(fd);
	if (err) {
		report(src, dst, err, "cannot set attributes");
		status = 1;
	}
	return status;
}

int copy_tree(struct spmove *s, const char *src, const char *dst, const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return copy_dir(s, src, dst, st);
	if (S_ISREG(st->st_mode) || S_ISLNK(st->st_mode))
		return copy_file(s, src, dst, st);
	report(src, dst, 0, "not a regular file, directory or symbolic link; skipped");
	return 1;
}

int remove_tree(const char *path, const char *dst)
{
	int err = rm_tree_at(AT_FDCWD, path);
	if (err)
		report(path, dst, err, "copied, but cannot remove the source");
	return err != 0;
}
