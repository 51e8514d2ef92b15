/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove: the --preserve and --no-preserve lists, on their own so that a
 * fuzz target can link them without the rest of spmove
 * (tests/fuzz/fuzz-preserve.c). */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "spmove.h"

/* The words, in the order GNU lists them, and what each keeps. */
const struct cli_choice preserve_choices[PRESERVE_CHOICES] = {
	{ "mode", KEEP_MODE },   { "timestamps", KEEP_TIMES }, { "ownership", KEEP_OWNER },
	{ "links", KEEP_LINKS }, { "context", KEEP_CONTEXT },  { "xattr", KEEP_XATTR },
	{ "all", KEEP_ALL },
};

int preserve_list(const char *list, unsigned *keep, size_t *bad, size_t *bad_len)
{
	unsigned bits = 0;
	char word[16];
	size_t at = 0;
	do {
		size_t len = strcspn(list + at, ",");
		int k = -EINVAL;
		if (len < sizeof(word)) {
			memcpy(word, list + at, len);
			word[len] = '\0';
			k = cli_match(word, preserve_choices, PRESERVE_CHOICES);
		}
		if (k < 0) {
			*bad = at;
			*bad_len = len;
			return -EINVAL;
		}
		bits |= (unsigned)k;
		at += len;
	} while (list[at++] == ',');
	*keep = bits;
	return 0;
}
