/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Usage errors: "PROG: MESSAGE" and the hint to --help, exit status 1. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "message.h"
#include "size.h"
#include "usage.h"

void cli_usage_hint(void)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", cli_program);
}

int cli_usage_message(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cli_verror(0, fmt, ap);
	va_end(ap);
	cli_usage_hint();
	return CLI_EXIT_USAGE;
}

bool cli_size_option(const char *what, const char *text, uint64_t *value, uint64_t max)
{
	int rc = cli_parse_size(text, value);
	if (rc == 0 && *value > max)
		rc = -ERANGE;
	if (rc == 0)
		return true;
	cli_usage_message("invalid %s: '%s'%s", what, text, rc == -ERANGE ? " (too large)" : "");
	return false;
}
