/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Closing standard output: a failed final write is a failure, as in GNU
 * tools ("PROG: write error"). */
#ifndef SPLICE_UTILS_CLOSEOUT_H
#define SPLICE_UTILS_CLOSEOUT_H

/* Flush and close stdout (once; later calls return 0).  When that fails,
 * or an earlier write to it did, print "PROG: write error[: reason]" and
 * return 1; else return 0 (an exit status to combine with the tool's own).
 * A stdout that was closed from the start is no error when nothing was
 * written to it. */
int cli_close_stdout(void);

/* For atexit() (cli_init() registers it): cli_close_stdout(), ending the
 * process with status 1 when it fails. */
void cli_close_stdout_at_exit(void);

#endif
