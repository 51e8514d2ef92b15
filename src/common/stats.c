/* The --stats line: what a mover did, on stderr. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "message.h"
#include "stats.h"

void cli_print_stats(const struct sp_stats *s)
{
	cli_print_stats_with(s, NULL);
}

void cli_print_stats_with(const struct sp_stats *s, const char *extra)
{
	double secs = (double)s->elapsed_ns / 1e9;
	double share = s->bytes ? 100.0 * (double)s->bytes_spliced / (double)s->bytes : 0.0;
	double rate = secs > 0 ? (double)s->bytes / secs / (1024.0 * 1024.0) : 0.0;
	fprintf(stderr,
		"%s: %" PRIu64 " bytes, %.1f%% zero-copy, %" PRIu64 " syscalls "
		"(%" PRIu64 " splice, %" PRIu64 " tee, %" PRIu64 " read, %" PRIu64 " write), "
		"%" PRIu64 " fallbacks, %.3f s, %.1f MiB/s%s%s\n",
		cli_program, s->bytes, share, s->syscalls, s->splice_calls, s->tee_calls,
		s->read_calls, s->write_calls, s->fallbacks, secs, rate,
		extra ? ", " : "", extra ? extra : "");
}
