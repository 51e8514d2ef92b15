/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --version: the text, and the option that prints it. */
#ifndef SPLICE_UTILS_VERSION_H
#define SPLICE_UTILS_VERSION_H

#include <popt.h>

/* Print the --version text on stdout. */
void cli_print_version(void);

/* popt's table for --version: prints the text and exits, 0 or, when
 * stdout cannot take it, 1 (closeout.h). */
extern const struct poptOption cli_version_options[];

/* The --version entry of an option table (as POPT_AUTOHELP is --help's). */
#define CLI_AUTOVERSION \
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, (void *)cli_version_options, 0, NULL, NULL },

#endif
