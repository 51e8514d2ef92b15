/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove --probe: print what sp_probe() measured in a directory -- which
 * data paths work and what the kernel really does with the pages, with the
 * observations each verdict rests on -- as text or (--json) one JSON
 * document. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <libsmartcols.h>
#include <stdio.h>
#include <string.h>

#include "message.h"
#include "spmove.h"
#include "stealfs-abi.h"

/* The file system's name for the usual magic numbers. */
static const char *fs_name(unsigned long type)
{
	switch (type) {
	case 0xEF53: return "ext2/3/4";
	case 0x01021994: return "tmpfs";
	case 0x58465342: return "xfs";
	case 0x9123683E: return "btrfs";
	case STEALFS_MAGIC: return "stealfs";
	case 0x6969: return "nfs";
	case 0x65735546: return "fuse";
	default: return "other";
	}
}

/* The label of a method: "auto", a path's name, with " -M" for SPLICE_F_MOVE. */
static void method_label(const struct sp_probe_method *r, char *label, size_t size)
{
	snprintf(label, size, "%s%s", r->policy == SP_POLICY_AUTO ? "auto" : sp_path_name(r->path),
		 r->splice_flags ? " -M" : "");
}

/* Percent of the bytes delivered that went through splice-family calls. */
static double spliced_percent(const struct sp_probe_method *r)
{
	return r->bytes ? 100.0 * (double)r->bytes_spliced / (double)r->bytes : 0.0;
}

/* The verdict's word (the JSON's "verdict"). */
static const char *method_verdict(enum sp_probe_verdict v)
{
	switch (v) {
	case SP_PROBE_NOT_RUN: return "not run";
	case SP_PROBE_WORKS: return "works";
	case SP_PROBE_FALLS_BACK: return "falls back";
	case SP_PROBE_FAILS: return "fails";
	case SP_PROBE_WRONG_DATA: return "wrong data";
	}
	return "not run";
}

/* One method's result in words, into text: whether it works, falls back,
 * or fails, and what stealfs counted. */
static void method_result(const struct sp_probe_method *r, char *text, size_t size)
{
	int n = 0;
	switch (r->verdict) {
	case SP_PROBE_NOT_RUN:
		snprintf(text, size, "unknown (cannot set up: %s)", strerror(r->error));
		return;
	case SP_PROBE_FAILS:
		snprintf(text, size, "fails: %s", strerror(r->error));
		return;
	case SP_PROBE_WRONG_DATA:
		snprintf(text, size, "WRONG DATA (%" PRIu64 " bytes)", r->bytes);
		return;
	case SP_PROBE_FALLS_BACK:
		n = snprintf(text, size, "falls back to %s", sp_path_name(r->used));
		break;
	case SP_PROBE_WORKS:
		n = r->policy == SP_POLICY_AUTO
			    ? snprintf(text, size, "works (uses %s)", sp_path_name(r->used))
			    : snprintf(text, size, "works");
		break;
	}
	if (r->pages_moved >= 0 && n >= 0 && (size_t)n < size)
		snprintf(text + n, size - (size_t)n, ", stealfs: %" PRId64 " pages moved, %" PRId64
			 " copied", r->pages_moved, r->pages_copied);
}

/* The most paths shown: more than the library tries today. */
#define METHODS_MAX 32

/* What sp_probe() returned: its measurements and the first n paths. */
struct probed {
	struct sp_probe r;
	struct sp_probe_method methods[METHODS_MAX];
	size_t n;
};

/* One page measurement as sp_probe() returns it, with its names. */
struct measure {
	const char *key;   /* the JSON's name */
	const char *label; /* the text's */
	const struct sp_probe_pages *pages;
	const struct sp_probe_evidence *evidence;
};

/* The fate's word (the JSON's "verdict"). */
static const char *fate_word(enum sp_page_fate fate)
{
	switch (fate) {
	case SP_PAGES_UNKNOWN: return "cannot tell";
	case SP_PAGES_SHARED: return "shared";
	case SP_PAGES_COPIED: return "copied";
	case SP_PAGES_MOVED: return "moved";
	case SP_PAGES_REFUSED: return "refused";
	}
	return "cannot tell";
}

/* Why a measurement could not tell: its error, hidden frame numbers, or
 * pages nothing outside the kernel can observe.  NULL when it could. */
static const char *cannot_tell_why(const struct measure *m)
{
	if (m->pages->fate != SP_PAGES_UNKNOWN)
		return NULL;
	if (m->pages->error)
		return strerror(m->pages->error);
	if (m->evidence->frames_error == EPERM)
		return "frame numbers in /proc/self/pagemap need root";
	if (m->evidence->frames_error)
		return strerror(m->evidence->frames_error);
	if (m->evidence->byte_after_write < 0 && m->pages->pages < 0)
		return "not measured: needs a pipe that references the file's pages";
	return "a pipe's own pages have no address to look up and cannot be written after the "
	       "splice; only stealfs's counters see them, on stealfs";
}

/* What the evidence of a measurement shows, in words, into text. */
static void describe_evidence(const struct measure *m, char *text, size_t size)
{
	const struct sp_probe_evidence *e = m->evidence;
	int n = 0;
	text[0] = '\0';
	if (e->frames_checked > 0)
		n += snprintf(text + n, size - (size_t)n, "; %" PRId64 " of %" PRId64
			      " frames the source's", e->frames_same, e->frames_checked);
	if (e->source_resident >= 0 && (size_t)n < size)
		n += snprintf(text + n, size - (size_t)n, "; %" PRId64 " source pages still cached",
			      e->source_resident);
	if (e->byte_after_write >= 0 && (size_t)n < size)
		n += snprintf(text + n, size - (size_t)n, "; read '%c' after the source became 'B'",
			      e->byte_after_write);
	if (m->pages->pages_moved >= 0 && (size_t)n < size)
		snprintf(text + n, size - (size_t)n, "; stealfs: %" PRId64 " of %" PRId64 " moved",
			 m->pages->pages_moved, m->pages->pages);
}

/* A page measurement's verdict in words, with what it rests on or why it
 * cannot tell, into text. */
static void measure_verdict(const struct measure *m, char *text, size_t size)
{
	char evidence[200];
	const char *why = cannot_tell_why(m);
	describe_evidence(m, evidence, sizeof(evidence));
	if (why)
		snprintf(text, size, "%s (%s)", fate_word(m->pages->fate), why);
	else if (evidence[0])
		snprintf(text, size, "%s (%s)", fate_word(m->pages->fate), evidence + 2);
	else
		snprintf(text, size, "%s", fate_word(m->pages->fate));
}

/* A JSON integer, or null for a figure that was not measured (-1). */
static json_object *measured(int64_t value)
{
	return value < 0 ? NULL : json_object_new_int64(value);
}

/* A JSON string of strerror(error), or null for no error. */
static json_object *error_text(int error)
{
	return error ? json_object_new_string(strerror(error)) : NULL;
}

/* One method as a JSON object. */
static json_object *method_json(const struct sp_probe_method *r)
{
	char label[40];
	method_label(r, label, sizeof(label));
	json_object *o = json_object_new_object();
	json_object_object_add(o, "method", json_object_new_string(label));
	json_object_object_add(o, "verdict", json_object_new_string(method_verdict(r->verdict)));
	json_object_object_add(o, "used", json_object_new_string(sp_path_name(r->used)));
	json_object_object_add(o, "bytes", json_object_new_int64((int64_t)r->bytes));
	json_object_object_add(o, "bytes_spliced", json_object_new_int64((int64_t)r->bytes_spliced));
	json_object_object_add(o, "spliced_percent", json_object_new_double(spliced_percent(r)));
	json_object_object_add(o, "stealfs_pages_moved", measured(r->pages_moved));
	json_object_object_add(o, "stealfs_pages_copied", measured(r->pages_copied));
	json_object_object_add(o, "error", error_text(r->error));
	return o;
}

/* One page measurement as a JSON object: verdict, reason, raw evidence. */
static json_object *measure_json(const struct measure *m)
{
	const struct sp_probe_evidence *e = m->evidence;
	const char *why = cannot_tell_why(m);
	char byte[2] = { (char)e->byte_after_write, '\0' };
	json_object *ev = json_object_new_object();
	json_object_object_add(ev, "byte_after_write",
			       e->byte_after_write < 0 ? NULL : json_object_new_string(byte));
	json_object_object_add(ev, "frames_checked", measured(e->frames_checked));
	json_object_object_add(ev, "frames_same", measured(e->frames_same));
	json_object_object_add(ev, "frames_error", error_text(e->frames_error));
	json_object_object_add(ev, "source_resident", measured(e->source_resident));
	json_object_object_add(ev, "stealfs_pages_moved", measured(m->pages->pages_moved));
	json_object *o = json_object_new_object();
	json_object_object_add(o, "verdict", json_object_new_string(fate_word(m->pages->fate)));
	json_object_object_add(o, "reason", why ? json_object_new_string(why) : NULL);
	json_object_object_add(o, "pages", measured(m->pages->pages));
	json_object_object_add(o, "error", error_text(m->pages->error));
	json_object_object_add(o, "evidence", ev);
	return o;
}

/* The page measurements of r, in the order they are printed. */
#define MEASURES 9
static void list_measures(const struct sp_probe *r, struct measure m[MEASURES])
{
	const struct sp_probe_evidences *e = &r->evidence;
	struct measure all[MEASURES] = {
		{ "vmsplice_anon", "vmsplice of user memory", &r->vmsplice_anon, &e->vmsplice_anon },
		{ "vmsplice_gift", "SPLICE_F_GIFT", &r->vmsplice_gift, &e->vmsplice_gift },
		{ "vmsplice_file", "vmsplice of a mapped file", &r->vmsplice_file, &e->vmsplice_file },
		{ "splice_in", "splice from a file", &r->splice_in, &e->splice_in },
		{ "tee", "tee(2) of those pipe pages", &r->tee, &e->tee },
		{ "pagecache_splice", "page-cache pages without -M", &r->pagecache_splice,
		  &e->pagecache_splice },
		{ "pagecache_move", "page-cache pages with -M", &r->pagecache_move, &e->pagecache_move },
		{ "anon_move", "write(2) pipe pages with -M", &r->anon_move, &e->anon_move },
		{ "gift_move", "gifted pages with -M", &r->gift_move, &e->gift_move },
	};
	memcpy(m, all, sizeof(all));
}

/* Print r as one JSON document.  Returns 0 or 1 when it cannot be built. */
static int print_json(const struct probed *p)
{
	const struct sp_probe *r = &p->r;
	struct measure m[MEASURES];
	list_measures(r, m);
	json_object *doc = json_object_new_object();
	json_object_object_add(doc, "kernel", json_object_new_string(r->kernel));
	json_object_object_add(doc, "fs", json_object_new_string(fs_name(r->fs_type)));
	json_object_object_add(doc, "fs_type", json_object_new_int64((int64_t)r->fs_type));
	json_object_object_add(doc, "page_size", json_object_new_int64((int64_t)r->page_size));
	json_object_object_add(doc, "stealfs_counters", json_object_new_boolean(r->stealfs_counters));
	json_object_object_add(doc, "frames_readable", json_object_new_boolean(r->frames_readable));
	json_object *methods = json_object_new_array();
	for (size_t i = 0; i < p->n; i++)
		json_object_array_add(methods, method_json(&p->methods[i]));
	json_object_object_add(doc, "methods", methods);
	json_object *pages = json_object_new_object();
	for (unsigned i = 0; i < MEASURES; i++)
		json_object_object_add(pages, m[i].key, measure_json(&m[i]));
	json_object_object_add(doc, "pages", pages);
	const char *text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN);
	int rc = text ? printf("%s\n", text) < 0 : 1;
	json_object_put(doc);
	return rc;
}

/* A table of two columns, NAME and VALUE headed as given, printed by
 * libsmartcols after the caller fills it. */
static struct libscols_table *two_columns(const char *name, const char *value)
{
	struct libscols_table *tb = scols_new_table();
	if (tb && scols_table_new_column(tb, name, 0, 0) &&
	    scols_table_new_column(tb, value, 0, SCOLS_FL_WRAP))
		return tb;
	scols_unref_table(tb);
	return NULL;
}

/* Add the row NAME, VALUE to tb.  Returns 0 or -ENOMEM. */
static int add_row(struct libscols_table *tb, const char *name, const char *value)
{
	struct libscols_line *ln = scols_table_new_line(tb, NULL);
	return ln && !scols_line_set_data(ln, 0, name) && !scols_line_set_data(ln, 1, value)
		       ? 0
		       : -ENOMEM;
}

/* Print tb and free it; a blank line before it.  Returns 0 or -ENOMEM. */
static int print_table(struct libscols_table *tb, int rc)
{
	if (!rc && tb && (printf("\n") < 0 || scols_print_table(tb)))
		rc = -ENOMEM;
	scols_unref_table(tb);
	return tb ? rc : -ENOMEM;
}

/* Print r as text: a line about the kernel and the directory, then a table
 * of the methods and one of the page measurements.  Returns 0 or -ENOMEM. */
static int print_text(const char *dir, const struct probed *p)
{
	const struct sp_probe *r = &p->r;
	struct measure m[MEASURES];
	list_measures(r, m);
	printf("kernel %s, %s: %s (f_type 0x%lx), page size %zu, stealfs counters %s, "
	       "frame numbers %s\n", r->kernel, quoted(dir), fs_name(r->fs_type), r->fs_type,
	       r->page_size, r->stealfs_counters ? "present" : "absent",
	       r->frames_readable ? "readable" : "hidden (not root)");
	char label[40], text[400];
	struct libscols_table *tb = two_columns("METHOD", "RESULT");
	int rc = tb ? 0 : -ENOMEM;
	if (tb && !scols_table_new_column(tb, "SPLICED", 0, SCOLS_FL_RIGHT))
		rc = -ENOMEM;
	for (size_t i = 0; i < p->n && !rc; i++) {
		char percent[16];
		method_label(&p->methods[i], label, sizeof(label));
		method_result(&p->methods[i], text, sizeof(text));
		snprintf(percent, sizeof(percent), "%.0f%%", spliced_percent(&p->methods[i]));
		rc = add_row(tb, label, text);
		if (!rc && scols_line_set_data(scols_table_get_line(tb, i), 2, percent))
			rc = -ENOMEM;
	}
	rc = print_table(tb, rc);
	printf("(SPLICED: the percent of the bytes that went through splice-family calls)\n");
	tb = rc ? NULL : two_columns("PAGES", "VERDICT");
	for (unsigned i = 0; i < MEASURES && tb && !rc; i++) {
		measure_verdict(&m[i], text, sizeof(text));
		rc = add_row(tb, m[i].label, text);
	}
	rc = print_table(tb, rc);
	if (!rc && r->vmsplice_anon.fate == SP_PAGES_COPIED)
		printf("note: vmsplice copies on this kernel (upstream's plain-copy vmsplice): "
		       "--method=vmsplice and gift save nothing over rw\n");
	return rc;
}

int probe(const char *dir, bool json)
{
	struct probed p;
	p.r.size = sizeof(p.r);
	int rc = sp_probe(dir, &p.r, p.methods, sizeof(p.methods[0]), METHODS_MAX);
	p.n = p.r.methods_tried < METHODS_MAX ? p.r.methods_tried : METHODS_MAX;
	if (rc) {
		if (rc == -ENOENT || rc == -ENOTDIR)
			cli_error(-rc, "%s", quoted(dir));
		else
			cli_error(-rc, "cannot create probe files in %s", quoted(dir));
		return 1;
	}
	if (json)
		return print_json(&p);
	rc = print_text(dir, &p);
	if (rc)
		cli_error(-rc, "the probe's tables");
	return rc ? 1 : 0;
}
