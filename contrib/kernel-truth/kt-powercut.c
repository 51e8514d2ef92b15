/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kt-powercut: what a file system itself keeps of a file written without
 * fsync when the power is cut, for make kernel-truth.  A bare program, no
 * libsplice, so that the answer is the kernel's.
 *
 *   kt-powercut prepare DIR BYTES  old files (BYTES of 'A'), on disk:
 *                                  DIR/rename, DIR/trunc, DIR/spmove
 *   kt-powercut act DIR            new data (BYTES of 'B'), no fsync:
 *                                  rename: written under DIR/.tmp, renamed
 *                                  over DIR/rename; trunc: DIR/trunc opened
 *                                  with O_TRUNC and written, as cp does;
 *                                  tmpfile: an O_TMPFILE file linked in as
 *                                  DIR/tmpfile (a new name)
 *   kt-powercut check DIR FS CUT   after the cut and a mount: one JSON
 *                                  object, what each name holds (old, new,
 *                                  empty, missing, mixed) and its size
 * Exit 0, or 1 with a message when a step fails. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

static const char *const CASES[] = { "rename", "trunc", "tmpfile", "spmove" };

static int fail(const char *what, const char *path)
{
	fprintf(stderr, "kt-powercut: %s %s: %s\n", what, path, strerror(errno));
	return 1;
}

/* Write bytes of c to fd.  Returns 0 or -1. */
static int fill(int fd, char c, long bytes)
{
	char buf[65536];
	memset(buf, c, sizeof(buf));
	while (bytes > 0) {
		ssize_t n = write(fd, buf, bytes < (long)sizeof(buf) ? (size_t)bytes : sizeof(buf));
		if (n < 0)
			return -1;
		bytes -= n;
	}
	return 0;
}

static int prepare(int dir, long bytes)
{
	for (int i = 0; i < 4; i++) {
		if (!strcmp(CASES[i], "tmpfile"))
			continue;
		int fd = openat(dir, CASES[i], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || fill(fd, 'A', bytes) < 0 || fsync(fd) < 0 || close(fd) < 0)
			return fail("cannot write", CASES[i]);
	}
	char size[32];
	snprintf(size, sizeof(size), "%ld", bytes);
	unlinkat(dir, "size", 0);
	if (symlinkat(size, dir, "size") < 0)
		return fail("cannot write", "size");
	return fsync(dir) < 0 ? fail("cannot sync", ".") : 0;
}

static int act(int dir)
{
	char size[32] = "";
	if (readlinkat(dir, "size", size, sizeof(size) - 1) < 0)
		return fail("cannot read", "size");
	long bytes = atol(size);
	int fd = openat(dir, ".tmp", O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0 || fill(fd, 'B', bytes) < 0 || close(fd) < 0)
		return fail("cannot write", ".tmp");
	if (renameat(dir, ".tmp", dir, "rename") < 0)
		return fail("cannot rename", ".tmp");
	fd = openat(dir, "trunc", O_WRONLY | O_TRUNC);
	if (fd < 0 || fill(fd, 'B', bytes) < 0 || close(fd) < 0)
		return fail("cannot write", "trunc");
	fd = openat(dir, ".", O_TMPFILE | O_WRONLY, 0644);
	if (fd < 0 || fill(fd, 'B', bytes) < 0)
		return fail("cannot write", "an O_TMPFILE file");
	char proc[64];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, proc, dir, "tmpfile", AT_SYMLINK_FOLLOW) < 0)
		return fail("cannot link", "tmpfile");
	close(fd);
	return 0;
}

/* What name holds: "old", "new", "empty", "missing" or "mixed". */
static const char *outcome(int dir, const char *name, long bytes, long long *size)
{
	*size = -1;
	int fd = openat(dir, name, O_RDONLY);
	if (fd < 0)
		return "missing";
	struct stat st;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return "mixed";
	}
	*size = st.st_size;
	if (st.st_size == 0) {
		close(fd);
		return "empty";
	}
	char buf[65536];
	long a = 0, b = 0, other = 0;
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			buf[i] == 'A' ? a++ : buf[i] == 'B' ? b++ : other++;
	close(fd);
	if (n == 0 && !other && a == bytes && !b)
		return "old";
	if (n == 0 && !other && b == bytes && !a)
		return "new";
	return "mixed";
}

static int check(int dir, const char *fs, const char *cut)
{
	char size[32] = "";
	if (readlinkat(dir, "size", size, sizeof(size) - 1) < 0)
		return fail("cannot read", "size");
	long bytes = atol(size);
	struct utsname u;
	uname(&u);
	printf("{\"kernel\":\"%s\",\"fs\":\"%s\",\"cut\":\"%s\",\"bytes\":%ld,\"cases\":{",
	       u.release, fs, cut, bytes);
	for (int i = 0; i < 4; i++) {
		long long got;
		const char *v = outcome(dir, CASES[i], bytes, &got);
		printf("%s\"%s\":{\"outcome\":\"%s\",\"size\":%lld}", i ? "," : "", CASES[i], v, got);
	}
	printf("}}\n");
	return fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: kt-powercut prepare DIR BYTES | act DIR | check DIR FS CUT\n");
		return 2;
	}
	int dir = open(argv[2], O_RDONLY | O_DIRECTORY);
	if (dir < 0)
		return fail("cannot open", argv[2]);
	if (!strcmp(argv[1], "prepare") && argc == 4)
		return prepare(dir, atol(argv[3]));
	if (!strcmp(argv[1], "act") && argc == 3)
		return act(dir);
	if (!strcmp(argv[1], "check") && argc == 5)
		return check(dir, argv[3], argv[4]);
	fprintf(stderr, "usage: kt-powercut prepare DIR BYTES | act DIR | check DIR FS CUT\n");
	return 2;
}
