/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rawuring SRC DST [DEPTH]: rawtree -n's work through io_uring, to answer
 * whether batching the system calls of a tree copy pays (issue 36; the
 * answer, measured, is in doc/benchmarks.md).  Every regular file of SRC
 * is copied into the new directory DST under its name by one chain of
 * linked requests: OPENAT of the source and of the copy into direct
 * descriptors, SPLICE into a private pipe and out of it, CLOSE of both.
 * DEPTH chains are in flight (default 64), refilled in one submit; one
 * thread submits, the kernel's workers run what blocks.  Files of up to
 * 64 KiB (a pipe's size).  A yardstick, not a tool: no checks, and it
 * stops at the first error.  Not built by make (liburing is not among
 * the project's dependencies):
 *     cc -O2 -o rawuring contrib/bench/rawuring.c -luring */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STEPS 6 /* requests a file */

static void die(const char *what, int err)
{
	fprintf(stderr, "rawuring: %s: %s\n", what, strerror(err));
	exit(1);
}

/* The next free request (a ring of depth * STEPS never runs short). */
static struct io_uring_sqe *step(struct io_uring *ring)
{
	struct io_uring_sqe *q = io_uring_get_sqe(ring);
	if (!q)
		die("io_uring_get_sqe", EBUSY);
	return q;
}

/* Chain k's request q: linked to the next one unless last.  Links are
 * hard: a short splice (a file smaller than asked) does not cancel the
 * rest of the chain. */
static void tag(struct io_uring_sqe *q, unsigned k, bool last)
{
	q->user_data = k;
	if (!last)
		q->flags |= IOSQE_IO_HARDLINK;
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: rawuring SRC DST [DEPTH]\n");
		return 2;
	}
	unsigned depth = argc == 4 ? (unsigned)atoi(argv[3]) : 64;
	if (depth < 1)
		depth = 1;
	int src = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (src < 0)
		die(argv[1], errno);
	if (mkdir(argv[2], 0777) != 0)
		die(argv[2], errno);
	int dst = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fdopendir(dup(src));
	if (dst < 0 || !dir)
		die(argv[2], errno);
	char **names = NULL;
	size_t count = 0, room = 0;
	struct dirent *e;
	while ((e = readdir(dir)))
		if (e->d_type == DT_REG) {
			if (count == room && !(names = realloc(names, (room = room ? 2 * room : 1024) *
									  sizeof(*names))))
				die("realloc", errno);
			names[count++] = strdup(e->d_name);
		}
	closedir(dir);

	struct io_uring ring;
	int r = io_uring_queue_init(depth * STEPS, &ring, 0);
	if (r < 0)
		die("io_uring_queue_init", -r);
	/* Chain k: direct descriptors 2k (source) and 2k + 1 (copy), pipe k. */
	if ((r = io_uring_register_files_sparse(&ring, depth * 2)) < 0)
		die("io_uring_register_files_sparse", -r);
	int (*pipes)[2] = calloc(depth, sizeof(*pipes));
	unsigned *idle = calloc(depth, sizeof(*idle)), *left = calloc(depth, sizeof(*left));
	if (!pipes || !idle || !left)
		die("calloc", errno);
	for (unsigned k = 0; k < depth; k++) {
		if (pipe2(pipes[k], O_CLOEXEC) != 0)
			die("pipe2", errno);
		idle[k] = k;
	}
	unsigned nidle = depth;
	size_t next = 0, done = 0;
	while (done < count) {
		for (; nidle && next < count; next++) {
			unsigned k = idle[--nidle], in = 2 * k, out = 2 * k + 1;
			const char *name = names[next];
			struct io_uring_sqe *q;
			q = step(&ring);
			io_uring_prep_openat_direct(q, src, name, O_RDONLY, 0, in);
			tag(q, k, false);
			q = step(&ring);
			io_uring_prep_openat_direct(q, dst, name, O_WRONLY | O_CREAT | O_EXCL, 0644, out);
			tag(q, k, false);
			q = step(&ring);
			io_uring_prep_splice(q, (int)in, -1, pipes[k][1], -1, 65536, SPLICE_F_FD_IN_FIXED);
			tag(q, k, false);
			q = step(&ring);
			io_uring_prep_splice(q, pipes[k][0], -1, (int)out, -1, 65536, SPLICE_F_NONBLOCK);
			tag(q, k, false);
			q->flags |= IOSQE_FIXED_FILE;
			q = step(&ring);
			io_uring_prep_close_direct(q, in);
			tag(q, k, false);
			q = step(&ring);
			io_uring_prep_close_direct(q, out);
			tag(q, k, true);
			left[k] = STEPS;
		}
		if ((r = io_uring_submit_and_wait(&ring, 1)) < 0)
			die("io_uring_submit_and_wait", -r);
		struct io_uring_cqe *c;
		unsigned head, seen = 0;
		io_uring_for_each_cqe(&ring, head, c) {
			seen++;
			if (c->res < 0)
				die("a copy's request", -c->res);
			unsigned k = (unsigned)c->user_data;
			if (--left[k] == 0) {
				idle[nidle++] = k;
				done++;
			}
		}
		io_uring_cq_advance(&ring, seen);
	}
	return 0;
}
