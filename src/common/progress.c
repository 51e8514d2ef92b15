/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --progress: how far a copy has got, on stderr, redrawn by a thread of
 * its own so that it moves on while a system call blocks. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "argmatch.h"
#include "clock.h"
#include "message.h"
#include "progress.h"
#include "quote.h"
#include "thread.h"

#define TICK_NS (1000000000u / CLI_PROGRESS_HZ)
/* The current rate is measured over this many ticks (2 s). */
#define WINDOW (2 * CLI_PROGRESS_HZ)

struct cli_progress {
	enum cli_progress_style style;
	uint64_t total;
	_Atomic uint64_t done;
	_Atomic uint64_t files;   /* completed */
	_Atomic uint64_t lost;    /* bytes of files that did not complete */
	uint64_t start_ns;
	/* The rate window: bytes done at the last ticks, oldest first. */
	uint64_t window_ns[WINDOW], window_bytes[WINDOW];
	unsigned samples;
	pthread_mutex_t lock; /* name, stop */
	pthread_cond_t wake;
	char name[256];       /* shell-escaped, cut to fit */
	bool stop;
	pthread_t thread;
};

bool cli_progress_style_parse(const char *arg, int *style)
{
	static const struct cli_choice styles[] = {
		{ "auto", CLI_PROGRESS_AUTO },
		{ "bar", CLI_PROGRESS_BAR },
		{ "numeric", CLI_PROGRESS_NUMERIC },
	};
	if (arg)
		return cli_argmatch("--progress", arg, styles, 3, style);
	*style = CLI_PROGRESS_AUTO;
	return true;
}

/* n bytes in a short human form ("12.3 MiB") into buf. */
static const char *human(char *buf, size_t size, double n)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	unsigned u = 0;
	while (n >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		n /= 1024;
		u++;
	}
	snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", n, units[u]);
	return buf;
}

/* secs as H:MM:SS into buf. */
static const char *clock_text(char *buf, size_t size, uint64_t secs)
{
	snprintf(buf, size, "%" PRIu64 ":%02" PRIu64 ":%02" PRIu64, secs / 3600, secs / 60 % 60,
		 secs % 60);
	return buf;
}

/* The terminal's width in columns (stderr's, else $COLUMNS, else 80). */
static unsigned columns(void)
{
	struct winsize ws;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	const char *env = getenv("COLUMNS");
	long n = env ? strtol(env, NULL, 10) : 0;
	return n > 0 && n < 10000 ? (unsigned)n : 80;
}

/* Write all of the line (len bytes) to stderr in one call where it can:
 * the other thread's messages then never cut into it. */
static void emit(const char *line, size_t len)
{
	while (len) {
		ssize_t n = write(STDERR_FILENO, line, len);
		if (n <= 0 && errno != EINTR)
			return;
		if (n > 0) {
			line += n;
			len -= (size_t)n;
		}
	}
}

/* Remember done at time t in the rate window; returns the bytes a second
 * over the window (0 before two samples). */
static double current_rate(struct cli_progress *p, uint64_t t, uint64_t done)
{
	if (p->samples == WINDOW) {
		memmove(p->window_ns, p->window_ns + 1, (WINDOW - 1) * sizeof(p->window_ns[0]));
		memmove(p->window_bytes, p->window_bytes + 1,
			(WINDOW - 1) * sizeof(p->window_bytes[0]));
		p->samples--;
	}
	p->window_ns[p->samples] = t;
	p->window_bytes[p->samples++] = done;
	uint64_t span = t - p->window_ns[0];
	return span ? (double)(done - p->window_bytes[0]) * 1e9 / (double)span : 0;
}

/* The bar of width cells for done of total ("[=====>    ]"), into buf
 * (at least width + 1 bytes). */
static void draw_bar(char *buf, unsigned width, uint64_t done, uint64_t total)
{
	unsigned inner = width - 2;
	unsigned fill = total ? (unsigned)((double)inner * (double)(done < total ? done : total) /
					   (double)total) : 0;
	buf[0] = '[';
	memset(buf + 1, '=', fill);
	memset(buf + 1 + fill, ' ', inner - fill);
	if (fill && fill < inner)
		buf[fill] = '>';
	buf[width - 1] = ']';
	buf[width] = '\0';
}

/* The figures of the bar line, as many as fit in cols columns, into buf
 * (size bytes): bytes done (of the total), elapsed time, current rate,
 * percentage and ETA; on a narrow terminal the least useful go first
 * (the ETA, the elapsed time, the rate, the total), and what still does
 * not fit is cut.  Returns the length. */
static size_t fit_figures(char *buf, size_t size, unsigned cols, const char *bytes,
			  const char *total, const char *elapsed, const char *rate, const char *pct,
			  const char *eta)
{
	/* Which figures each try keeps: total, elapsed, rate, percentage, ETA. */
	static const unsigned char tries[][5] = {
		{ 1, 1, 1, 1, 1 }, { 1, 1, 1, 1, 0 }, { 1, 0, 1, 1, 0 },
		{ 1, 0, 0, 1, 0 }, { 0, 0, 0, 1, 0 },
	};
	int n = 0;
	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		const unsigned char *k = tries[i];
		n = snprintf(buf, size, "%s%s%s%s%s%s%s%s%s", bytes, k[0] && *total ? " / " : "",
			     k[0] ? total : "", k[1] ? " " : "", k[1] ? elapsed : "",
			     k[2] ? " [" : "", k[2] ? rate : "", k[2] ? "/s]" : "",
			     k[3] ? pct : "");
		if (k[4])
			n += snprintf(buf + n, size - (size_t)n, "%s", eta);
		if (n >= 0 && (size_t)n <= cols)
			return (size_t)n;
	}
	/* Narrower still: the percentage alone, where there is one. */
	if (*pct)
		n = snprintf(buf, size, "%s", pct + strspn(pct, " "));
	if ((size_t)n > cols)
		n = (int)cols;
	buf[n] = '\0';
	return (size_t)n;
}

/* Draw the bar line for done bytes at time t: never wider than the
 * terminal less its last column, so that it never wraps and \r always
 * takes the cursor back to its start. */
static void draw_line(struct cli_progress *p, uint64_t t, uint64_t done)
{
	char a[32], b[32], r[32], el[32], eta[48] = "", figures[256], line[1024];
	double secs = (double)(t - p->start_ns) / 1e9;
	double rate = current_rate(p, t, done);
	double average = secs > 0 ? (double)done / secs : 0;
	int pct = p->total ? (int)(100.0 * (double)(done < p->total ? done : p->total) /
				   (double)p->total) : -1;
	/* The ETA at the current rate (as rsync), the average before there
	 * is one: a burst into the page cache then throttled by writeback
	 * would otherwise promise the end too soon. */
	double pace = rate > 0 ? rate : average;
	if (p->total && pace > 0 && done < p->total)
		snprintf(eta, sizeof(eta), " ETA %s",
			 clock_text(a, sizeof(a), (uint64_t)((double)(p->total - done) / pace)));
	char pct_text[16] = "";
	if (pct >= 0)
		snprintf(pct_text, sizeof(pct_text), " %3d%%", pct);
	unsigned cols = columns() - 1; /* never the last column: no wrap */
	if (cols > sizeof(line) - 64)
		cols = sizeof(line) - 64;
	size_t used = fit_figures(figures, sizeof(figures), cols, human(a, sizeof(a), (double)done),
				  p->total ? human(b, sizeof(b), (double)p->total) : "",
				  clock_text(el, sizeof(el), (uint64_t)secs), human(r, sizeof(r), rate),
				  pct_text, eta);
	pthread_mutex_lock(&p->lock);
	char name[sizeof(p->name)];
	memcpy(name, p->name, sizeof(name));
	pthread_mutex_unlock(&p->lock);
	unsigned room = used + 1 < cols ? cols - (unsigned)used - 1 : 0;
	/* The name gets up to half of what is left, the bar the rest; a name
	 * too long keeps its end (the file's own name) after "...", and
	 * without room for 4 columns of it none is shown. */
	size_t name_len = strlen(name);
	size_t name_room = room / 2;
	const char *shown = name, *cut = "";
	if (name_len > name_room) {
		shown = name + name_len - (name_room > 3 ? name_room - 3 : 0);
		while (*shown && ((unsigned char)*shown & 0xc0) == 0x80)
			shown++; /* never half a character */
		cut = name_room > 3 ? "..." : "";
	}
	size_t shown_len = strlen(cut) + strlen(shown);
	int len = snprintf(line, sizeof(line), "\r%s%s%s%s", cut, shown, shown_len ? " " : "",
			   figures);
	unsigned bar_width = room > shown_len + 2 + 1 ? room - (unsigned)shown_len - 2 : 0;
	if (p->total && bar_width >= 8 && (size_t)len + bar_width + 8 < sizeof(line)) {
		line[len++] = ' ';
		draw_bar(line + len, bar_width, done, p->total);
		len += (int)bar_width;
	}
	len += snprintf(line + len, sizeof(line) - (size_t)len, "\033[K");
	emit(line, (size_t)len);
}

/* Print the number of numeric mode for done bytes. */
static void draw_number(const struct cli_progress *p, uint64_t done)
{
	char line[32];
	int n = p->total ? snprintf(line, sizeof(line), "%d\n",
				    (int)(100.0 * (double)(done < p->total ? done : p->total) /
					  (double)p->total))
			 : snprintf(line, sizeof(line), "%" PRIu64 "\n", done);
	emit(line, (size_t)n);
}

/* Draw the current state. */
static void draw(struct cli_progress *p)
{
	uint64_t done = atomic_load(&p->done);
	if (p->style == CLI_PROGRESS_NUMERIC)
		draw_number(p, done);
	else
		draw_line(p, lsp_now_ns(), done);
}

/* The bytes of what completed: done but for the files that failed. */
static uint64_t completed_bytes(const struct cli_progress *p)
{
	uint64_t done = atomic_load(&p->done), lost = atomic_load(&p->lost);
	return done > lost ? done - lost : 0;
}

/* The redrawing thread: a redraw every tick until told to stop. */
static void *redraw(void *arg)
{
	struct cli_progress *p = arg;
	unsigned ticks = 0;
	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		struct timespec until;
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += TICK_NS;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		if (pthread_cond_timedwait(&p->wake, &p->lock, &until) != ETIMEDOUT || p->stop)
			continue;
		ticks++;
		/* Numbers twice a second; the bar at every tick. */
		if (p->style == CLI_PROGRESS_NUMERIC && ticks % (CLI_PROGRESS_HZ / 2))
			continue;
		pthread_mutex_unlock(&p->lock);
		draw(p);
		pthread_mutex_lock(&p->lock);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int cli_progress_start(struct cli_progress **pp, enum cli_progress_style style, uint64_t total)
{
	struct cli_progress *p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	if (style == CLI_PROGRESS_AUTO)
		style = isatty(STDERR_FILENO) ? CLI_PROGRESS_BAR : CLI_PROGRESS_NUMERIC;
	p->style = style;
	p->total = total;
	p->start_ns = lsp_now_ns();
	pthread_mutex_init(&p->lock, NULL);
	pthread_condattr_t attr;
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&p->wake, &attr);
	pthread_condattr_destroy(&attr);
	int rc = cli_thread_start(&p->thread, redraw, p);
	if (rc) {
		pthread_cond_destroy(&p->wake);
		pthread_mutex_destroy(&p->lock);
		free(p);
		return -rc;
	}
	*pp = p;
	return 0;
}

void cli_progress_name(struct cli_progress *p, const char *name)
{
	const char *q = name ? cli_quote(name) : "";
	pthread_mutex_lock(&p->lock);
	size_t len = strlen(q);
	/* Keep the end of a long name: its last component. */
	snprintf(p->name, sizeof(p->name), "%s",
		 len < sizeof(p->name) ? q : q + len - (sizeof(p->name) - 1));
	pthread_mutex_unlock(&p->lock);
}

void cli_progress_file_done(struct cli_progress *p)
{
	atomic_fetch_add(&p->files, 1);
}

void cli_progress_file_failed(struct cli_progress *p, uint64_t bytes)
{
	atomic_fetch_add(&p->lost, bytes);
}

void cli_progress_set(struct cli_progress *p, uint64_t done)
{
	atomic_store(&p->done, done);
}

int cli_progress_update(const struct sp_stats *stats, void *arg)
{
	cli_progress_set(arg, stats->bytes);
	return 0;
}

uint64_t cli_progress_file_bytes(const struct stat *st, int64_t from, uint64_t length)
{
	if (!S_ISREG(st->st_mode) || from < 0 || st->st_size <= from)
		return 0;
	uint64_t left = (uint64_t)(st->st_size - from);
	return left < length ? left : length;
}

/* The summary line of a bar: what was copied (of the files that
 * completed), how long it took, the average rate and the files. */
static void summary(const struct cli_progress *p)
{
	char a[32], el[32], r[32], line[256];
	uint64_t done = completed_bytes(p), files = atomic_load(&p->files);
	double secs = (double)(lsp_now_ns() - p->start_ns) / 1e9;
	int n = snprintf(line, sizeof(line), "\r%s: %s in %s, %s/s", cli_program,
			 human(a, sizeof(a), (double)done), clock_text(el, sizeof(el), (uint64_t)secs),
			 human(r, sizeof(r), secs > 0 ? (double)done / secs : 0));
	if (files)
		n += snprintf(line + n, sizeof(line) - (size_t)n, ", %" PRIu64 " file%s", files,
			      files == 1 ? "" : "s");
	n += snprintf(line + n, sizeof(line) - (size_t)n, "\033[K\n");
	emit(line, (size_t)n);
}

void cli_progress_finish(struct cli_progress *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	if (p->style == CLI_PROGRESS_NUMERIC)
		draw_number(p, completed_bytes(p));
	else
		summary(p);
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->lock);
	free(p);
}
