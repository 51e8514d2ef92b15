/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Adding up statistics: the one place where two sets of counters meet (a
 * fan-out's helper threads into its mover, a program's movers of several
 * threads into one total). */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "internal.h"

/* How sp_stats_add() merges a field. */
enum merge { SUM, LARGER };

/* Every counter of struct sp_stats, as this release knows them. */
#define FIELD(name, how) { offsetof(struct sp_stats, name), how }
static const struct {
	size_t offset;
	enum merge how;
} fields[] = {
	FIELD(bytes, SUM), FIELD(bytes_spliced, SUM), FIELD(bytes_copied, SUM),
	FIELD(syscalls, SUM), FIELD(splice_calls, SUM), FIELD(tee_calls, SUM),
	FIELD(vmsplice_calls, SUM), FIELD(read_calls, SUM), FIELD(write_calls, SUM),
	FIELD(poll_calls, SUM), FIELD(fallbacks, SUM), FIELD(elapsed_ns, LARGER),
	FIELD(copy_file_range_calls, SUM), FIELD(sendfile_calls, SUM),
	FIELD(pipe_size, LARGER), FIELD(socket_buffer, LARGER),
};

int sp_stats_add(struct sp_stats *to, const struct sp_stats *from)
{
	if (!to || !from || to->size < SP_STATS_SIZE_1_0 || from->size < SP_STATS_SIZE_1_0)
		return -EINVAL;
	size_t known = to->size < from->size ? to->size : from->size;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		size_t at = fields[i].offset;
		if (at + sizeof(uint64_t) > known)
			continue; /* a field one side does not have */
		uint64_t a, b;
		memcpy(&a, (const char *)to + at, sizeof(a));
		memcpy(&b, (const char *)from + at, sizeof(b));
		a = fields[i].how == SUM ? a + b : a > b ? a : b;
		memcpy((char *)to + at, &a, sizeof(a));
	}
	return 0;
}
