/* rawsplice FILE...: the raw ceiling for the spcat benchmarks -- the
 * smallest loop that splices each FILE to its end into standard output (a
 * pipe grown to 1 MiB): open, splice until 0, close. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: rawsplice FILE... | CONSUMER\n");
		return 2;
	}
	fcntl(STDOUT_FILENO, F_SETPIPE_SZ, 1 << 20);
	for (int i = 1; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY);
		if (fd < 0) {
			perror(argv[i]);
			return 1;
		}
		ssize_t n;
		while ((n = splice(fd, NULL, STDOUT_FILENO, NULL, 1 << 20, 0)) > 0)
			;
		if (n < 0) {
			perror("splice");
			return 1;
		}
		close(fd);
	}
	return 0;
}
