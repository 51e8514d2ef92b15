/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spdrain: drain standard input (a pipe) into /dev/null with splice(2),
 * the consumer side of the benchmarks. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	int null = open("/dev/null", O_WRONLY);
	if (null < 0) {
		perror("/dev/null");
		return 1;
	}
	fcntl(STDIN_FILENO, F_SETPIPE_SZ, 1 << 20);
	ssize_t n;
	while ((n = splice(STDIN_FILENO, NULL, null, NULL, 1 << 20, 0)) > 0)
		;
	if (n < 0) {
		perror("splice");
		return 1;
	}
	return 0;
}
