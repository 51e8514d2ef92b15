/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --progress: how far a copy has got, on stderr, redrawn by a thread of
 * its own so that it moves on while a system call blocks. */
#ifndef SPLICE_UTILS_PROGRESS_H
#define SPLICE_UTILS_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "libsplice.h"

/* How progress is shown. */
enum cli_progress_style {
	CLI_PROGRESS_AUTO = 0, /* a bar on a terminal, numbers otherwise */
	CLI_PROGRESS_BAR,      /* one line redrawn in place: the name, bytes done
				* of the total, percentage, elapsed time, current
				* rate, ETA and a bar as wide as the terminal;
				* then a summary line that stays */
	CLI_PROGRESS_NUMERIC,  /* one line of digits at a time, as pv -n: the
				* percentage done when the total is known, else
				* the bytes done */
};

/* The redraws a second (at least two, as pv and rsync). */
#define CLI_PROGRESS_HZ 4

struct cli_progress;

/*
 * Parse an argument of --progress[=STYLE]: NULL (no argument) or "auto",
 * "bar", "numeric" (abbreviations allowed, as GNU's argmatch), into
 * *style.  Returns true, or false after reporting a bad argument.
 */
bool cli_progress_style_parse(const char *arg, int *style);

/*
 * Start showing progress on stderr for a copy of total bytes (0: not
 * known) and its redrawing thread (which takes no signals).  Returns 0,
 * -ENOMEM, or the error of pthread_create().
 */
int cli_progress_start(struct cli_progress **p, enum cli_progress_style style,
		       uint64_t total);

/* Name the file now being copied (NULL: none); shown shell-escaped. */
void cli_progress_name(struct cli_progress *p, const char *name);

/* Count one more file completed, for the summary line.  Call it once
 * the file is whole where it belongs, never for one that failed. */
void cli_progress_file_done(struct cli_progress *p);

/* A file failed or was interrupted after bytes of it were counted (as
 * cli_progress_set() was told): the last state drawn (the summary line,
 * the final number) counts neither the file nor those bytes, only what
 * completed. */
void cli_progress_file_failed(struct cli_progress *p, uint64_t bytes);

/* Tell how many bytes of the whole copy are done.  Only stores a number;
 * safe to call after every chunk. */
void cli_progress_set(struct cli_progress *p, uint64_t done);

/* The libsplice progress callback for a mover whose byte count is the
 * copy's (arg is the struct cli_progress): cli_progress_set(stats->bytes).
 * Returns 0. */
int cli_progress_update(const struct sp_stats *stats, void *arg);

/* The bytes a copy of at most length bytes from offset from of a file
 * (fstat'ed as st) moves, when it is a regular file; 0 (not known) for
 * anything else or a negative from. */
uint64_t cli_progress_file_bytes(const struct stat *st, int64_t from, uint64_t length);

/* Stop the thread, draw the last state (the summary line for a bar, the
 * final number otherwise) of what completed, and free p.  NULL is
 * allowed. */
void cli_progress_finish(struct cli_progress *p);

#endif
