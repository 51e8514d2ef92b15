/* Helpers shared by the splice-utils command-line tools. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

const char *cli_program = PACKAGE;

static void close_stdout_at_exit(void);

void cli_init(const char *name)
{
	cli_program = name;
	atexit(close_stdout_at_exit);
}

void cli_error(int errnum, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;
	fflush(stdout);
	fprintf(stderr, "%s: ", cli_program);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
	errno = saved;
}

static bool harmless(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_./@%+,:=-", *s))
			return false;
	return true;
}

const char *cli_quote(const char *name)
{
	enum { SLOTS = 4, SLOT_SIZE = 4096 };
	static char slots[SLOTS][SLOT_SIZE];
	static unsigned next;
	if (harmless(name))
		return name;
	char *out = slots[next++ % SLOTS];
	/* Like coreutils: "..." when that needs no escapes, else '...' with
	 * each ' written as '\''. */
	if (strchr(name, '\'') && !strpbrk(name, "\"$`\\")) {
		snprintf(out, SLOT_SIZE, "\"%s\"", name);
		return out;
	}
	char *p = out, *end = out + SLOT_SIZE - 6;
	*p++ = '\'';
	for (; *name && p < end; name++) {
		if (*name == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = *name;
		}
	}
	*p++ = '\'';
	*p = '\0';
	return out;
}

int cli_parse_size(const char *text, uint64_t *value)
{
	static const char units[] = "KMGTPE";
	char *end;
	if (!text || !*text || *text == '-' || *text == '+' || *text == ' ')
		return -EINVAL;
	errno = 0;
	unsigned long long n = strtoull(text, &end, 10);
	if (end == text)
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	uint64_t scale = 1;
	if (*end) {
		/* The unit letter, in either case; strchr() would also find the
		 * string's own terminator, which is no unit. */
		const char *u = strchr(units, toupper((unsigned char)end[0]));
		if (!u || !*u)
			return -EINVAL;
		unsigned base = 1024;
		const char *rest = end + 1;
		if (!strcmp(rest, "B"))
			base = 1000;
		else if (strcmp(rest, "") && strcmp(rest, "iB"))
			return -EINVAL;
		for (int i = 0; i <= u - units; i++)
			scale *= base;
	}
	if (n > UINT64_MAX / scale)
		return -ERANGE;
	*value = n * scale;
	return 0;
}

bool cli_size_option(const char *what, const char *text, uint64_t *value, uint64_t max)
{
	int rc = cli_parse_size(text, value);
	if (rc == 0 && *value > max)
		rc = -ERANGE;
	if (rc == 0)
		return true;
	cli_usage_message("invalid %s: '%s'%s", what, text,
			  rc == -ERANGE ? " (too large)" : "");
	return false;
}

void cli_print_version(void)
{
	printf("%s (%s) %s\n"
	       "Copyright (C) 2026 the splice-utils authors.\n"
	       "License GPLv2+: GNU GPL version 2 or later <https://gnu.org/licenses/gpl.html>.\n"
	       "This is free software: you are free to change and redistribute it.\n"
	       "There is NO WARRANTY, to the extent permitted by law.\n",
	       cli_program, PACKAGE_NAME, PACKAGE_VERSION);
}

static void usage_hint(void)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", cli_program);
}

int cli_usage_error(poptContext ctx, int rc)
{
	cli_error(0, "%s: %s", poptBadOption(ctx, POPT_BADOPTION_NOALIAS), poptStrerror(rc));
	usage_hint();
	return CLI_EXIT_USAGE;
}

int cli_usage_message(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", cli_program);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage_hint();
	return CLI_EXIT_USAGE;
}

int cli_close_stdout(void)
{
	static bool closed;
	if (closed)
		return 0;
	closed = true;
	bool failed = ferror(stdout);
	int err = 0;
	if (fclose(stdout) != 0) {
		failed = true;
		err = errno;
	}
	/* A closed stdout (EBADF) that nothing was written to is not an error. */
	if (failed && err != EBADF) {
		cli_error(err, "write error");
		return 1;
	}
	return 0;
}

/* At exit (also after popt's --help, which exits by itself): a failed
 * flush of stdout turns the exit status into 1. */
static void close_stdout_at_exit(void)
{
	if (cli_close_stdout())
		_exit(1);
}

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
