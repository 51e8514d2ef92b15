/* SPDX-License-Identifier: GPL-2.0-or-later */
/* acctpin dump: print accounting files as GNU acct's dump-acct does, or as JSON. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>
#include <linux/acct.h>

#include "acctpin.h"
#include "jsondoc.h"
#include "message.h"
#include "quote.h"

/* Name of the terminal an old 16-bit dev_t (major << 8 | minor) stands
 * for, as dump-acct prints it: "__" for none.  Returns a static buffer. */
static const char *tty_name(unsigned tty)
{
	static char buf[24];
	unsigned major = tty >> 8, minor = tty & 0xff;
	if (tty == 0)
		return "__";
	if (major >= 136 && major <= 143)
		snprintf(buf, sizeof buf, "pts/%u", (major - 136) * 256 + minor);
	else if (major == 4 && minor < 64)
		snprintf(buf, sizeof buf, "tty%u", minor);
	else if (major == 4)
		snprintf(buf, sizeof buf, "ttyS%u", minor - 64);
	else if (major == 5 && minor == 1)
		snprintf(buf, sizeof buf, "console");
	else
		snprintf(buf, sizeof buf, "%u:%u", major, minor);
	return buf;
}

/* One record in dump-acct's layout; the process name shell-escaped when
 * it holds anything but printable characters the shell takes literally. */
static void print_text(const struct ap_record *r)
{
	char when[32];
	time_t t = r->btime;
	struct tm tm;
	if (!localtime_r(&t, &tm) || !strftime(when, sizeof when, "%a %b %e %H:%M:%S %Y", &tm))
		snprintf(when, sizeof when, "%" PRIu32, r->btime);
	printf("%-16s|v%u|%9.2f|%9.2f|%9.2f|%6" PRIu32 "|%6" PRIu32 "|%9.2f|%9.2f|%8" PRIu32
	       "|%8" PRIu32 "|%c%c%c%c%c|%8" PRIu32 "|%-8s|%s\n",
	       cli_quote(r->comm), r->version, (double)r->utime, (double)r->stime, (double)r->etime,
	       r->uid, r->gid, (double)r->mem, (double)r->io, r->pid, r->ppid,
	       r->flags & ASU ? 'S' : ' ', r->flags & AFORK ? 'F' : ' ',
	       r->flags & ACOMPAT ? 'C' : ' ', r->flags & ACORE ? 'D' : ' ',
	       r->flags & AXSIG ? 'X' : ' ', r->exitcode >> 8, tty_name(r->tty), when);
}

/* One record as a JSON object on one line.  Returns 0, or 1 after
 * reporting that it could not be printed. */
static int print_json(const struct ap_record *r)
{
	const struct { const char *key; uint64_t value; } head[] = {
		{ "version", r->version }, { "flags", r->flags }, { "tty", r->tty },
		{ "exitcode", r->exitcode }, { "uid", r->uid }, { "gid", r->gid },
		{ "pid", r->pid }, { "ppid", r->ppid }, { "btime", r->btime },
	}, tail[] = {
		{ "utime", r->utime }, { "stime", r->stime }, { "mem", r->mem }, { "io", r->io },
		{ "rw", r->rw }, { "minflt", r->minflt }, { "majflt", r->majflt },
		{ "swaps", r->swaps },
	};
	struct json_object *doc = json_object_new_object();
	int rc = cli_json_add_text(doc, "comm", r->comm);
	for (size_t i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		rc |= cli_json_add_u64(doc, head[i].key, head[i].value);
	rc |= cli_json_add_double(doc, "etime", (double)r->etime, 2);
	for (size_t i = 0; i < sizeof(tail) / sizeof(tail[0]); i++)
		rc |= cli_json_add_u64(doc, tail[i].key, tail[i].value);
	return cli_json_emit(doc, rc, stdout, "a record");
}

/* Print every record of one file.  Returns 0, or 1 after reporting an
 * unreadable, empty, truncated or corrupt file (records before the damage
 * are printed). */
static int dump_one(const char *name, bool json)
{
	bool is_stdin = !strcmp(name, "-");
	FILE *f = is_stdin ? stdin : fopen(name, "rbe");
	if (!f) {
		cli_error(errno, "%s", cli_quote(name));
		return 1;
	}
	uint64_t offset = 0;
	struct ap_record rec;
	char msg[200];
	int rc, failed = 0;
	while (!failed && (rc = ap_record_read(f, &offset, &rec, msg, sizeof msg)) > 0) {
		if (json)
			failed = print_json(&rec);
		else
			print_text(&rec);
	}
	if (!is_stdin)
		fclose(f);
	if (failed)
		return 1;
	if (rc < 0) {
		cli_error(0, "%s: %s", cli_quote(name), msg);
		return 1;
	}
	if (offset == 0) {
		cli_error(0, "%s: empty file: no record at byte offset 0", cli_quote(name));
		return 1;
	}
	return 0;
}

int ap_dump(char *const *files, bool json)
{
	int status = 0;
	for (; *files; files++)
		status |= dump_one(*files, json);
	return status;
}
