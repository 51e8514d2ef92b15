/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one extension convention of every struct that crosses the ABI: the
 * caller says how large its struct is (a size field it fills, or for an
 * array an element size per call), and the library reads and writes only
 * the bytes both sides know. */
#include "config.h"

#include <string.h>

#include "internal.h"

bool lsp_sized_valid(const void *s, size_t size, size_t min, size_t mine)
{
	if (size < min)
		return false;
	const unsigned char *b = s;
	for (size_t i = mine; i < size; i++)
		if (b[i])
			return false;
	return true;
}

void lsp_sized_store(void *dst, size_t size, const void *src, size_t mine, size_t keep)
{
	size_t n = size < mine ? size : mine;
	if (n > keep)
		memcpy((char *)dst + keep, (const char *)src + keep, n - keep);
	if (size > mine)
		memset((char *)dst + mine, 0, size - mine);
}
