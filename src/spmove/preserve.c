/* spmove: the --preserve list, on its own so that a fuzz target can link
 * it without the rest of spmove (tests/fuzz/fuzz-preserve.c). */
#include "config.h"

#include <string.h>

#include "spmove.h"

enum { KEEP_MODE = 1, KEEP_OWNER = 2, KEEP_TIMES = 4, KEEP_ALL = 7 };

/* The words a list may hold, and what each keeps. */
static const struct {
	const char *word;
	unsigned keep;
} preserve_words[] = {
	{ "mode", KEEP_MODE },
	{ "ownership", KEEP_OWNER },
	{ "timestamps", KEEP_TIMES },
	{ "all", KEEP_ALL },
};

/* What the len bytes at word keep, or 0 for an unknown word. */
static unsigned preserve_word(const char *word, size_t len)
{
	for (size_t i = 0; i < sizeof preserve_words / sizeof *preserve_words; i++)
		if (strlen(preserve_words[i].word) == len && !memcmp(preserve_words[i].word, word, len))
			return preserve_words[i].keep;
	return 0;
}

int preserve_list(struct spmove_options *o, const char *list, size_t *bad, size_t *bad_len)
{
	unsigned keep = list ? 0 : KEEP_ALL;
	for (size_t at = 0; list && list[at];) {
		size_t len = strcspn(list + at, ",");
		unsigned k = preserve_word(list + at, len);
		if (len && !k) {
			*bad = at;
			*bad_len = len;
			return -1;
		}
		keep |= k;
		at += len + (list[at + len] == ',');
	}
	o->preserve_mode |= (keep & KEEP_MODE) != 0;
	o->preserve_owner |= (keep & KEEP_OWNER) != 0;
	o->preserve_times |= (keep & KEEP_TIMES) != 0;
	return 0;
}
