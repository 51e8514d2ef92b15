/* spmove's messages: per-pair errors and the overwrite question. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "message.h"
#include "quote.h"
#include "spmove.h"

const char *quoted(const char *name)
{
	enum { SLOTS = 4, SLOT_SIZE = 4100 };
	static char slots[SLOTS][SLOT_SIZE];
	static unsigned next;
	const char *q = cli_quote(name);
	if (q != name)
		return q; /* cli_quote() quoted it already */
	char *out = slots[next++ % SLOTS];
	snprintf(out, SLOT_SIZE, "'%s'", name);
	return out;
}

void report(const char *src, const char *dst, int err, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (dst)
		cli_error(err, "%s -> %s: %s", quoted(src), quoted(dst), msg);
	else
		cli_error(err, "%s: %s", quoted(src), msg);
}

bool ask_overwrite(const char *dst)
{
	char line[64];
	fflush(stdout);
	fprintf(stderr, "%s: overwrite %s? ", cli_program, quoted(dst));
	if (!fgets(line, sizeof(line), stdin))
		return false;
	return line[0] == 'y' || line[0] == 'Y';
}
