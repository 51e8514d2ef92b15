/* rawsplice FILE: the raw ceiling for the spcat benchmark -- the smallest
 * loop that splices FILE into standard output (a pipe grown to 1 MiB). */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: rawsplice FILE | CONSUMER\n");
		return 2;
	}
	int fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	fcntl(STDOUT_FILENO, F_SETPIPE_SZ, 1 << 20);
	ssize_t n;
	while ((n = splice(fd, NULL, STDOUT_FILENO, NULL, 1 << 20, 0)) > 0)
		;
	if (n < 0) {
		perror("splice");
		return 1;
	}
	return 0;
}
