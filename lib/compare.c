/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sp_compare(): are two byte ranges of two fds equal? */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libsplice.h"

/* Read up to n bytes of fd at off into buf, retrying after EINTR and short
 * reads.  Returns the count (short only at end of file) or a negative errno. */
static ssize_t read_full(int fd, char *buf, size_t n, int64_t off)
{
	size_t got = 0;
	while (got < n) {
		ssize_t k = pread(fd, buf + got, n - got, off + (int64_t)got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		if (k == 0)
			break;
		got += (size_t)k;
	}
	return (ssize_t)got;
}

int sp_compare(int a, int64_t off_a, int b, int64_t off_b, uint64_t length)
{
	if (off_a < 0 || off_b < 0)
		return -EINVAL;
	int saved = errno;
	size_t size = SP_DEFAULT_BUFFER_SIZE * 4;
	char *ba = malloc(size), *bb = malloc(size);
	int rc = ba && bb ? 0 : -ENOMEM;
	while (!rc && length) {
		size_t want = length < size ? (size_t)length : size;
		ssize_t na = read_full(a, ba, want, off_a);
		ssize_t nb = na < 0 ? 0 : read_full(b, bb, want, off_b);
		if (na < 0 || nb < 0)
			rc = (int)(na < 0 ? na : nb);
		else if (na != nb || memcmp(ba, bb, (size_t)na))
			rc = 1;
		else if (na == 0)
			break; /* both ended: equal up to here */
		else {
			off_a += na;
			off_b += na;
			length -= (uint64_t)na;
		}
	}
	free(ba);
	free(bb);
	errno = saved;
	return rc;
}
