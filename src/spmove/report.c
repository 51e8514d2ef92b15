/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove's messages: per-pair errors, questions and -v's lines. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "message.h"
#include "quote.h"
#include "spmove.h"

const char *quoted(const char *name)
{
	return cli_quote_always(name);
}

bool ask(const char *fmt, ...)
{
	char line[64];
	va_list ap;
	fflush(stdout);
	fprintf(stderr, "%s: ", cli_program);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc(' ', stderr);
	if (!fgets(line, sizeof(line), stdin))
		return false;
	return line[0] == 'y' || line[0] == 'Y';
}

void verbose_pair(const char *prefix, const char *src, const char *dst, const char *backup)
{
	printf("%s%s -> %s", prefix, quoted(src), quoted(dst));
	if (backup)
		printf(" (backup: %s)", quoted(backup));
	putchar('\n');
}
