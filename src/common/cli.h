/* Helpers shared by the splice-utils command-line tools. */
#ifndef SPLICE_UTILS_CLI_H
#define SPLICE_UTILS_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <popt.h>

#include "libsplice.h"

/* Exit status for bad usage, as GNU tools use. */
#define CLI_EXIT_USAGE 1

/* The running program's name, for messages ("spcat"). */
extern const char *cli_program;

/* Remember the program's name and arrange for stdout to be flushed and
 * checked at exit; call first thing in main(). */
void cli_init(const char *name);

/* Print "PROG: MESSAGE" (and ": strerror(errnum)" when errnum is not 0)
 * on stderr.  Keeps errno. */
void cli_error(int errnum, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* name as it should appear in a message: unchanged when it is made of
 * harmless characters, else in single quotes with quotes escaped, as
 * coreutils prints file names.  Returns one of a few rotating buffers. */
const char *cli_quote(const char *name);

/*
 * Parse a byte count with an optional suffix: K M G T P E (powers of 1024,
 * also written KiB, MiB, ...) or KB MB GB TB PB EB (powers of 1000).
 * Returns 0, -EINVAL for a malformed string or -ERANGE for one too big.
 */
int cli_parse_size(const char *text, uint64_t *value);

/* Parse an option's text as a size of at most max; or report
 * "PROG: invalid WHAT: 'TEXT'" with the hint to --help, and return false. */
bool cli_size_option(const char *what, const char *text, uint64_t *value, uint64_t max);

/* Print the --version text on stdout. */
void cli_print_version(void);

/* Report a bad command line ("PROG: OPTION: reason" and a hint to --help)
 * from popt's error code; returns CLI_EXIT_USAGE. */
int cli_usage_error(poptContext ctx, int rc);

/* Print "PROG: MESSAGE" and the hint to --help; returns CLI_EXIT_USAGE. */
int cli_usage_message(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Flush and close stdout (once; cli_init() also does it at exit); on
 * failure print "PROG: write error: reason".  Returns 0 or 1 (an exit
 * status to combine with the tool's own). */
int cli_close_stdout(void);

/* Print the one-line --stats summary of a mover's totals on stderr. */
void cli_print_stats(const struct sp_stats *stats);

/* The same line with ", EXTRA" at its end (a tool's own figures). */
void cli_print_stats_with(const struct sp_stats *stats, const char *extra);

#endif
