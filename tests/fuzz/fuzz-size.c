/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: the byte-count parser behind --offset, --length,
 * --pipe-size and friends (cli_parse_size). */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "size.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[64];
	if (size >= sizeof(text))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	uint64_t value = 12345;
	int rc = cli_parse_size(text, &value);
	if (rc != 0 && rc != -EINVAL && rc != -ERANGE)
		abort();
	if (rc != 0 && value != 12345)
		abort(); /* a refused text leaves the value alone */
	/* Plain digits mean exactly what strtoull says. */
	if (rc == 0 && size > 0 && strspn(text, "0123456789") == size &&
	    value != strtoull(text, NULL, 10))
		abort();
	return 0;
}
