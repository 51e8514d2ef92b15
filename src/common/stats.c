/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The --stats report: what a mover did, on stderr, as a line or as JSON. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "jsondoc.h"
#include "message.h"
#include "stats.h"

/* The kinds of system calls the library counts, as the report names them. */
struct call_kind {
	const char *name;
	uint64_t count;
};

enum { CALL_KINDS = 9 };

/* Fill kinds with every counted kind of call and "other" for the rest. */
static void call_kinds(const struct sp_stats *s, struct call_kind kinds[CALL_KINDS])
{
	uint64_t named = s->splice_calls + s->tee_calls + s->vmsplice_calls +
			 s->copy_file_range_calls + s->sendfile_calls + s->read_calls +
			 s->write_calls + s->poll_calls;
	struct call_kind all[CALL_KINDS] = {
		{ "splice", s->splice_calls }, { "tee", s->tee_calls },
		{ "vmsplice", s->vmsplice_calls },
		{ "copy_file_range", s->copy_file_range_calls },
		{ "sendfile", s->sendfile_calls }, { "read", s->read_calls },
		{ "write", s->write_calls }, { "poll", s->poll_calls },
		{ "other", s->syscalls > named ? s->syscalls - named : 0 },
	};
	for (int i = 0; i < CALL_KINDS; i++)
		kinds[i] = all[i];
}

/* The report as one line. */
static void print_text(const struct sp_stats *s, const struct call_kind *kinds,
		       double share, double secs, const char *extra)
{
	double rate = secs > 0 ? (double)s->bytes / secs / (1024.0 * 1024.0) : 0.0;
	fprintf(stderr, "%s: %" PRIu64 " bytes, %.1f%% in kernel, %" PRIu64 " syscalls",
		cli_program, s->bytes, share, s->syscalls);
	const char *sep = " (";
	for (int i = 0; i < CALL_KINDS; i++) {
		if (kinds[i].count) {
			fprintf(stderr, "%s%" PRIu64 " %s", sep, kinds[i].count, kinds[i].name);
			sep = ", ";
		}
	}
	fprintf(stderr, "%s, %" PRIu64 " fallbacks, %.3f s, %.1f MiB/s%s%s\n",
		*sep == ',' ? ")" : "", s->fallbacks, secs, rate,
		extra ? ", " : "", extra ? extra : "");
}

/* Print the report as a JSON document, extra's members at its end. */
static void print_json(const struct sp_stats *s, const struct call_kind *kinds,
				    double share, double secs, struct json_object *extra)
{
	struct json_object *doc = json_object_new_object(), *calls = json_object_new_object();
	int rc = cli_json_add_text(doc, "program", cli_program);
	rc |= cli_json_add_u64(doc, "bytes", s->bytes);
	rc |= cli_json_add_u64(doc, "bytes_in_kernel", s->bytes_spliced);
	rc |= cli_json_add_u64(doc, "bytes_through_user_memory", s->bytes_copied);
	rc |= cli_json_add_double(doc, "in_kernel_percent", share, 1);
	rc |= cli_json_add_u64(doc, "syscalls", s->syscalls);
	for (int i = 0; i < CALL_KINDS; i++)
		rc |= cli_json_add_u64(calls, kinds[i].name, kinds[i].count);
	rc |= cli_json_add(doc, "calls", calls);
	rc |= cli_json_add_u64(doc, "fallbacks", s->fallbacks);
	rc |= cli_json_add_double(doc, "seconds", secs, 6);
	rc |= cli_json_add_double(doc, "bytes_per_second", secs > 0 ? (double)s->bytes / secs : 0, 0);
	if (extra) {
		json_object_object_foreach(extra, key, value)
			rc |= cli_json_add(doc, key, json_object_get(value));
		json_object_put(extra);
	}
	cli_json_emit(doc, rc, stderr, "the statistics");
}

void cli_print_stats(const struct sp_stats *s, bool json, const char *extra,
		     struct json_object *extra_json)
{
	struct call_kind kinds[CALL_KINDS];
	call_kinds(s, kinds);
	double secs = (double)s->elapsed_ns / 1e9;
	double share = s->bytes ? 100.0 * (double)s->bytes_spliced / (double)s->bytes : 0.0;
	if (!json) {
		if (extra_json)
			json_object_put(extra_json);
		print_text(s, kinds, share, secs, extra);
		return;
	}
	print_json(s, kinds, share, secs, extra_json);
}

