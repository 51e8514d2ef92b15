/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Command-line options read as GNU getopt_long reads them, from popt
 * option tables: the one option parser of every tool.
 *
 * Long options may be abbreviated to any unambiguous prefix; their argument
 * follows as "--name=ARG" or as the next word, an optional argument only
 * after '='.  Short options may be bundled ("-af"), with an argument glued
 * ("-tDIR") or as the next word.  "--" ends the options and "-" is an
 * operand.  Operands may come between options (as GNU tools, unless
 * POSIXLY_CORRECT is set or CLI_OPTIONS_IN_ORDER asked otherwise).  Errors
 * are worded as glibc words them and followed by the hint to --help:
 *   PROG: unrecognized option '--bogus'
 *   PROG: invalid option -- 'z'
 *   PROG: option '--pipe-size' requires an argument
 *   PROG: option requires an argument -- 't'
 *   PROG: option '--stats' doesn't allow an argument
 *   PROG: option '--s' is ambiguous; possibilities: '--stats' '--sparse'
 *
 * The tables are popt's (struct poptOption, POPT_TABLEEND, included tables,
 * POPT_AUTOHELP for --help and --usage, CLI_AUTOVERSION from version.h),
 * with these kinds of entries:
 *   POPT_ARG_NONE    a flag: sets the int that arg points to (if any) to 1;
 *   POPT_ARG_STRING  takes an argument (an optional one with
 *                    POPT_ARGFLAG_OPTIONAL): sets the const char * that arg
 *                    points to (if any) to it, or to NULL for an optional
 *                    argument not given.  The string is the command line's
 *                    own: nothing to free.
 * An entry with a val other than 0 is also handed to the caller; an entry
 * in a table that begins with a POPT_ARG_CALLBACK entry calls that callback
 * instead (with a popt context for poptPrintHelp() and friends).
 */
#ifndef SPLICE_UTILS_OPTIONS_H
#define SPLICE_UTILS_OPTIONS_H

#include <popt.h>

/* Flags for cli_options_start(). */
enum {
	/* The first operand ends the options (as for a command with verbs). */
	CLI_OPTIONS_IN_ORDER = 1,
};

/* One reading of a command line. */
struct cli_options {
	/* The last option cli_options_next() handed over: */
	const struct poptOption *opt; /* its table entry */
	const char *arg;              /* its argument, NULL when it has none */

	/* The parser's own. */
	int argc;
	char **argv;
	const struct poptOption *table;
	const char *help;    /* for poptSetOtherOptionHelp() */
	unsigned flags;
	int next;            /* the next word of argv to read */
	const char *cluster; /* the rest of a word of bundled short options */
	int operands;        /* operands found so far, moved to argv[1] on */
};

/* Begin reading argv (argc words, argv[0] the program's name) with the
 * options of table.  help is the text after "Usage: PROG" in --help and
 * --usage (see poptSetOtherOptionHelp()); flags are CLI_OPTIONS_*.  argv's
 * words are reordered as they are read. */
void cli_options_start(struct cli_options *p, int argc, char **argv,
		       const struct poptOption *table, const char *help, unsigned flags);

/* Read options up to the next one whose entry has a val: returns that val
 * (p->opt and p->arg then describe it); 0 when the options are over; -1
 * after a usage error, reported on stderr with the hint to --help. */
int cli_options_next(struct cli_options *p);

/* After cli_options_next() returned 0: the operands, in their order on the
 * command line, as a NULL-terminated array; *count gets their number. */
char **cli_options_operands(struct cli_options *p, int *count);

#endif
