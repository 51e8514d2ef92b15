/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The --stats report: what a mover did, on stderr, as a line or as JSON. */
#ifndef SPLICE_UTILS_STATS_H
#define SPLICE_UTILS_STATS_H

#include <stdbool.h>

#include "libsplice.h"

struct json_object;

/*
 * Print the --stats report of a mover's totals on stderr.  As text, one line:
 *   "PROG: N bytes, P% in kernel, N syscalls (N splice, N read, ...),
 *    N fallbacks, S s, R MiB/s[, EXTRA]"
 * where "in kernel" is the share of bytes that no read(2)/write(2) copied
 * through a user buffer (moved by splice, tee, vmsplice of a mapping,
 * copy_file_range or sendfile: whether the kernel copied the pages is not
 * measured here), and the parentheses name every kind of call made, with
 * "other" for the rest (fstat, fcntl, mmap ...).  With json, one JSON
 * object (json.h) with the same figures and the members of extra_json.
 * extra (text) and extra_json (consumed) may be NULL.
 */
void cli_print_stats(const struct sp_stats *stats, bool json, const char *extra,
		     struct json_object *extra_json);


#endif
