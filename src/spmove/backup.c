/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove: backups of replaced files (--backup, -b, -S), named as GNU's
 * simple (FILE~) and numbered (FILE.~N~) backups. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argmatch.h"
#include "path.h"
#include "spmove.h"

bool backup_parse(const char *control, enum backup *type)
{
	static const struct cli_choice choices[] = {
		{ "none", BACKUP_NONE },         { "off", BACKUP_NONE },
		{ "simple", BACKUP_SIMPLE },     { "never", BACKUP_SIMPLE },
		{ "existing", BACKUP_EXISTING }, { "nil", BACKUP_EXISTING },
		{ "numbered", BACKUP_NUMBERED }, { "t", BACKUP_NUMBERED },
	};
	const char *context = "backup type";
	if (!control) {
		control = getenv("VERSION_CONTROL");
		context = "$VERSION_CONTROL";
		if (!control || !*control) {
			*type = BACKUP_EXISTING;
			return true;
		}
	}
	int v;
	if (!cli_argmatch(context, control, choices, sizeof(choices) / sizeof(*choices), &v))
		return false;
	*type = (enum backup)v;
	return true;
}

const char *backup_suffix(const char *option)
{
	const char *suffix = option ? option : getenv("SIMPLE_BACKUP_SUFFIX");
	if (!suffix || !*suffix || strchr(suffix, '/'))
		return "~";
	return suffix;
}

/* The highest N of the numbered backups base.~N~ in dirfd, 0 when none. */
static unsigned long highest_number(int dirfd, const char *base)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	size_t len = strlen(base);
	unsigned long highest = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		const char *p = e->d_name;
		if (strncmp(p, base, len) || strncmp(p + len, ".~", 2) || p[len + 2] < '1' ||
		    p[len + 2] > '9')
			continue;
		char *end;
		unsigned long n = strtoul(p + len + 2, &end, 10);
		if (end[0] == '~' && end[1] == '\0' && n > highest)
			highest = n;
	}
	closedir(d);
	return highest;
}

/* The backup's name for base in dirfd into buf.  Returns 0 or -ENAMETOOLONG. */
static int backup_name(const struct spmove_options *o, int dirfd, const char *base,
		       char *buf, size_t size)
{
	unsigned long n = o->backup == BACKUP_SIMPLE ? 0 : highest_number(dirfd, base);
	int len = n || o->backup == BACKUP_NUMBERED
			  ? snprintf(buf, size, "%s.~%lu~", base, n + 1)
			  : snprintf(buf, size, "%s%s", base, o->suffix);
	return len < 0 || (size_t)len >= size || (size_t)len > NAME_MAX ? -ENAMETOOLONG : 0;
}

char *backup_path(const struct spmove_options *o, const struct loc *dst, const char **name)
{
	char base[NAME_MAX + 1], backup_base[NAME_MAX + 2];
	size_t len = strcspn(dst->name, "/");
	if (len > NAME_MAX) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	memcpy(base, dst->name, len);
	base[len] = '\0';
	int err = backup_name(o, dst->dir, base, backup_base, sizeof(backup_base));
	/* The backup's name as dst spells its directory ("d/f" -> "d/f~"). */
	size_t prefix = loc_dir_len(dst);
	char *backup = NULL;
	if (!err && asprintf(&backup, "%.*s%s", (int)prefix, dst->path, backup_base) < 0) {
		backup = NULL;
		err = -ENOMEM;
	}
	if (err) {
		errno = -err;
		return NULL;
	}
	*name = backup + prefix;
	return backup;
}

char *backup_rename(const struct spmove_options *o, const struct loc *dst)
{
	const char *name;
	char *backup = backup_path(o, dst, &name);
	if (backup && renameat(dst->dir, dst->name, dst->dir, name) < 0) {
		int err = errno;
		free(backup);
		errno = err;
		return NULL;
	}
	return backup;
}

bool backup_is_source(const struct spmove_options *o, const struct stat *src_st,
		      const struct loc *dst)
{
	char name[NAME_MAX + 2];
	size_t len = strcspn(dst->name, "/");
	if (o->backup == BACKUP_NUMBERED ||
	    (size_t)snprintf(name, sizeof(name), "%.*s%s", (int)len, dst->name, o->suffix) >=
		    sizeof(name))
		return false;
	struct stat st;
	return fstatat(dst->dir, name, &st, 0) == 0 && same_inode(&st, src_st);
}
