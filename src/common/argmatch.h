/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An option's argument matched against a list of words, with GNU's
 * messages for a bad one. */
#ifndef SPLICE_UTILS_ARGMATCH_H
#define SPLICE_UTILS_ARGMATCH_H

#include <stdbool.h>
#include <stddef.h>

/* One accepted word and what it means; synonyms share a value. */
struct cli_choice {
	const char *word;
	int value;
};

/* The value of arg among the n choices: an exact word, or an abbreviation
 * that only one value's words begin with.  Returns -EINVAL when there is
 * none (or arg is empty), -ENOTUNIQ when the abbreviation is ambiguous.
 * Prints nothing (match.c). */
int cli_match(const char *arg, const struct cli_choice *choices, size_t n);

/*
 * Stores in *value the value of arg among the n choices: an exact word, or
 * an abbreviation that only one value's words begin with, and returns 0.
 * Otherwise prints "PROG: invalid argument 'ARG' for 'CONTEXT'" (or
 * "ambiguous argument"), the list of valid arguments (synonyms on one line)
 * and the hint to --help, leaves *value alone and returns false (as every
 * option parser: true, or false after reporting).
 */
bool cli_argmatch(const char *context, const char *arg, const struct cli_choice *choices,
		 size_t n, int *value);

#endif
