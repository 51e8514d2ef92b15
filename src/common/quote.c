/* SPDX-License-Identifier: GPL-2.0-or-later */
/* File names and outside text in messages, shell-escaped as coreutils
 * quotes them (its "shell-escape" and "shell-escape-always" styles). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "quote.h"

/* ASCII characters the shell takes literally anywhere in a word. */
static const char literal[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			      "0123456789%+,-./:]_";

/* One character of the input: its bytes and how it may be written. */
struct unit {
	size_t len;      /* bytes */
	bool printable;  /* a printable character of the locale */
};

/* The character at s (non-empty): a printable multibyte character of the
 * locale is one unit; an invalid or unprintable sequence is escaped byte by
 * byte, so its first byte is a unit; an incomplete one at the end of the
 * string is unprintable as a whole. */
static struct unit next_unit(const char *s)
{
	unsigned char c = (unsigned char)*s;
	if (c < 0x80 || MB_CUR_MAX == 1)
		return (struct unit){ 1, isprint(c) != 0 };
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	wchar_t w;
	size_t n = mbrtowc(&w, s, strlen(s), &st);
	if (n == (size_t)-2)
		return (struct unit){ strlen(s), false };
	if (n == (size_t)-1 || n == 0)
		return (struct unit){ 1, false };
	return (struct unit){ n, iswprint((wint_t)w) != 0 };
}

/* Whether the printable ASCII character c at index i of name (len bytes)
 * is special to the shell there. */
static bool shell_special(unsigned char c, size_t i, size_t len)
{
	if (c == '@' || (c && strchr(literal, c)))
		return false;
	if (c == '{' || c == '}')
		return len == 1;
	if (c == '#' || c == '~')
		return i == 0;
	return true;
}

/* Whether name needs no quotes at all: not empty, and every character
 * printable and not special to the shell where it stands. */
static bool bare(const char *name)
{
	size_t len = strlen(name);
	for (size_t i = 0; i < len;) {
		struct unit u = next_unit(name + i);
		if (!u.printable || (u.len == 1 && shell_special((unsigned char)name[i], i, len)))
			return false;
		i += u.len;
	}
	return len > 0;
}

/* Whether name, which holds a ', reads the same in double quotes: only
 * characters that are literal in both kinds of quotes (coreutils then
 * writes "it's" instead of 'it'\''s'). */
static bool double_quotable(const char *name)
{
	size_t len = strlen(name);
	for (size_t i = 0; i < len;) {
		struct unit u = next_unit(name + i);
		unsigned char c = (unsigned char)name[i];
		bool ok = u.printable && (u.len > 1 || c == '\'' || c == ' ' || c == '@' ||
					  strchr(literal, c) || ((c == '#' || c == '~') && i == 0));
		if (!ok)
			return false;
		i += u.len;
	}
	return true;
}

/* A growing output string; on a failed allocation it stays as it was and
 * remembers the failure. */
struct out {
	char *buf;
	size_t len, cap;
	bool failed;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->failed)
		return;
	if (o->len + n + 1 > o->cap) {
		size_t cap = 2 * (o->len + n + 1);
		char *b = realloc(o->buf, cap);
		if (!b) {
			o->failed = true;
			return;
		}
		o->buf = b;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

static void puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

/* The escape of an unprintable byte inside $'...': \n, \t ... or octal. */
static void put_escape(struct out *o, unsigned char c)
{
	static const char named[] = "\aa\bb\ff\nn\rr\tt\vv";
	const char *p = c ? memchr(named, c, sizeof(named) - 1) : NULL;
	char e[5] = { '\\', 0, 0, 0, 0 };
	if (p && (p - named) % 2 == 0) {
		e[1] = p[1];
	} else {
		e[1] = (char)('0' + (c >> 6));
		e[2] = (char)('0' + ((c >> 3) & 7));
		e[3] = (char)('0' + (c & 7));
	}
	puts_(o, e);
}

/* Write name in single quotes, each ' as '\'' and each run of unprintable
 * bytes as $'...' between them: 'a'$'\n''b'. */
static void put_single_quoted(struct out *o, const char *name)
{
	bool in_dollar = false;
	puts_(o, "'");
	for (size_t i = 0; name[i];) {
		struct unit u = next_unit(name + i);
		if (!u.printable) {
			if (!in_dollar)
				puts_(o, "'$'");
			in_dollar = true;
			for (size_t k = 0; k < u.len; k++)
				put_escape(o, (unsigned char)name[i + k]);
		} else if (name[i] == '\'') {
			puts_(o, "'\\''");
			in_dollar = false;
		} else {
			if (in_dollar)
				puts_(o, "''");
			in_dollar = false;
			put(o, name + i, u.len);
		}
		i += u.len;
	}
	puts_(o, "'");
}

/* A few rotating buffers per thread, for quote_name(). */
enum { SLOTS = 8 };
static _Thread_local struct out slots[SLOTS];
static _Thread_local unsigned next;

void cli_quote_release(void)
{
	for (unsigned i = 0; i < SLOTS; i++) {
		free(slots[i].buf);
		slots[i] = (struct out){ 0 };
	}
}

/* name quoted (always, or only when the shell needs it) into one of the
 * calling thread's rotating buffers.  Returns name itself when it stays
 * bare, or a constant when memory runs out. */
static const char *quote_name(const char *name, bool always)
{
	if (!always && bare(name))
		return name;
	struct out *o = &slots[next++ % SLOTS];
	o->len = 0;
	o->failed = false;
	if (strchr(name, '\'') && double_quotable(name)) {
		puts_(o, "\"");
		puts_(o, name);
		puts_(o, "\"");
	} else {
		put_single_quoted(o, name);
	}
	return o->failed || !o->buf ? "'(name too long to quote)'" : o->buf;
}

/* quote_name() keeping errno, which mbrtowc() and realloc() may change:
 * callers pass errno and a quoted name to the same message. */
static const char *quote(const char *name, bool always)
{
	int saved = errno;
	const char *q = quote_name(name, always);
	errno = saved;
	return q;
}

const char *cli_quote(const char *name)
{
	return quote(name, false);
}

const char *cli_quote_always(const char *name)
{
	return quote(name, true);
}
