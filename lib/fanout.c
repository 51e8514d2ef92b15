/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sp_fanout(): copy one input to many outputs, duplicating it in the
 * kernel with tee(2).
 *
 * Each chunk is spliced from the input into the stage (the mover's private
 * pipe).  Then every live output, in order, gets the whole chunk:
 *  - a pipe gets a tee(2) of the stage straight into it;
 *  - any other fd splice takes gets a tee(2) of the stage into the scratch
 *    pipe, spliced on from there;
 *  - an fd splice refuses (O_APPEND, a tty, EINVAL on its first splice)
 *    or that keeps message boundaries (a UDP socket: a datagram per call)
 *    gets write(2) from a buffer filled once per chunk, into a datagram
 *    socket 8 KiB at a time;
 *  - the last output splice serves (the consumer) takes the stage's pages
 *    themselves, which empties the stage for the next chunk.
 *
 * Why a stage even when the input is a pipe: tee(2) always starts at the
 * head of its input pipe and takes at most as many buffers as its output
 * pipe has free slots.  Owning the pipe the chunk sits in means it holds
 * exactly the chunk, and that the scratch pipe (sized like it) always takes
 * all of it in one tee(2); a tee(2) into an output pipe that stops short is
 * finished through the scratch pipe, skipping what the output already has.
 * Moving pages from the input pipe into the stage is one splice(2) of
 * buffer references, no copy.
 *
 * Writing into files costs the kernel a copy per output; to spread those
 * copies over the CPUs it may run on, up to one helper thread per CPU (a
 * drainer) each owns one file output: when the main thread comes to that
 * output, it tees the chunk into the drainer's own scratch pipe, and the
 * drainer splices it on while the main thread serves the next outputs.
 * Every chunk ends when all drainers are done.  An output goes to its
 * drainer only once it has taken a chunk from the main thread, so that a
 * refusal or failure at its start is met in order, as GNU tee meets it.
 *
 * An output that fails is dropped; the others go on, unless the caller's
 * error callback says to stop.  The stream advances at the pace of the
 * slowest live output; EAGAIN is answered by poll(2).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "sys.h"

/* How an output gets its bytes. */
enum route {
	ROUTE_TEE,    /* a pipe: tee(2) from the stage */
	ROUTE_SPLICE, /* tee(2) into the scratch pipe, splice(2) on */
	ROUTE_WRITE,  /* write(2) from the chunk buffer */
};

struct fan_out {
	int fd;
	enum route route;
	bool live;
	size_t pos;   /* bytes of the current chunk it has been given */
	size_t max_write; /* most bytes per write(2); 0: no limit */
	struct drainer *drainer; /* the helper thread that owns it, if any */
	bool handed;  /* the drainer has the current chunk */
	bool nocache; /* a regular file under SP_NOCACHE: uncached write(2) */
	struct nocache cache;
	struct sp_fanout_status status; /* what the caller's element gets */
};

/* The state of one sp_fanout() call. */
struct fan {
	struct sp_mover *m;  /* its private pipe is the stage */
	int in;
	struct fan_out *outs;
	struct sp_fanout_status *status; /* the caller's array */
	size_t status_size;  /* of its elements */
	size_t n;            /* outputs */
	size_t live;         /* outputs not dropped */
	sp_fanout_error_fn on_error;
	void *arg;
	bool rw;             /* read/write from here on (tee refused, or asked) */
	int scratch[2];      /* the stage's copy on its way to one output */
	int devnull;         /* where skipped bytes go */
	char *buf;           /* the chunk, for write(2) */
	size_t cap;          /* most bytes per chunk */
	size_t buf_size;     /* bytes buf holds: cap, or less where memory is short */
	size_t chunk;        /* bytes in the current chunk */
	size_t consumed;     /* of which taken out of the stage already */
	bool have_buf;       /* buf holds the current chunk */
	uint64_t total;      /* bytes of all finished chunks */
	struct drainer *drainers;
	size_t ndrainers;
	bool want_drainers;  /* to start with the second chunk */
	enum sp_side side;   /* the side that made the call fail */
};

/* A helper thread splicing one output's copy of each chunk out of its own
 * scratch pipe.  The main thread hands it work and collects the result
 * under lock; besides the caller's options, which it only reads, everything
 * it touches is its own. */
struct drainer {
	struct worker worker; /* the caller's options, and stats below */
	struct sp_stats stats;   /* its calls, added to the mover's when collected */
	int scratch[2];
	int fd;                 /* the output */
	size_t len;             /* bytes in scratch to splice to fd */
	size_t moved;           /* of which it moved */
	ssize_t err;            /* 0, or the negative errno it stopped on */
	bool go, done, quit;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

/* Kinds of call that call() makes. */
enum op {
	OP_STAGE,  /* splice(2) from the input into the stage */
	OP_SPLICE, /* splice(2) out of a pipe of ours */
	OP_TEE,    /* tee(2) out of a pipe of ours */
	OP_READ,   /* read(2) from the input or a pipe of ours */
	OP_WRITE,  /* write(2) to an output */
};

/* Issue one call of kind op moving up to len bytes from fd from to fd to
 * (buf for read and write), counted in w.  Returns the count or -1 with
 * errno set. */
static ssize_t issue(const struct worker *w, enum op op, int from, int to, void *buf,
		     size_t len)
{
	unsigned int flags = w->opts->splice_flags;
	switch (op) {
	case OP_STAGE:
	case OP_SPLICE:
		return sys_splice(w->stats, from, NULL, to, NULL, len, flags);
	case OP_TEE:
		return sys_tee(w->stats, from, to, len, flags);
	case OP_READ:
		return sys_read(w->stats, from, buf, len);
	default:
		return sys_write(w->stats, to, buf, len);
	}
}

/*
 * Make one call of kind op (see issue()) for worker w until lsp_next_step()
 * says it is done: again after EINTR, and after EAGAIN once the fd that
 * was not ready is -- the one read from for reading and staging, else the
 * one written to (the stage and scratch pipes always hold what is asked
 * for).  refusals are those the call's route may still take another way
 * after.  Returns 0 with the count in *moved, FALL_BACK, or a negative
 * errno (-ECANCELED when asked to stop).
 */
static int call(const struct worker *w, enum op op, int from, int to, void *buf,
		size_t len, enum refusals refusals, size_t *moved)
{
	bool reading = op == OP_STAGE || op == OP_READ;
	for (;;) {
		ssize_t r = issue(w, op, from, to, buf, len);
		if (r >= 0) {
			*moved = (size_t)r;
			return 0;
		}
		int rc = lsp_next_step(w, errno, reading ? from : -1, reading ? -1 : to,
				      refusals, NULL);
		if (rc)
			return rc;
	}
}

/* The main thread's call() with no refusal to route around: returns the
 * count or a negative errno. */
static ssize_t main_call(struct fan *f, enum op op, int from, int to, void *buf, size_t len)
{
	size_t n;
	int rc = call(&f->m->worker, op, from, to, buf, len, REFUSALS_NONE, &n);
	return rc ? rc : (ssize_t)n;
}

/* The input failed with rc (a negative errno); returns rc. */
static int input_failed(struct fan *f, ssize_t rc)
{
	if (rc != -ECANCELED)
		f->side = SP_SIDE_INPUT;
	return (int)rc;
}

/* Give the caller's element for output i what is known of it. */
static void publish(struct fan *f, size_t i)
{
	lsp_sized_store((char *)f->status + i * f->status_size, f->status_size,
			&f->outs[i].status, sizeof(f->outs[i].status), 0);
}

/* Output i failed with rc (a negative errno): drop it and ask the caller
 * whether to go on.  Returns 0 to go on, else rc. */
static int drop(struct fan *f, size_t i, ssize_t rc)
{
	if (rc == -ECANCELED)
		return (int)rc;
	f->outs[i].live = false;
	f->live--;
	f->outs[i].status.error = (int)-rc;
	publish(f, i);
	if (f->on_error && f->on_error(i, (int)-rc, f->arg)) {
		f->side = SP_SIDE_OUTPUT;
		return (int)rc;
	}
	return 0;
}

/* Account for k more bytes given to output i. */
static void gave(struct fan *f, size_t i, size_t k, bool spliced)
{
	f->outs[i].pos += k;
	f->outs[i].status.bytes += k;
	f->m->stats.bytes += k;
	if (spliced) {
		f->m->stats.bytes_spliced += k;
	} else {
		f->m->stats.bytes_copied += k;
		f->outs[i].status.copied = 1;
	}
}

/* The refusals of a splice into output i that write(2) may route around:
 * none once it has had a byte. */
static enum refusals output_refusals(const struct fan *f, size_t i)
{
	return f->outs[i].status.bytes ? REFUSALS_NONE : REFUSALS_SPLICE;
}

/* The kernel refused tee(2), or splicing the input: the fan-out goes over
 * to read/write for good.  A refused call moved nothing, so this is exact
 * at any point of the stream. */
static void go_read_write(struct fan *f)
{
	f->rw = true;
	f->m->stats.fallbacks++;
}

/* tee(2) the chunk from the stage into the pipe fd.  Returns 0 with the
 * count in *teed, FALL_BACK when the kernel refused (the fan-out is now
 * read/write), or a negative errno. */
static int tee_chunk(struct fan *f, int fd, size_t *teed)
{
	int rc = call(&f->m->worker, OP_TEE, f->m->pipe_fds[0], fd, NULL, f->chunk,
		      REFUSALS_SPLICE, teed);
	if (rc == FALL_BACK)
		go_read_write(f);
	return rc;
}

/* Throw away the first n bytes of the pipe fd.  Returns 0 or a negative errno. */
static int discard(struct fan *f, int fd, size_t n)
{
	while (n) {
		ssize_t k = main_call(f, OP_SPLICE, fd, f->devnull, NULL, n);
		if (k <= 0)
			return k < 0 ? (int)k : -EIO;
		n -= (size_t)k;
	}
	return 0;
}

/* Throw away everything the pipe fd holds, however much an operation that
 * failed half-way left in it.  Returns 0 or a negative errno. */
static int empty_pipe(struct fan *f, int fd)
{
	int n;
	if (sys_fionread(&f->m->stats, fd, &n) < 0)
		return -errno;
	return discard(f, fd, (size_t)n);
}

/* The smallest chunk buffer tried where a whole chunk's is refused: GNU
 * tee's whole buffer. */
#define MIN_BUFFER_SIZE 8192

/* Make sure the chunk buffer exists: a chunk's size, or where memory is
 * short (a tight ulimit -v) the largest of its halves down to
 * MIN_BUFFER_SIZE that can be had; chunks are then no larger than it.
 * Returns 0 or -ENOMEM. */
static int need_buffer(struct fan *f)
{
	for (size_t size = f->cap; !f->buf; size /= 2) {
		f->buf = malloc(size);
		f->buf_size = f->buf ? size : 0;
		if (!f->buf && size / 2 < MIN_BUFFER_SIZE)
			return -ENOMEM;
	}
	return 0;
}

/* Read exactly the n bytes the pipe fd holds into the buffer.  Returns 0 or
 * a negative errno (-ENOMEM: the buffer cannot hold them). */
static int read_pipe(struct fan *f, int fd, size_t n)
{
	int rc = need_buffer(f);
	if (rc)
		return rc;
	if (n > f->buf_size)
		return -ENOMEM;
	for (size_t got = 0; got < n;) {
		ssize_t k = main_call(f, OP_READ, fd, -1, f->buf + got, n - got);
		if (k <= 0)
			return k < 0 ? (int)k : -EIO;
		got += (size_t)k;
	}
	f->have_buf = true;
	return 0;
}

/* tee(2) the whole chunk into the empty scratch pipe.  Returns 0,
 * FALL_BACK when the kernel refused (the fan-out is now read/write), or
 * a negative errno. */
static int tee_to_scratch(struct fan *f)
{
	size_t t;
	int rc = tee_chunk(f, f->scratch[1], &t);
	if (rc)
		return rc;
	/* The scratch pipe has at least as many slots as the stage. */
	if (t == f->chunk)
		return 0;
	rc = empty_pipe(f, f->scratch[0]);
	return rc ? rc : -EIO;
}

/* Put the chunk in the buffer.  When nothing needs the stage after this
 * (consume, or read/write), read the stage itself; else read a tee(2) of it
 * out of the scratch pipe.  Returns 0 or a negative errno. */
static int fill_buffer(struct fan *f, bool consume)
{
	if (!consume && !f->rw) {
		int rc = tee_to_scratch(f);
		if (rc == 0 && (rc = read_pipe(f, f->scratch[0], f->chunk)) < 0)
			empty_pipe(f, f->scratch[0]);
		if (rc <= 0)
			return rc;
	}
	/* Nothing has left the stage yet: tee(2) and the consumer come first. */
	int rc = read_pipe(f, f->m->pipe_fds[0], f->chunk);
	if (!rc)
		f->consumed = f->chunk;
	return rc;
}

/* Write the rest of the chunk to output o, a regular file under
 * SP_NOCACHE, with one uncached write(2) (again after EINTR).  Returns the
 * count or a negative errno. */
static ssize_t nocache_write(struct fan *f, struct fan_out *o)
{
	for (;;) {
		ssize_t w = lsp_nocache_file_write(&o->cache, &f->m->stats, o->fd, f->buf + o->pos,
					     f->chunk - o->pos);
		if (w != -EINTR)
			return w;
		if (lsp_worker_cancelled(&f->m->worker))
			return -ECANCELED;
	}
}

/* Give output i the rest of the chunk with write(2); last says that no
 * output after it needs the stage.  Returns 0 or a negative errno to stop with. */
static int serve_write(struct fan *f, size_t i, bool last)
{
	struct fan_out *o = &f->outs[i];
	if (!f->have_buf) {
		/* The copy for write(2) failed on its way: this output loses it. */
		int rc = fill_buffer(f, last);
		if (rc)
			return drop(f, i, rc);
	}
	while (o->pos < f->chunk) {
		size_t len = f->chunk - o->pos;
		if (o->max_write && len > o->max_write)
			len = o->max_write;
		ssize_t w = o->nocache ? nocache_write(f, o)
				       : main_call(f, OP_WRITE, -1, o->fd, f->buf + o->pos, len);
		if (w <= 0)
			return drop(f, i, w < 0 ? w : -EIO);
		gave(f, i, (size_t)w, false);
	}
	return 0;
}

/* Output i refused splice before it had any byte: write(2) it from now on. */
static void reroute_to_write(struct fan *f, size_t i)
{
	f->outs[i].route = ROUTE_WRITE;
	f->m->stats.fallbacks++;
}

/* Give output i the rest of the chunk through the scratch pipe.  Returns
 * 0 or a negative errno to stop with. */
static int serve_scratch(struct fan *f, size_t i)
{
	struct fan_out *o = &f->outs[i];
	int rc = tee_to_scratch(f);
	if (rc)
		return rc < 0 ? drop(f, i, rc) : serve_write(f, i, false);
	rc = discard(f, f->scratch[0], o->pos);
	while (!rc && o->pos < f->chunk) {
		size_t k;
		rc = call(&f->m->worker, OP_SPLICE, f->scratch[0], o->fd, NULL,
			  f->chunk - o->pos, output_refusals(f, i), &k);
		if (rc == FALL_BACK) {
			reroute_to_write(f, i);
			rc = f->have_buf ? discard(f, f->scratch[0], f->chunk)
					 : read_pipe(f, f->scratch[0], f->chunk);
			return rc ? rc : serve_write(f, i, false);
		}
		if (!rc && k == 0)
			rc = -EIO;
		if (!rc)
			gave(f, i, k, true);
	}
	/* Output i failed, or the copy on its way did: drop it, and leave the
	 * scratch pipe empty for the next output. */
	if (rc && rc != -ECANCELED) {
		int r = empty_pipe(f, f->scratch[0]);
		return r ? r : drop(f, i, rc);
	}
	return rc;
}

/* Give the pipe output i the chunk with tee(2); where the output is too
 * full to take it all, the rest goes through the scratch pipe.  Returns 0
 * or a negative errno to stop with. */
static int serve_tee(struct fan *f, size_t i)
{
	size_t t;
	int rc = tee_chunk(f, f->outs[i].fd, &t);
	if (rc)
		return rc == FALL_BACK ? serve_write(f, i, false) : drop(f, i, rc);
	gave(f, i, t, true);
	return f->outs[i].pos < f->chunk ? serve_scratch(f, i) : 0;
}

/* Splice the chunk's pages out of the stage into output i, the last that
 * needs them.  Returns 0 or a negative errno to stop with. */
static int serve_consume(struct fan *f, size_t i)
{
	while (f->consumed < f->chunk) {
		size_t k;
		int rc = call(&f->m->worker, OP_SPLICE, f->m->pipe_fds[0], f->outs[i].fd, NULL,
			      f->chunk - f->consumed, output_refusals(f, i), &k);
		if (rc == FALL_BACK) {
			reroute_to_write(f, i);
			return serve_write(f, i, true);
		}
		if (!rc && k == 0)
			rc = -EIO;
		if (rc)
			return drop(f, i, rc);
		f->consumed += k;
		gave(f, i, k, true);
	}
	return 0;
}

/* Give live output i the current chunk; last marks the consumer. */
static int serve(struct fan *f, size_t i, bool last)
{
	if (f->rw || f->outs[i].route == ROUTE_WRITE)
		return serve_write(f, i, last);
	if (last)
		return serve_consume(f, i);
	return f->outs[i].route == ROUTE_TEE ? serve_tee(f, i) : serve_scratch(f, i);
}

/* The output that takes the stage's pages: the last live one that splice
 * serves; f->n when there is none. */
static size_t consumer_of(const struct fan *f)
{
	for (size_t i = f->n; i-- > 0;)
		if (f->outs[i].live && f->outs[i].route != ROUTE_WRITE)
			return i;
	return f->n;
}

/* Whether some live output is served by write(2). */
static bool any_write_route(const struct fan *f)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->outs[i].live && f->outs[i].route == ROUTE_WRITE)
			return true;
	return false;
}

/* The copy for write(2) failed with rc: every live output served by write
 * loses it (the consumer, served by splice, stays).  Returns 0 to go on or
 * a negative errno to stop with. */
static int drop_write_routes(struct fan *f, int rc)
{
	int stop = 0;
	for (size_t i = 0; i < f->n && !stop; i++)
		if (f->outs[i].live && f->outs[i].route == ROUTE_WRITE)
			stop = drop(f, i, rc);
	return stop;
}

/* A drainer's thread: splice each chunk it is handed out of its scratch
 * pipe into its output, and say how far it got. */
static void *drain_loop(void *arg)
{
	struct drainer *d = arg;
	pthread_mutex_lock(&d->lock);
	for (;;) {
		while (!d->go && !d->quit)
			pthread_cond_wait(&d->cond, &d->lock);
		if (d->quit)
			break;
		d->go = false;
		pthread_mutex_unlock(&d->lock);
		size_t moved = 0;
		ssize_t err = 0;
		while (moved < d->len) {
			size_t k;
			int rc = call(&d->worker, OP_SPLICE, d->scratch[0], d->fd, NULL,
				      d->len - moved, REFUSALS_NONE, &k);
			if (rc || k == 0) {
				err = rc ? rc : -EIO;
				break;
			}
			moved += k;
		}
		pthread_mutex_lock(&d->lock);
		d->moved = moved;
		d->err = err;
		d->done = true;
		pthread_cond_signal(&d->cond);
	}
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

/* Whether output i goes to its drainer for this chunk. */
static bool for_drainer(const struct fan *f, size_t i, size_t consumer)
{
	const struct fan_out *o = &f->outs[i];
	return o->drainer && i != consumer && o->route == ROUTE_SPLICE && !f->rw &&
	       f->outs[i].status.bytes > 0;
}

/* Tee the chunk into the scratch pipe of output i's drainer and set it
 * going.  Returns 0 or a negative errno; a refused tee(2) leaves output i
 * to read/write. */
static int hand_off(struct fan *f, size_t i)
{
	struct fan_out *o = &f->outs[i];
	struct drainer *d = o->drainer;
	size_t t;
	int rc = tee_chunk(f, d->scratch[1], &t);
	if (rc)
		return rc == FALL_BACK ? serve_write(f, i, false) : drop(f, i, rc);
	if (t != f->chunk) {
		rc = empty_pipe(f, d->scratch[0]);
		return rc ? rc : drop(f, i, -EIO);
	}
	pthread_mutex_lock(&d->lock);
	d->len = f->chunk;
	d->done = false;
	d->go = true;
	pthread_cond_signal(&d->cond);
	pthread_mutex_unlock(&d->lock);
	o->handed = true;
	return 0;
}

/* Wait for the drainer of output i and take its result: its bytes, its
 * calls, and unless stopping, its failure, which drops the output (it had
 * bytes before: no refusal can be routed around any more).  Returns 0 or
 * a negative errno to stop with. */
static int collect(struct fan *f, size_t i, bool stopping)
{
	struct fan_out *o = &f->outs[i];
	struct drainer *d = o->drainer;
	pthread_mutex_lock(&d->lock);
	while (!d->done)
		pthread_cond_wait(&d->cond, &d->lock);
	pthread_mutex_unlock(&d->lock);
	o->handed = false;
	sp_stats_add(&f->m->stats, &d->stats);
	d->stats = (struct sp_stats){ .size = sizeof(d->stats) };
	gave(f, i, d->moved, true);
	if (!d->err)
		return 0;
	if (stopping || d->err == -ECANCELED)
		return (int)d->err;
	int rc = discard(f, d->scratch[0], d->len - d->moved);
	return rc ? rc : drop(f, i, d->err);
}

/* Collect every drainer that has the chunk, in output order.  Returns
 * rc, or when that is 0 the first negative errno to stop with. */
static int collect_all(struct fan *f, int rc)
{
	for (size_t i = 0; i < f->n; i++) {
		if (!f->outs[i].handed)
			continue;
		int r = collect(f, i, rc != 0);
		if (!rc)
			rc = r;
	}
	return rc;
}

/* Give every live output the chunk now in place.  Returns 0 or a negative
 * errno to stop with. */
static int serve_all(struct fan *f, size_t consumer)
{
	for (size_t i = 0; i < f->n; i++) {
		if (!f->outs[i].live)
			continue;
		int rc = for_drainer(f, i, consumer) ? hand_off(f, i) : serve(f, i, i == consumer);
		if (rc)
			return rc;
	}
	return 0;
}

/* One chunk by read(2) and write(2), as GNU tee does it: no output takes
 * splices, or the kernel refused.  Returns 1, 0 at end of input, or a
 * negative errno. */
static int rw_chunk(struct fan *f)
{
	int rc = need_buffer(f);
	if (rc)
		return rc;
	ssize_t r = main_call(f, OP_READ, f->in, -1, f->buf, f->buf_size);
	if (r <= 0)
		return r < 0 ? input_failed(f, r) : 0;
	f->chunk = (size_t)r;
	f->have_buf = true;
	rc = serve_all(f, f->n);
	return rc ? rc : 1;
}

static void start_drainers(struct fan *f);

/* One chunk through the stage.  Returns 1, 0 at end of input, or a
 * negative errno. */
static int stage_chunk(struct fan *f, size_t consumer)
{
	size_t r, want = f->cap;
	/* An output served by write(2) gets the chunk through the buffer:
	 * a chunk no larger than it, and without one nothing is staged (a
	 * failure of the call's own, not of those outputs). */
	if (any_write_route(f)) {
		int rc = need_buffer(f);
		if (rc)
			return rc;
		want = f->buf_size;
	}
	int rc = call(&f->m->worker, OP_STAGE, f->in, f->m->pipe_fds[1], NULL, want,
		      f->total ? REFUSALS_NONE : REFUSALS_SPLICE, &r);
	if (rc == FALL_BACK) {
		/* The input cannot splice. */
		go_read_write(f);
		return rw_chunk(f);
	}
	if (rc)
		return input_failed(f, rc);
	if (r == 0)
		return 0;
	f->chunk = r;
	/* The drainers pay off from the second chunk on: an input that fits
	 * in one chunk (a small file) is served without starting a thread. */
	if (f->want_drainers && f->total) {
		f->want_drainers = false;
		start_drainers(f);
	}
	if (any_write_route(f) && (rc = fill_buffer(f, false)) && rc != -ECANCELED)
		rc = drop_write_routes(f, rc);
	if (!rc)
		rc = serve_all(f, consumer);
	rc = collect_all(f, rc);
	/* What the consumer did not take (it failed, read/write took over, or
	 * a copy failed half-way through reading the stage). */
	if (!rc && f->consumed < f->chunk)
		rc = empty_pipe(f, f->m->pipe_fds[0]);
	return rc ? rc : 1;
}

/* Move the next chunk to every live output.  Returns 1, 0 at end of input,
 * or a negative errno. */
static int run_chunk(struct fan *f)
{
	for (size_t i = 0; i < f->n; i++)
		f->outs[i].pos = 0;
	f->chunk = f->consumed = 0;
	f->have_buf = false;
	size_t consumer = f->rw ? f->n : consumer_of(f);
	return consumer < f->n ? stage_chunk(f, consumer) : rw_chunk(f);
}

/* Decide how output i is served, from its endpoint record. */
static void classify(struct fan *f, size_t i, int fd)
{
	struct sp_mover *m = f->m;
	struct fan_out *o = &f->outs[i];
	struct endpoint e = ENDPOINT_INIT(fd);
	*o = (struct fan_out){ .fd = fd, .route = ROUTE_SPLICE, .live = true };
	if (lsp_endpoint_look(&e, &m->stats) < 0) {
		o->route = ROUTE_WRITE; /* the first write(2) says what is wrong */
		return;
	}
	lsp_endpoint_output(m, &e);
	if (S_ISFIFO(e.type)) {
		o->route = ROUTE_TEE;
		lsp_pipe_grow(&m->stats, fd, m->opts.pipe_size);
	} else if (e.datagram) {
		/* A datagram per call: write(2) in datagrams of a size a
		 * socket takes (a splice would send a whole chunk as one,
		 * which UDP refuses over 64 KiB). */
		o->max_write = DATAGRAM_SIZE;
		if (may_switch_path(&m->opts)) {
			o->route = ROUTE_WRITE;
			m->stats.fallbacks++;
		}
	} else if (S_ISREG(e.type) && (m->opts.flags & SP_NOCACHE)) {
		/* Uncached I/O is for write(2) only. */
		o->route = ROUTE_WRITE;
		o->nocache = true;
	} else if (may_switch_path(&m->opts)) {
		/* splice(2) refuses O_APPEND; ttys are for write(2). */
		if (endpoint_refuses(&e, SP_PATH_SPLICE) || sys_isatty(&m->stats, fd)) {
			o->route = ROUTE_WRITE;
			m->stats.fallbacks++;
		}
	}
}

/* Set up the stage, the scratch pipe (no smaller than the stage, so that a
 * tee(2) of a whole chunk always fits) and /dev/null.  Returns 0 or a
 * negative errno. */
static int open_pipes(struct fan *f)
{
	struct sp_mover *m = f->m;
	int rc = lsp_private_pipe(m);
	if (rc)
		return rc;
	if (sys_pipe2(&m->stats, f->scratch, O_CLOEXEC) < 0)
		return -errno;
	long size = lsp_pipe_grow(&m->stats, f->scratch[1], m->pipe_size);
	if (size < 0)
		return (int)size;
	if ((size_t)size < m->pipe_size) {
		long got = sys_fcntl(&m->stats, m->pipe_fds[1], F_SETPIPE_SZ, (int)size);
		if (got < 0)
			return -errno;
		m->pipe_size = (size_t)got;
	}
	f->devnull = sys_open(&m->stats, "/dev/null", O_WRONLY | O_CLOEXEC);
	return f->devnull < 0 ? -errno : 0;
}

/* Start a drainer for output i.  Returns 0, or a negative errno when it
 * could not be set up (then output i is served by the main thread). */
static int start_drainer(struct fan *f, struct drainer *d, size_t i)
{
	*d = (struct drainer){ .scratch = { -1, -1 }, .fd = f->outs[i].fd };
	d->stats.size = sizeof(d->stats);
	d->worker = (struct worker){ .opts = &f->m->opts, .stats = &d->stats };
	if (sys_pipe2(&f->m->stats, d->scratch, O_CLOEXEC) < 0)
		return -errno;
	long size = lsp_pipe_grow(&f->m->stats, d->scratch[1], f->m->pipe_size);
	int rc = size < (long)f->m->pipe_size ? -ENOMEM : 0;
	if (!rc) {
		pthread_mutex_init(&d->lock, NULL);
		pthread_cond_init(&d->cond, NULL);
		rc = -pthread_create(&d->thread, NULL, drain_loop, d);
		if (rc) {
			pthread_cond_destroy(&d->cond);
			pthread_mutex_destroy(&d->lock);
		}
	}
	if (rc) {
		sys_close(&f->m->stats, d->scratch[0]);
		sys_close(&f->m->stats, d->scratch[1]);
		return rc;
	}
	f->outs[i].drainer = d;
	return 0;
}

/* Give up to one drainer per CPU to the file outputs other than the
 * consumer, when the process may run on several CPUs.  They start with
 * every signal blocked, so that signals meant for the process (Ctrl-C)
 * reach the calling thread, whose handlers may set the cancel flag; the
 * caller's own mask is left as it was.  Failing to start them is not an
 * error. */
static void start_drainers(struct fan *f)
{
	cpu_set_t set;
	int cpus = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : 1;
	size_t consumer = consumer_of(f), want = 0;
	for (size_t i = 0; i < f->n; i++)
		if (f->outs[i].route == ROUTE_SPLICE && i != consumer)
			want++;
	if (cpus < 2 || !want)
		return;
	if (want > (size_t)cpus)
		want = (size_t)cpus;
	f->drainers = calloc(want, sizeof(*f->drainers));
	sigset_t all, callers;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &callers);
	for (size_t i = 0; f->drainers && i < f->n && f->ndrainers < want; i++)
		if (f->outs[i].route == ROUTE_SPLICE && i != consumer &&
		    start_drainer(f, &f->drainers[f->ndrainers], i) == 0)
			f->ndrainers++;
	pthread_sigmask(SIG_SETMASK, &callers, NULL);
}

/* Stop the drainers (all idle: every chunk collects them) and free them. */
static void stop_drainers(struct fan *f)
{
	for (size_t k = 0; k < f->ndrainers; k++) {
		struct drainer *d = &f->drainers[k];
		pthread_mutex_lock(&d->lock);
		d->quit = true;
		pthread_cond_signal(&d->cond);
		pthread_mutex_unlock(&d->lock);
		pthread_join(d->thread, NULL);
		pthread_cond_destroy(&d->cond);
		pthread_mutex_destroy(&d->lock);
		sys_close(&f->m->stats, d->scratch[0]);
		sys_close(&f->m->stats, d->scratch[1]);
	}
	free(f->drainers);
}

/* Prepare a call: classify the outputs, grow an input pipe, open pipes.
 * Returns 0 or a negative errno. */
static int setup(struct fan *f, int in_fd, const int *out_fds)
{
	struct sp_mover *m = f->m;
	f->outs = calloc(f->n ? f->n : 1, sizeof(*f->outs));
	if (!f->outs)
		return -ENOMEM;
	if (f->n)
		memset(f->status, 0, f->n * f->status_size);
	for (size_t i = 0; i < f->n; i++)
		classify(f, i, out_fds[i]);
	f->live = f->n;
	f->rw = rw_only(&m->opts);

	struct endpoint in = ENDPOINT_INIT(in_fd);
	if (lsp_endpoint_look(&in, &m->stats) == 0 && S_ISFIFO(in.type)) {
		lsp_pipe_grow(&m->stats, in_fd, m->opts.pipe_size);
	}
	if (!f->rw && consumer_of(f) < f->n) {
		int rc = open_pipes(f);
		if (rc && !may_switch_path(&m->opts))
			return rc;
		if (rc) {
			f->rw = true;
			m->stats.fallbacks++;
		} else {
			f->want_drainers = true;
		}
	}
	/* A chunk must fit in the stage, once there is one. */
	f->cap = m->pipe_size ? m->pipe_size : m->opts.pipe_size;
	return 0;
}

int64_t sp_fanout(struct sp_mover *m, int in_fd, const int *out_fds, size_t n,
		  struct sp_fanout_status *status, size_t status_size,
		  sp_fanout_error_fn on_error, void *arg, struct sp_result *result)
{
	if (!m || (n && (!out_fds || !status || status_size < SP_FANOUT_STATUS_SIZE_1_0)) ||
	    (result && result->size < SP_RESULT_SIZE_1_0))
		return -EINVAL;
	int saved_errno = errno;
	uint64_t start = lsp_now_ns();
	struct fan f = { .m = m, .in = in_fd, .status = status, .status_size = status_size, .n = n,
			 .on_error = on_error, .arg = arg,
			 .scratch = { -1, -1 }, .devnull = -1 };

	int rc = setup(&f, in_fd, out_fds);
	while (!rc && f.live) {
		rc = run_chunk(&f);
		if (rc <= 0)
			break;
		f.total += f.chunk;
		/* The caller's elements are current when its progress
		 * callback reads them (sptee's bar counts from them). */
		for (size_t i = 0; m->opts.progress && i < n; i++)
			publish(&f, i);
		rc = lsp_report_progress(m);
	}

	stop_drainers(&f);
	for (size_t i = 0; f.outs && i < n; i++) {
		if (f.outs[i].nocache)
			lsp_nocache_finish(&f.outs[i].cache, &m->stats, -1, f.outs[i].fd);
		publish(&f, i);
	}
	if (rc < 0)
		lsp_private_pipe_discard(m); /* it may hold part of a chunk */
	if (f.scratch[0] >= 0) {
		sys_close(&m->stats, f.scratch[0]);
		sys_close(&m->stats, f.scratch[1]);
	}
	if (f.devnull >= 0)
		sys_close(&m->stats, f.devnull);
	free(f.buf);
	free(f.outs);
	struct sp_result res = { .bytes = f.total, .side = f.side,
				 .path = !f.total ? SP_PATH_NONE : f.rw ? SP_PATH_RW : SP_PATH_SPLICE };
	lsp_result_store(result, &res);
	m->stats.elapsed_ns += lsp_now_ns() - start;
	errno = saved_errno;
	return rc < 0 ? rc : (int64_t)f.total;
}
