/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The running program's name, and its error messages ("PROG: ..."). */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "closeout.h"
#include "message.h"

const char *cli_program = PACKAGE;

void cli_init(const char *name)
{
	cli_program = name;
	/* The character classes only: which bytes of a name are printable
	 * characters (quote.h); messages and numbers stay in the C locale. */
	setlocale(LC_CTYPE, "");
	atexit(cli_close_stdout_at_exit);
}

const char *cli_name_from(const char *argv0, const char *fallback)
{
	if (!argv0)
		return fallback;
	const char *base = strrchr(argv0, '/');
	base = base ? base + 1 : argv0;
	if (!strncmp(base, "lt-", 3))
		base += 3;
	return *base ? base : fallback;
}

void cli_verror(int errnum, const char *fmt, va_list ap)
{
	int saved = errno;
	fflush(stdout);
	/* One line, whole, when threads report at once. */
	flockfile(stderr);
	fprintf(stderr, "%s: ", cli_program);
	vfprintf(stderr, fmt, ap);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
	funlockfile(stderr);
	errno = saved;
}

void cli_error(int errnum, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cli_verror(errnum, fmt, ap);
	va_end(ap);
}
