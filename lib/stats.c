/* Adding up statistics: the one place where two sets of counters meet (a
 * fan-out's helper threads into its mover, a program's movers of several
 * threads into one total). */
#include "config.h"

#include "libsplice.h"

static uint64_t larger(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

void sp_stats_add(struct sp_stats *to, const struct sp_stats *from)
{
	to->bytes += from->bytes;
	to->bytes_spliced += from->bytes_spliced;
	to->bytes_copied += from->bytes_copied;
	to->syscalls += from->syscalls;
	to->splice_calls += from->splice_calls;
	to->tee_calls += from->tee_calls;
	to->vmsplice_calls += from->vmsplice_calls;
	to->read_calls += from->read_calls;
	to->write_calls += from->write_calls;
	to->poll_calls += from->poll_calls;
	to->fallbacks += from->fallbacks;
	to->copy_file_range_calls += from->copy_file_range_calls;
	to->sendfile_calls += from->sendfile_calls;
	to->elapsed_ns = larger(to->elapsed_ns, from->elapsed_ns);
	to->pipe_size = larger(to->pipe_size, from->pipe_size);
	to->socket_buffer = larger(to->socket_buffer, from->socket_buffer);
}
