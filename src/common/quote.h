/* SPDX-License-Identifier: GPL-2.0-or-later */
/* File names and outside text in messages, shell-escaped as coreutils
 * quotes them (its "shell-escape" and "shell-escape-always" styles). */
#ifndef SPLICE_UTILS_QUOTE_H
#define SPLICE_UTILS_QUOTE_H

/*
 * name as coreutils' quotef() writes it (cat's and tee's messages): bare
 * when it is not empty and made of printable characters of the locale that
 * the shell takes literally where they stand; otherwise as
 * cli_quote_always() writes it.  Never a raw control byte, escape sequence
 * or invalid multibyte sequence.  Returns name itself or one of eight
 * rotating buffers (valid until eight more calls); keeps errno; never fails
 * (a name that cannot be quoted for lack of memory becomes a fixed
 * placeholder).
 */
const char *cli_quote(const char *name);

/*
 * name as coreutils' quoteaf() writes it (cp's and mv's messages): in
 * single quotes, each ' written as '\'', and each run of unprintable bytes
 * (control characters, ESC, DEL, bytes that are not a valid character of
 * the locale) as $'...' with \n, \t, \r, \a, \b, \f, \v or a 3-digit octal
 * escape: 'a'$'\n''b'.  A name that holds a ' and otherwise only
 * characters literal in double quotes too is written "it's" instead.
 * Buffers as for cli_quote(); never fails.
 */
const char *cli_quote_always(const char *name);

/* Free the calling thread's quoting buffers (a thread about to end calls
 * it; names it quoted before are no longer valid). */
void cli_quote_release(void);

#endif
