/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The running program's name, and its error messages ("PROG: ..."). */
#ifndef SPLICE_UTILS_MESSAGE_H
#define SPLICE_UTILS_MESSAGE_H

#include <stdarg.h>

/* A tool's main() starts with cli_hold_standard_fds(), then cli_init(). */
#include "stdfds.h"

/* The running program's name, for messages ("spcat"). */
extern const char *cli_program;

/* Start a tool: remember its name for messages, take the character
 * classes (LC_CTYPE) from the environment's locale for quoting names, and
 * have standard output checked when the program exits (see closeout.h).
 * Call first thing in main(), after cli_hold_standard_fds(). */
void cli_init(const char *name);

/* The name a program was run under, as messages give it: argv0's last
 * component, without libtool's "lt-" prefix ("/usr/bin/cat" -> "cat");
 * fallback when argv0 is missing or empty.  As GNU's tools, which name
 * themselves from argv[0]: spcat run through a link named cat says
 * "cat: ...". */
const char *cli_name_from(const char *argv0, const char *fallback);

/* Print "PROG: MESSAGE" (and ": strerror(errnum)" when errnum is not 0)
 * on stderr, after flushing stdout.  Keeps errno. */
void cli_error(int errnum, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* cli_error() with the arguments in a va_list. */
void cli_verror(int errnum, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

#endif
