/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Usage errors: "PROG: MESSAGE" and the hint to --help, exit status 1. */
#ifndef SPLICE_UTILS_USAGE_H
#define SPLICE_UTILS_USAGE_H

#include <stdbool.h>
#include <stdint.h>

/* Exit status for bad usage, as GNU tools use. */
#define CLI_EXIT_USAGE 1

/* Print "Try 'PROG --help' for more information." on stderr. */
void cli_usage_hint(void);

/* Print "PROG: MESSAGE" and the hint to --help on stderr; returns
 * CLI_EXIT_USAGE. */
int cli_usage_message(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parse an option's text as a byte count (size.h) of at most max into
 * *value; or report "PROG: invalid WHAT: 'TEXT'" (with " (too large)" when
 * it is) and the hint, and return false. */
bool cli_size_option(const char *what, const char *text, uint64_t *value, uint64_t max);

#endif
