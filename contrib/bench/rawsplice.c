/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rawsplice [-r] FILE...: the raw ceiling for the spcat benchmarks -- the
 * smallest loop that splices each FILE to its end into standard output (a
 * pipe grown to 1 MiB): open, splice until 0, close.  With -r, through a
 * private pipe of 1 MiB (file -> private pipe -> standard output), the
 * design of cat 9.11 and spcat for large files: the page-cache lookups
 * happen outside the reader's pipe lock. */
#include "config.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CHUNK (1 << 20)

static int fail(const char *what)
{
	perror(what);
	return 1;
}

/* Splices all of fd into standard output, through relay[] when it is
 * open.  Returns 0, or 1 after a message. */
static int splice_all(int fd, const int relay[2])
{
	ssize_t n;
	while ((n = splice(fd, NULL, relay[1] >= 0 ? relay[1] : STDOUT_FILENO, NULL,
			   CHUNK, 0)) > 0) {
		while (relay[0] >= 0 && n > 0) {
			ssize_t m = splice(relay[0], NULL, STDOUT_FILENO, NULL, (size_t)n, 0);
			if (m <= 0)
				return fail("splice out of the relay");
			n -= m;
		}
	}
	return n < 0 ? fail("splice") : 0;
}

int main(int argc, char **argv)
{
	int relay[2] = { -1, -1 };
	bool relayed = argc > 1 && strcmp(argv[1], "-r") == 0;
	int first = relayed ? 2 : 1;
	if (argc <= first) {
		fprintf(stderr, "usage: rawsplice [-r] FILE... | CONSUMER\n");
		return 2;
	}
	fcntl(STDOUT_FILENO, F_SETPIPE_SZ, CHUNK);
	if (relayed) {
		if (pipe(relay) != 0)
			return fail("pipe");
		fcntl(relay[1], F_SETPIPE_SZ, CHUNK);
	}
	for (int i = first; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY);
		if (fd < 0)
			return fail(argv[i]);
		if (splice_all(fd, relay))
			return 1;
		close(fd);
	}
	return 0;
}
