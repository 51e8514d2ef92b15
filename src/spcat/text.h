/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cat's text options (-n, -b, -s, -v, -E, -T and their combinations -A,
 * -e, -t): the bytes go through user memory, formatted as GNU cat formats
 * them, with the state (line number, blank lines, a carriage return at the
 * end of a read) carried from one file to the next. */
#ifndef SPCAT_TEXT_H
#define SPCAT_TEXT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "libsplice.h"

/* Which text options are on (-A, -e and -t set several). */
struct text_options {
	bool number;           /* -n: number every output line */
	bool number_nonblank;  /* -b: number nonempty lines only (wins over -n) */
	bool squeeze_blank;    /* -s: at most one empty line in a row */
	bool show_ends;        /* -E: '$' (or "^M$" after a CR) at each line end */
	bool show_tabs;        /* -T: TAB as ^I */
	bool show_nonprinting; /* -v: ^X and M- notation but for LF and TAB */
};

struct text_cat;

/* Whether any option asks for formatting (else the data may be spliced). */
bool text_wanted(const struct text_options *opts);

/* Make a formatter for opts writing to out_fd, which is grown to pipe_size
 * bytes (0: the library's default) when it is a pipe; progress (may be
 * NULL) is called with the totals after each read, as a mover calls it.
 * Returns 0 or -ENOMEM. */
int text_new(struct text_cat **text, const struct text_options *opts, int out_fd,
	     size_t pipe_size, sp_progress_fn progress, void *progress_arg);

/* Format at most length bytes (SP_LENGTH_EOF: up to end of file) of fd,
 * fstat'ed as st, from offset (SP_OFFSET_CURRENT: where fd is) to the
 * output.  Output is written before a read that may wait (fd is neither a
 * regular file nor a block device) and whenever enough has gathered, so
 * that a slow producer's lines appear as they come.  Returns the bytes read
 * or -errno; on error *output_error tells whether the output failed (then
 * nothing more may be written) or the input did (then what was formatted
 * before the error has been written). */
int64_t text_copy(struct text_cat *text, int fd, const struct stat *st, int64_t offset,
		  uint64_t length, bool *output_error);

/* Write what remains held back after the last file: a carriage return
 * read last under -E, kept in case a newline followed.  Returns 0 or the
 * -errno of the write. */
int text_finish(struct text_cat *text);

/* The totals so far (bytes read, calls, time), for --stats. */
const struct sp_stats *text_stats(const struct text_cat *text);

void text_free(struct text_cat *text);

#endif
