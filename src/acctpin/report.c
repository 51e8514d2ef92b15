/* SPDX-License-Identifier: GPL-2.0-or-later */
/* acctpin: reporting checks as TAP lines and a summary table, or as JSON. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <libsmartcols.h>

#include "acctpin.h"
#include "jsondoc.h"
#include "message.h"

/* The checks every scenario makes, the columns of the summary table. */
static const char *const columns[] = { "unmount", "acct-off", "records", "missing",
				       "last-record", NULL };

/* Append a check.  Returns it, or NULL when memory runs out. */
static struct ap_check *add(struct ap_report *r, const char *scenario, const char *name)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 64;
		struct ap_check *v = realloc(r->checks, cap * sizeof *v);
		if (!v)
			return NULL;
		r->checks = v;
		r->cap = cap;
	}
	struct ap_check *c = &r->checks[r->n++];
	memset(c, 0, sizeof *c);
	snprintf(c->scenario, sizeof c->scenario, "%s", scenario);
	snprintf(c->name, sizeof c->name, "%s", name);
	return c;
}

/* Record a check (skipped: a skipped scenario) with its formatted detail
 * and, without --json, print its TAP line.  Returns ok. */
static bool record(struct ap_report *r, const char *scenario, const char *name, bool ok,
		   bool skipped, const char *fmt, va_list ap)
{
	struct ap_check *c = add(r, scenario, name);
	if (!ok)
		r->failed++;
	if (!c)
		return ok;
	c->ok = ok;
	c->skipped = skipped;
	vsnprintf(c->detail, sizeof c->detail, fmt, ap);
	if (r->json)
		return ok;
	if (skipped)
		printf("ok %zu - %s # SKIP %s\n", r->n, scenario, c->detail);
	else
		printf("%s %zu - %s: %s: %s\n", ok ? "ok" : "not ok", r->n, scenario, name,
		       c->detail);
	fflush(stdout);
	return ok;
}

bool ap_check(struct ap_report *r, const char *scenario, const char *name, bool ok,
	      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	record(r, scenario, name, ok, false, fmt, ap);
	va_end(ap);
	return ok;
}

void ap_skip(struct ap_report *r, const char *scenario, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	record(r, scenario, "scenario", true, true, fmt, ap);
	va_end(ap);
}

/* The cell of the summary table for one scenario and one column. */
static const char *cell(const struct ap_report *r, const char *scenario, const char *column)
{
	const char *v = "-";
	for (size_t i = 0; i < r->n; i++) {
		const struct ap_check *c = &r->checks[i];
		if (strcmp(c->scenario, scenario))
			continue;
		if (c->skipped)
			return "skip";
		bool mine = column ? !strcmp(c->name, column) : true;
		for (size_t k = 0; !column && columns[k]; k++)
			mine = mine && strcmp(c->name, columns[k]);
		if (mine && !c->ok)
			return "FAIL";
		if (mine)
			v = "ok";
	}
	return v;
}

/* Whether check i is the first of its scenario. */
static bool first_of_scenario(const struct ap_report *r, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(r->checks[j].scenario, r->checks[i].scenario))
			return false;
	return true;
}

/* Fill tb: one row a scenario, one column a standard check, then the
 * scenario's other checks together.  Returns 0 or -ENOMEM. */
static int fill_table(const struct ap_report *r, struct libscols_table *tb)
{
	static const char *const headers[] = { "SCENARIO", "UNMOUNT", "ACCT-OFF", "RECORDS",
					       "MISSING", "LAST-RECORD", "OTHER" };
	const size_t ncols = sizeof(headers) / sizeof(headers[0]);
	for (size_t k = 0; k < ncols; k++)
		if (!scols_table_new_column(tb, headers[k], 0, 0))
			return -ENOMEM;
	for (size_t i = 0; i < r->n; i++) {
		if (!first_of_scenario(r, i))
			continue;
		const char *s = r->checks[i].scenario;
		struct libscols_line *ln = scols_table_new_line(tb, NULL);
		if (!ln || scols_line_set_data(ln, 0, s))
			return -ENOMEM;
		for (size_t k = 1; k < ncols; k++)
			if (scols_line_set_data(ln, k, cell(r, s, columns[k - 1])))
				return -ENOMEM;
	}
	return 0;
}

/* Print the summary table (libsmartcols lays it out) as TAP comments,
 * each line after "# ".  Returns 0, or -ENOMEM without printing it. */
static int print_table(const struct ap_report *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	struct libscols_table *tb = scols_new_table();
	int rc = mem && tb ? fill_table(r, tb) : -ENOMEM;
	if (!rc && (scols_table_set_stream(tb, mem) || scols_print_table(tb)))
		rc = -ENOMEM;
	scols_unref_table(tb);
	if (mem && fclose(mem))
		rc = -ENOMEM;
	for (char *line = text, *end; !rc && line && *line; line = end + 1) {
		end = strchrnul(line, '\n');
		printf("# %.*s\n", (int)(end - line), line);
		if (!*end)
			break;
	}
	free(text);
	return rc;
}

/* The whole report as one JSON document: header's members, then the
 * checks and the counts.  Returns 0, or 1 after reporting a failure. */
static int print_json(const struct ap_report *r, struct json_object *header)
{
	struct json_object *checks = json_object_new_array();
	int rc = checks ? 0 : -ENOMEM;
	for (size_t i = 0; i < r->n && !rc; i++) {
		const struct ap_check *c = &r->checks[i];
		struct json_object *o = json_object_new_object();
		rc |= cli_json_add_text(o, "scenario", c->scenario);
		rc |= cli_json_add_text(o, "check", c->name);
		rc |= cli_json_add_bool(o, "ok", c->ok);
		rc |= cli_json_add_bool(o, "skipped", c->skipped);
		rc |= cli_json_add_text(o, "detail", c->detail);
		if (rc || json_object_array_add(checks, o)) {
			json_object_put(o);
			rc = -ENOMEM;
		}
	}
	rc |= cli_json_add(header, "checks", checks);
	rc |= cli_json_add_u64(header, "passed", r->n - r->failed);
	rc |= cli_json_add_u64(header, "failed", r->failed);
	return cli_json_emit(header, rc, stdout, "the report");
}

int ap_report_finish(struct ap_report *r, struct json_object *header)
{
	if (r->json)
		return print_json(r, header);
	json_object_put(header);
	printf("1..%zu\n", r->n);
	int rc = print_table(r);
	if (rc)
		cli_error(-rc, "the summary table");
	printf("# %zu checks, %u failed\n", r->n, r->failed);
	return rc ? 1 : 0;
}

void ap_report_free(struct ap_report *r)
{
	free(r->checks);
	r->checks = NULL;
	r->n = r->cap = 0;
}
