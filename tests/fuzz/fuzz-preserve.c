/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: spmove's --preserve list (preserve_list).  Checks it
 * against a second, independent reading of the list (splitting at every
 * comma and comparing each word with the prefixes of the known words),
 * and that parsing is deterministic, reports the first bad word exactly,
 * and treats "all" as every word but context together. */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "spmove.h"

/* The reference: the bits the words name, by prefix. */
static const struct {
	const char *word;
	unsigned bits;
} words[] = {
	{ "mode", KEEP_MODE },   { "timestamps", KEEP_TIMES }, { "ownership", KEEP_OWNER },
	{ "links", KEEP_LINKS }, { "context", KEEP_CONTEXT },  { "xattr", KEEP_XATTR },
	{ "all", KEEP_MODE | KEEP_TIMES | KEEP_OWNER | KEEP_LINKS | KEEP_XATTR },
};

/* The bits of the len bytes at w: the one word they are all of or begin,
 * else 0 (none, or several). */
static unsigned word_bits(const char *w, size_t len)
{
	unsigned found = 0;
	int count = 0;
	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++) {
		if (len == 0 || strlen(words[i].word) < len || memcmp(words[i].word, w, len))
			continue;
		if (strlen(words[i].word) == len)
			return words[i].bits;
		found = words[i].bits;
		count++;
	}
	return count == 1 ? found : 0;
}

/* The reference reading: the bits, or -1 with the first bad word at
 * *bad, *len bytes long. */
static long reference(const char *list, size_t *bad, size_t *len)
{
	unsigned bits = 0;
	const char *w = list;
	for (;;) {
		const char *comma = strchr(w, ',');
		size_t n = comma ? (size_t)(comma - w) : strlen(w);
		unsigned k = word_bits(w, n);
		if (!k) {
			*bad = (size_t)(w - list);
			*len = n;
			return -1;
		}
		bits |= k;
		if (!comma)
			return bits;
		w = comma + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096 || memchr(data, '\0', size))
		return 0;
	char *list = malloc(size + 5);
	if (!list)
		abort();
	memcpy(list, data, size);
	list[size] = '\0';
	size_t want_bad = 0, want_len = 0;
	long want = reference(list, &want_bad, &want_len);

	unsigned keep = 12345, keep2 = 54321;
	size_t bad = 7, len = 7, bad2 = 8, len2 = 8;
	int rc = preserve_list(list, &keep, &bad, &len);
	int rc2 = preserve_list(list, &keep2, &bad2, &len2);
	if (rc != rc2 || (rc == 0 && keep != keep2) || (rc < 0 && (bad != bad2 || len != len2)))
		abort(); /* not deterministic */
	if (rc < 0 && (want >= 0 || bad != want_bad || len != want_len || keep != 12345))
		abort(); /* refused: the first bad word, nothing set */
	if (rc == 0 && (want < 0 || keep != (unsigned)want))
		abort(); /* accepted: exactly the named bits */

	/* "all" appended to an accepted list keeps all but context. */
	if (want >= 0) {
		memcpy(list + size, ",all", 5);
		if (preserve_list(list, &keep, &bad, &len) != 0 ||
		    (keep & ~(unsigned)KEEP_CONTEXT) != KEEP_ALL)
			abort();
	}
	free(list);
	return 0;
}
