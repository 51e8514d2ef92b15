/* libFuzzer target: spmove's --preserve list (preserve_list).  Checks it
 * against a second, independent reading of the list (strtok_r over a
 * copy), and that parsing is deterministic and idempotent, only ever sets
 * flags, leaves everything else alone, treats "all" as the three words
 * together, and leaves the options as they were when it refuses a list. */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "spmove.h"

/* The flags as a number: mode 1, ownership 2, timestamps 4. */
static unsigned flags(const struct spmove_options *o)
{
	return (unsigned)o->preserve_mode | (unsigned)o->preserve_owner << 1 |
	       (unsigned)o->preserve_times << 2;
}

/* Options with every flag from bits and the other fields set to values
 * that parsing must not touch. */
static struct spmove_options options(unsigned bits)
{
	struct spmove_options o = {
		.path = SP_PATH_RW, .overwrite = OVERWRITE_ASK, .recursive = true,
		.verify = true, .sparse = SPARSE_NEVER, .progress = 7,
	};
	o.preserve_mode = bits & 1;
	o.preserve_owner = bits & 2;
	o.preserve_times = bits & 4;
	return o;
}

/* Whether a and b agree on everything but the three flags. */
static bool same_others(const struct spmove_options *a, const struct spmove_options *b)
{
	return a->path == b->path && a->overwrite == b->overwrite &&
	       a->recursive == b->recursive && a->remove_source == b->remove_source &&
	       a->in_place == b->in_place && a->fsync == b->fsync && a->verify == b->verify &&
	       a->sparse == b->sparse && a->progress == b->progress && a->stats == b->stats;
}

/* The reference reading: the flags the list names, or -1 when a word is
 * unknown (then *first is the first unknown word, in copy). */
static int reference(char *copy, const char **first)
{
	static const char *const names[] = { "mode", "ownership", "timestamps" };
	int bits = 0;
	for (char *save, *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		int k = 0;
		for (int i = 0; i < 3; i++)
			if (!strcmp(w, names[i]))
				k = 1 << i;
		if (!strcmp(w, "all"))
			k = 7;
		if (!k) {
			*first = w;
			return -1;
		}
		bits |= k;
	}
	return bits;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096 || memchr(data, '\0', size))
		return 0;
	char *list = malloc(size + 5), *copy = malloc(size + 1);
	if (!list || !copy)
		abort();
	memcpy(list, data, size);
	list[size] = '\0';
	memcpy(copy, list, size + 1);
	const char *first = NULL;
	int want = reference(copy, &first);

	for (unsigned start = 0; start < 8; start++) {
		struct spmove_options o = options(start), again = options(start);
		size_t bad = 0, len = 0, bad2 = 1, len2 = 1;
		int rc = preserve_list(&o, list, &bad, &len);
		int rc2 = preserve_list(&again, list, &bad2, &len2);
		if (rc != rc2 || flags(&o) != flags(&again) || (rc < 0 && (bad != bad2 || len != len2)))
			abort();   /* not deterministic */
		struct spmove_options untouched = options(start);
		if (!same_others(&o, &untouched) || !same_others(&again, &untouched))
			abort();   /* a field other than the flags changed */
		if (rc < 0) {
			/* Refused: the same first bad word, options as they were. */
			if (want >= 0 || flags(&o) != start || bad + len > size || len == 0 ||
			    memchr(list + bad, ',', len) || bad != (size_t)(first - copy) ||
			    len != strlen(first))
				abort();
			continue;
		}
		if (rc != 0 || want < 0 || flags(&o) != (start | (unsigned)want))
			abort();   /* accepted: exactly the named flags added */
		if (preserve_list(&o, list, &bad, &len) != 0 || flags(&o) != (start | (unsigned)want))
			abort();   /* not idempotent */
	}

	/* "all" is the three words together: appended to an accepted list it
	 * keeps everything, as "mode,ownership,timestamps" does. */
	if (want >= 0) {
		struct spmove_options a = options(0), b = options(0);
		size_t bad, len;
		memcpy(list + size, ",all", 5);
		int ra = preserve_list(&a, list, &bad, &len);
		list[size] = '\0';
		int rb = preserve_list(&b, list, &bad, &len) ||
			 preserve_list(&b, "mode,ownership,timestamps", &bad, &len);
		if (ra != 0 || rb != 0 || flags(&a) != 7 || flags(&b) != 7)
			abort();
	}
	free(list);
	free(copy);
	return 0;
}
