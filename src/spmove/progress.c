/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove --progress: the shared display (progress.h) fed with the bytes
 * the whole run will copy, each file's name and each file done. */
#include "config.h"

#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "path.h"
#include "spmove.h"

/* The running sum of an nftw() walk (nftw passes no argument). */
static uint64_t walk_bytes;

/* Add a regular file's size to walk_bytes; always goes on. */
static int add_file(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)path, (void)ftw;
	if (type == FTW_F && S_ISREG(st->st_mode))
		walk_bytes += (uint64_t)st->st_size;
	return 0;
}

/* The device the copies land on: the target directory's, or the last
 * operand's (or its directory's when it does not exist yet); 0 unknown. */
static dev_t destination_device(const char *dest)
{
	struct stat st;
	char buf[PATH_MAX];
	const char *dir, *base;
	if (stat(dest, &st) == 0)
		return st.st_dev;
	if (path_split(dest, buf, sizeof(buf), &dir, &base) == 0 && stat(dir, &st) == 0)
		return st.st_dev;
	return 0;
}

uint64_t progress_total(const struct spmove_options *o, char *const *srcs, int n,
			const char *dest)
{
	dev_t dest_dev = o->move ? destination_device(dest) : 0;
	uint64_t total = 0;
	for (int i = 0; i < n; i++) {
		struct stat st;
		bool follow = o->deref != DEREF_NEVER;
		if ((o->dash_stdin && !strcmp(srcs[i], "-")) || (follow ? stat(srcs[i], &st) : lstat(srcs[i], &st)) < 0)
			continue;
		if (dest_dev && st.st_dev == dest_dev)
			continue; /* mv renames it: no byte moves */
		if (S_ISREG(st.st_mode)) {
			total += (uint64_t)st.st_size;
		} else if (S_ISDIR(st.st_mode) && o->recursive) {
			walk_bytes = 0;
			nftw(srcs[i], add_file, 32, o->deref == DEREF_ALWAYS ? 0 : FTW_PHYS);
			total += walk_bytes;
		}
	}
	return total;
}

void progress_begin(struct cli_progress *p, uint64_t total, const struct sp_stats *now)
{
	(void)total; /* the whole run's total was given at the start */
	cli_progress_set(p, now->bytes);
}

void progress_end(struct cli_progress *p)
{
	cli_progress_file_done(p);
}
