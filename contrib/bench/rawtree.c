/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rawtree [-r] [-T] [-n] [-s] SRC DST [THREADS]: the raw ceiling for the
 * spmove -r benchmark of a flat directory -- the least work that copies
 * every file of SRC into a new directory DST with spmove's guarantee that
 * no file shows under its name half-written: per file open, fstat, an
 * unnamed file (O_TMPFILE), copy_file_range to the end, linkat, two closes,
 * spread over THREADS threads (default: one per online CPU, at most 8, as
 * spmove's workers).  With -n, without the guarantee: the file is created
 * under its name (O_CREAT | O_EXCL), as cp does, and there is no linkat.
 * With -T, DST exists and its files are replaced: each copy is made under a
 * temporary name and, once all are made, renamed over its file (with -s,
 * after one syncfs(2) of DST's file system, each copy's writeback started
 * when it was closed: the durable replace on XFS and btrfs); with -T -n,
 * each file is truncated and written in place, as cp does.  No checks
 * beyond stopping at the first error: it is a yardstick, not a tool. */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int src_fd, dst_fd;
static bool named, replace, barrier;
static char **names;
static size_t count, next_name;

static void die(const char *what, const char *name)
{
	fprintf(stderr, "rawtree: %s %s: %m\n", what, name);
	exit(1);
}

/* Links the unnamed file fd into dst_fd as name: AT_EMPTY_PATH needs
 * CAP_DAC_READ_SEARCH, /proc/self/fd does not. */
static void link_in(int fd, const char *name)
{
	char path[64];

	if (linkat(fd, "", dst_fd, name, AT_EMPTY_PATH) == 0)
		return;
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, path, dst_fd, name, AT_SYMLINK_FOLLOW) != 0)
		die("linkat", name);
}

static void *copier(void *unused)
{
	(void)unused;
	for (;;) {
		size_t i = __atomic_fetch_add(&next_name, 1, __ATOMIC_RELAXED);
		if (i >= count)
			return NULL;
		const char *name = names[i];
		struct stat st;
		int in = openat(src_fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (in < 0 || fstat(in, &st) != 0)
			die("open", name);
		char temp[32];
		snprintf(temp, sizeof temp, ".rawtree-%zu", i);
		int out = replace && named
			  ? openat(dst_fd, name, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC,
				   st.st_mode & 07777)
			  : replace ? openat(dst_fd, temp, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC,
					     st.st_mode & 07777)
			  : named ? openat(dst_fd, name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC,
					   st.st_mode & 07777)
				  : openat(dst_fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC,
					   st.st_mode & 07777);
		if (out < 0)
			die("create", name);
		ssize_t n;
		while ((n = copy_file_range(in, NULL, out, NULL, 1 << 30, 0)) > 0)
			;
		if (n < 0)
			die("copy_file_range", name);
		if (replace && barrier && !named)
			sync_file_range(out, 0, 0, SYNC_FILE_RANGE_WRITE);
		if (!named && !replace)
			link_in(out, name);
		close(out);
		close(in);
	}
}

int main(int argc, char **argv)
{
	/* -r and -T as cp -r and cp -rT are called. */
	for (; argc > 1 && argv[1][0] == '-' && argv[1][1]; argv++, argc--)
		for (const char *o = argv[1] + 1; *o; o++)
			if (*o == 'n')
				named = true;
			else if (*o == 'T')
				replace = true;
			else if (*o == 's')
				barrier = true;
			else if (*o != 'r')
				argc = 0;
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: rawtree [-r] [-T] [-n] [-s] SRC DST [THREADS]\n");
		return 2;
	}
	long threads = argc == 4 ? atol(argv[3]) : sysconf(_SC_NPROCESSORS_ONLN);
	if (threads < 1)
		threads = 1;
	if (threads > 8)
		threads = 8;

	src_fd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (src_fd < 0)
		die("open", argv[1]);
	if (!replace && mkdir(argv[2], 0777) != 0)
		die("mkdir", argv[2]);
	dst_fd = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dst_fd < 0)
		die("open", argv[2]);
	DIR *dir = fdopendir(dup(src_fd));
	if (!dir)
		die("opendir", argv[1]);
	size_t room = 0;
	struct dirent *e;
	while ((e = readdir(dir))) {
		if (e->d_type != DT_REG)
			continue;
		if (count == room) {
			room = room ? 2 * room : 1024;
			names = realloc(names, room * sizeof *names);
			if (!names)
				die("realloc", "names");
		}
		if (!(names[count++] = strdup(e->d_name)))
			die("strdup", e->d_name);
	}
	closedir(dir);

	pthread_t t[8];
	for (long k = 1; k < threads; k++)
		if (pthread_create(&t[k], NULL, copier, NULL) != 0)
			die("pthread_create", "");
	copier(NULL);
	for (long k = 1; k < threads; k++)
		pthread_join(t[k], NULL);
	if (replace && !named) {
		if (barrier && syncfs(dst_fd) != 0)
			die("syncfs", argv[2]);
		for (size_t i = 0; i < count; i++) {
			char temp[32];
			snprintf(temp, sizeof temp, ".rawtree-%zu", i);
			if (renameat(dst_fd, temp, dst_fd, names[i]) != 0)
				die("renameat", names[i]);
		}
	}
	return 0;
}
