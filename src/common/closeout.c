/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Closing standard output: a failed final write is a failure, as in GNU
 * tools ("PROG: write error"). */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <unistd.h>

#include "closeout.h"
#include "message.h"

int cli_close_stdout(void)
{
	static bool closed;
	if (closed)
		return 0;
	closed = true;
	bool pending = __fpending(stdout) != 0;
	bool failed_before = ferror(stdout);
	int err = fclose(stdout) != 0 ? errno : 0;
	/* EBADF with nothing to write: stdout was closed and never used. */
	if (!failed_before && (!err || (err == EBADF && !pending)))
		return 0;
	cli_error(err, "write error");
	return 1;
}

void cli_close_stdout_at_exit(void)
{
	if (cli_close_stdout())
		_exit(1);
}
