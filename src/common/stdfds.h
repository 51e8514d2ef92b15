/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Standard fds closed when a tool starts: held, so that nothing the tool
 * opens later lands on them. */
#ifndef SPLICE_UTILS_STDFDS_H
#define SPLICE_UTILS_STDFDS_H

#include <stdbool.h>
#include <sys/stat.h>

/* Bits of cli_hold_standard_fds()'s answer. */
enum {
	CLI_STDIN_CLOSED = 1 << 0,
	CLI_STDOUT_CLOSED = 1 << 1,
	CLI_STDERR_CLOSED = 1 << 2,
};

/*
 * Put an O_PATH descriptor on each of fds 0, 1 and 2 that is closed, so
 * that no file, pipe or socket the tool opens later takes its number: a
 * destination opened as fd 2 would get the tool's messages and progress
 * lines in its data.  On an O_PATH descriptor every read, write, splice
 * and tee fails with EBADF, as on a closed fd.  It refers to an anonymous
 * inode, which no name reaches but /dev/stdin, /dev/fd/N, /proc/self/fd/N,
 * and which the kernel does not open again through those (ENXIO): such a
 * name fails as it would with the fd closed (cli_held_standard_file() lets
 * a tool that stats one word it as GNU's).  fstat(2), however, succeeds (a
 * file of no type; "/" where /proc is missing), so a tool that looks at a
 * standard fd checks the answer first.  Call it first in main().  Returns
 * the closed fds as CLI_*_CLOSED bits.
 */
unsigned cli_hold_standard_fds(void);

/* Whether st (of a name just looked up) is the file cli_hold_standard_fds()
 * put on a closed standard fd: as good as no file at all. */
bool cli_held_standard_file(const struct stat *st);

#endif
