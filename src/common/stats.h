/* The --stats line: what a mover did, on stderr. */
#ifndef SPLICE_UTILS_STATS_H
#define SPLICE_UTILS_STATS_H

#include "libsplice.h"

/* Print the one-line --stats summary of a mover's totals on stderr:
 * "PROG: N bytes, P% zero-copy, N syscalls (...), N fallbacks, S s, R MiB/s". */
void cli_print_stats(const struct sp_stats *stats);

/* The same line with ", EXTRA" at its end (a tool's own figures). */
void cli_print_stats_with(const struct sp_stats *stats, const char *extra);

#endif
