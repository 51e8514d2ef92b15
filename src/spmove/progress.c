/* spmove --progress: a bar with bytes, rate and ETA on stderr. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "spmove.h"

/* Redraw at most this often. */
#define REDRAW_NS 200000000u

struct progress {
	uint64_t threshold;  /* smallest file that gets a bar */
	uint64_t total;      /* bytes of the current file, 0 when unknown */
	uint64_t base;       /* the mover's byte count when the file began */
	uint64_t start_ns, last_ns;
	bool shown;          /* the current file's bar is on the screen */
};

/* n bytes in a short human form into buf ("12.3 MiB"). */
static const char *human(char *buf, size_t size, double n)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	unsigned u = 0;
	while (n >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		n /= 1024;
		u++;
	}
	snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", n, units[u]);
	return buf;
}

struct progress *progress_new(uint64_t threshold)
{
	struct progress *p = calloc(1, sizeof(*p));
	if (p)
		p->threshold = threshold;
	return p;
}

void progress_free(struct progress *p)
{
	free(p);
}

void progress_begin(struct progress *p, uint64_t total, const struct sp_stats *now)
{
	p->total = total;
	p->base = now->bytes;
	p->start_ns = p->last_ns = now_ns();
	p->shown = false;
}

/* Draw the bar for done bytes at time t. */
static void draw(struct progress *p, uint64_t done, uint64_t t)
{
	char a[32], b[32], r[32], eta[32] = "", bar[24] = "";
	double secs = (double)(t - p->start_ns) / 1e9;
	double rate = secs > 0 ? (double)done / secs : 0;
	if (p->total) {
		unsigned width = sizeof(bar) - 3, fill = (unsigned)(width * done / p->total);
		if (fill > width)
			fill = width;
		bar[0] = '[';
		memset(bar + 1, '#', fill);
		memset(bar + 1 + fill, ' ', width - fill);
		bar[width + 1] = ']';
		bar[width + 2] = '\0';
		if (rate > 0 && done <= p->total) {
			uint64_t left = (uint64_t)((double)(p->total - done) / rate);
			snprintf(eta, sizeof(eta), "ETA %" PRIu64 ":%02" PRIu64 ":%02" PRIu64,
				 left / 3600, left / 60 % 60, left % 60);
		}
	}
	fprintf(stderr, "\r%s %s%s%s  %s/s  %s\033[K", bar, human(a, sizeof(a), (double)done),
		p->total ? " / " : "", p->total ? human(b, sizeof(b), (double)p->total) : "",
		human(r, sizeof(r), rate), eta);
	p->shown = true;
}

int progress_update(const struct sp_stats *stats, void *arg)
{
	struct progress *p = arg;
	if (p->total && p->total < p->threshold)
		return 0;
	uint64_t t = now_ns();
	if (t - p->last_ns < REDRAW_NS)
		return 0;
	p->last_ns = t;
	draw(p, stats->bytes - p->base, t);
	return 0;
}

void progress_end(struct progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
	p->shown = false;
}
