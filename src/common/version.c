/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --version: the text, and the option that prints it. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "message.h"
#include "version.h"

void cli_print_version(void)
{
	printf("%s (%s) %s\n"
	       "Copyright (C) 2026 the splice-utils authors.\n"
	       "License GPLv2+: GNU GPL version 2 or later <https://gnu.org/licenses/gpl.html>.\n"
	       "This is free software: you are free to change and redistribute it.\n"
	       "There is NO WARRANTY, to the extent permitted by law.\n",
	       cli_program, PACKAGE_NAME, PACKAGE_VERSION);
}

/* popt callback of cli_version_options: print the text and exit (the
 * exit handler of cli_init() checks stdout). */
static void version_callback(poptContext ctx, enum poptCallbackReason reason,
			     const struct poptOption *opt, const char *arg, const void *data)
{
	cli_print_version();
	poptFreeContext(ctx);
	exit(EXIT_SUCCESS);
}

const struct poptOption cli_version_options[] = {
	{ NULL, '\0', POPT_ARG_CALLBACK, (void *)version_callback, 0, NULL, NULL },
	{ "version", '\0', POPT_ARG_NONE, NULL, 0, "print the version and exit", NULL },
	POPT_TABLEEND
};
