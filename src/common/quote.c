/* File names in messages, shell-quoted as coreutils prints them. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "quote.h"

/* Whether s is non-empty and made only of characters the shell takes
 * literally. */
static bool harmless(const char *s)
{
	return *s && s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			      "0123456789_./@%+,:=-")] == '\0';
}

const char *cli_quote(const char *name)
{
	enum { SLOTS = 4, SLOT_SIZE = 4096 };
	static char slots[SLOTS][SLOT_SIZE];
	static unsigned next;
	if (harmless(name))
		return name;
	char *out = slots[next++ % SLOTS];
	if (strchr(name, '\'') && !strpbrk(name, "\"$`\\")) {
		snprintf(out, SLOT_SIZE, "\"%s\"", name);
		return out;
	}
	char *p = out, *end = out + SLOT_SIZE - 6;
	*p++ = '\'';
	for (; *name && p < end; name++) {
		if (*name == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = *name;
		}
	}
	*p++ = '\'';
	*p = '\0';
	return out;
}
