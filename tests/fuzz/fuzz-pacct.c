/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: the acct_v3 decoder behind "acctpin dump" and every
 * acctpin check (ap_record_read over a whole file). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acctpin.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	FILE *f = fmemopen((void *)data, size, "rb");
	if (!f)
		return 0;
	uint64_t offset = 0;
	struct ap_record rec;
	char msg[256];
	int rc;
	while ((rc = ap_record_read(f, &offset, &rec, msg, sizeof(msg))) == 1) {
		/* A decoded record is whole and its name is a terminated string. */
		if (offset % AP_RECORD_SIZE || offset > size || rec.version != 3 ||
		    memchr(rec.comm, '\0', sizeof(rec.comm)) == NULL)
			abort();
	}
	/* An error message always names the byte offset it stopped at. */
	if (rc < 0 && !memchr(msg, '\0', sizeof(msg)))
		abort();
	fclose(f);
	return 0;
}
