/* File names in messages, shell-quoted as coreutils prints them. */
#ifndef SPLICE_UTILS_QUOTE_H
#define SPLICE_UTILS_QUOTE_H

/* name as it should appear in a message: unchanged when it is made of
 * harmless characters, else in quotes: "..." when it holds a ' but nothing
 * the shell expands in double quotes, otherwise '...' with each ' written
 * as '\''.  Returns name itself or one of a few rotating buffers (a name
 * too long for one is cut short); never fails. */
const char *cli_quote(const char *name);

#endif
