/* acctpin: reporting checks as TAP lines and a summary table, or as JSON. */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "acctpin.h"

/* The checks every scenario makes, the columns of the summary table. */
static const char *const columns[] = { "unmount", "acct-off", "records", "missing",
				       "last-record", NULL };

void ap_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

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

/* Print the table: one row a scenario, one column a standard check, then
 * the scenario's other checks together. */
static void print_table(const struct ap_report *r)
{
	printf("# %-12s", "scenario");
	for (size_t k = 0; columns[k]; k++)
		printf(" %-11s", columns[k]);
	printf(" %-6s\n", "other");
	for (size_t i = 0; i < r->n; i++) {
		const char *s = r->checks[i].scenario;
		bool first = true;
		for (size_t j = 0; j < i && first; j++)
			first = strcmp(r->checks[j].scenario, s) != 0;
		if (!first)
			continue;
		printf("# %-12s", s);
		for (size_t k = 0; columns[k]; k++)
			printf(" %-11s", cell(r, s, columns[k]));
		printf(" %-6s\n", cell(r, s, NULL));
	}
}

/* The whole report as one JSON document. */
static void print_json(const struct ap_report *r, const char *header_json)
{
	printf("{%s%s\"checks\":[", header_json, *header_json ? "," : "");
	for (size_t i = 0; i < r->n; i++) {
		const struct ap_check *c = &r->checks[i];
		printf("%s{\"scenario\":", i ? "," : "");
		ap_json_string(stdout, c->scenario);
		fputs(",\"check\":", stdout);
		ap_json_string(stdout, c->name);
		printf(",\"ok\":%s,\"skipped\":%s,\"detail\":", c->ok ? "true" : "false",
		       c->skipped ? "true" : "false");
		ap_json_string(stdout, c->detail);
		fputc('}', stdout);
	}
	printf("],\"passed\":%zu,\"failed\":%u}\n", r->n - r->failed, r->failed);
}

void ap_report_finish(struct ap_report *r, const char *header_json)
{
	if (r->json) {
		print_json(r, header_json);
		return;
	}
	printf("1..%zu\n", r->n);
	print_table(r);
	printf("# %zu checks, %u failed\n", r->n, r->failed);
}

void ap_report_free(struct ap_report *r)
{
	free(r->checks);
	r->checks = NULL;
	r->n = r->cap = 0;
}
