/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Byte counts written with a unit suffix ("64K", "1MiB", "2GB"). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "size.h"

int cli_parse_size(const char *text, uint64_t *value)
{
	static const char units[] = "KMGTPE";
	char *end;
	if (!text || !*text || *text == '-' || *text == '+' || *text == ' ')
		return -EINVAL;
	errno = 0;
	unsigned long long n = strtoull(text, &end, 10);
	if (end == text)
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	uint64_t scale = 1;
	if (*end) {
		/* The unit letter, in either case; strchr() would also find the
		 * string's own terminator, which is no unit. */
		const char *u = strchr(units, toupper((unsigned char)end[0]));
		if (!u || !*u)
			return -EINVAL;
		unsigned base = 1024;
		const char *rest = end + 1;
		if (!strcmp(rest, "B"))
			base = 1000;
		else if (strcmp(rest, "") && strcmp(rest, "iB"))
			return -EINVAL;
		for (int i = 0; i <= u - units; i++)
			scale *= base;
	}
	if (n > UINT64_MAX / scale)
		return -ERANGE;
	*value = n * scale;
	return 0;
}
