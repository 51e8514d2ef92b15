/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove -r: the new regular files of a tree copied by worker threads,
 * next to the thread that walks the tree.
 *
 * On a small file nearly all the time goes to system calls (open, create,
 * copy, rename, close), each paying the kernel's entry cost, and a CPU does
 * one at a time: with more CPUs, more files are copied at once.  A worker
 * copies a file exactly as the walking thread would (copy_regular(): a
 * file without a name, linked in when complete), with its own mover and
 * its own held-open destination directory.  Only the simple case is
 * handed over: a regular file whose destination name is free, with no
 * hard link to keep, no -v line or --progress display to keep in order,
 * and no source to remove after (a move).  A file the source directory
 * lists as regular is handed over without a look (lstat) by the walker:
 * the worker opens it, checks it and gives back what is not such a file.
 * In a directory the run made its name is free; in one that was there,
 * the worker looks at the name (copy_listed_regular()) and gives back
 * anything but a regular file to replace.  Everything else, and every
 * directory's attributes, stays with the walker, which copies from the
 * queue too while it waits for the workers (and when the queue is full):
 * on N CPUs, N threads copy -- --stats tells how the files handed over
 * were shared.
 *
 * A directory's attributes wait for its files' copies, but the walker
 * need not: it goes on to open and list the next directory while the
 * workers finish the last one's files, and finishes that one at the end
 * of the next (copy_finish_deferred()), waiting then only for the copies
 * from it (pool_wait_dir()).  While it waits, the walker copies the files
 * queued last, the workers those queued first: each thread works in a
 * directory of its own, and they seldom take the same directory's lock.
 *
 * Starting a worker and ending it costs about a quarter of a millisecond
 * (its stack, its heap, two wake-ups, the join), and two threads filling
 * one directory take turns at its lock: here the walker alone copied a
 * directory of 128 small files sooner than with a worker beside it, and
 * the worker paid off from about 200.  On a file system slow to make
 * files (ext4 on a slow disk), where that lock is held longer, 40 files
 * still went faster alone.  So, unless --parallel says how many threads
 * to use, the walker copies alone until the tree shows that sharing pays:
 * START_LEFT files still to copy -- those the directories read so far
 * list, and in each directory listed but not yet read as many as they
 * had on average -- or START_BYTES still to copy, in two files or more,
 * counting for each file left the average size of those it came to.  The
 * data of large files is copied side by side: 12 files of 400 KiB went
 * 15% faster with a worker from the first, but 4 went 10% slower, and
 * starting it late, after 10 of the 12, was slower than either.  Until
 * the workers start, the walker looks at each listed file itself
 * (lstat(2)) to know its size. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "lazylib.h"
#include "message.h"
#include "quote.h"
#include "stats.h"
#include "thread.h"
#include "spmove.h"

/* Files queued for the workers (a job holds two struct stat, about 450
 * bytes with its names); the walker copies one itself when it finds the
 * queue full.  A ring of 256 keeps 7 workers fed, and the walker, which
 * no longer looks at a listed file, runs far ahead: 1024 slots touched
 * 300-400 KiB more memory over a tree of 1000 files, at the same speed. */
#define POOL_QUEUE 256
/* Never more workers than this, whatever the CPU count; nor more threads
 * than POOL_MAX_THREADS whatever --parallel says. */
#define POOL_MAX_WORKERS 7
#define POOL_MAX_THREADS 64

/* When the workers start, unless --parallel said (see the top). */
#define START_LEFT 192
#define START_BYTES (3 << 20)

/* How often pool_wait() looks whether a signal cancelled the run. */
#define WAKE_PERIOD_MS 100

/* How long a thread that has run out of work keeps looking for more
 * before it sleeps.  Between two directories the walker spends some tens
 * of microseconds opening and listing the next, and a thread put to sleep
 * takes about as long again to wake (longer in a virtual machine): on a
 * tree of small directories, sleeping at each of them cost a tenth of the
 * run.  Each wait spins at most this long, then sleeps; there is one
 * copier per CPU, so the spinning takes no time another copier would
 * have had -- once the scheduler has spread them.  A worker just started
 * often shares the walker's CPU (in three runs of four here), so it
 * sleeps at once until its first job: a spin there held the walker up
 * for all of SPIN_US, a tenth of the time of a one-file copy. */
#define SPIN_US 200

/* One file to copy: its names relative to the directories of the walker
 * (held open until the job is done: pool_wait() comes first).  Kept small
 * (about 150 bytes): it is written into the queue by one thread and read
 * out by another, a file at a time; the two looks, when taken, travel in
 * the block with the names. */
struct job {
	struct loc src, dst;
	const struct stat *st;     /* the source as looked at (NULL when listed) */
	const struct stat *dst_st; /* the file dst names, when it replaces one */
	struct ancestor *up;       /* the directory's, for a copy given back */
	void *block;               /* st, dst_st, src.path and dst.path, in one */
	uint64_t serial;           /* its directory's (up's pool_serial) */
	enum listed listed;        /* not looked at: copy_listed_regular() */
	bool follow;               /* st is what a symbolic link names (-L) */
	struct job *next;          /* on the list of those given back */
};

/* A job's block: the looks it carries, then the two paths. */
struct job_block {
	struct stat st, dst_st;
	char paths[];
};

struct worker {
	pthread_t thread;
	struct pool *pool;
	struct copier c;         /* its own: pool_context() */
	struct fdtable dirs;     /* with a table of its own (c.own_table) */
	struct sp_stats stats;   /* its mover's, once it has ended */
};

struct pool {
	pthread_mutex_t lock;
	pthread_cond_t queued;  /* a job was queued, or the pool stops */
	pthread_cond_t done;    /* the last job under way, or the last from
				 * a directory, finished */
	struct job queue[POOL_QUEUE];
	unsigned head;          /* the queue's first job */
	/* Changed with the lock held; read without it too, by a thread
	 * spinning for work or for the end of the work (spin_more()). */
	_Atomic unsigned count; /* the queue's length */
	_Atomic unsigned busy;  /* jobs taken and not yet finished */
	_Atomic bool stopping;
	unsigned idle;          /* workers waiting for a job */
	int status;             /* 1 once a handed-over copy failed */
	struct job *again;      /* given back for copy_entry() (malloc'd) */
	int pidfd;              /* fdtable_walker_pidfd(), or -1 */
	uint64_t serials;       /* the directories given a serial */
	unsigned workers;
	struct worker worker[]; /* pool_worker_count() */
};

/* The CPUs this process may run on. */
static unsigned cpus(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		return (unsigned)CPU_COUNT(&set);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

unsigned pool_worker_count(const struct spmove_options *o)
{
	static int count = -1; /* asked once, by the walker */
	if (count < 0) {
		unsigned n = o->parallel ? o->parallel : cpus();
		if (!o->parallel && n > POOL_MAX_WORKERS + 1)
			n = POOL_MAX_WORKERS + 1;
		if (n > POOL_MAX_THREADS)
			n = POOL_MAX_THREADS;
		/* Each worker holds up to four descriptors (a file, its copy,
		 * a pipe): under a low limit they are the walker's. */
		struct rlimit r;
		if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur != RLIM_INFINITY) {
			rlim_t room = r.rlim_cur < 64 ? 0 : (r.rlim_cur - 32) / 4;
			if (n - 1 > room)
				n = (unsigned)room + 1;
		}
		count = n <= 1 ? 0 : (int)n - 1;
	}
	return (unsigned)count;
}

/* A while spent looking for a change made by another thread, begun by
 * spin_begin() and gone on with while spin_more() says. */
struct spin {
	struct timespec start;
	unsigned rounds;
};

static struct spin spin_begin(void)
{
	struct spin sp = { .rounds = 0 };
	clock_gettime(CLOCK_MONOTONIC, &sp.start);
	return sp;
}

/* Whether to look once more (after a pause that lets the other CPU
 * thread of the core run): until SPIN_US have passed. */
static bool spin_more(struct spin *sp)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
	if (++sp->rounds % 64)
		return true;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - sp->start.tv_sec) * 1000000000L + now.tv_nsec - sp->start.tv_nsec <
	       SPIN_US * 1000L;
}

static void job_free(struct job *j)
{
	free(j->block);
}

/* Copy as s says; STEP_GO_ON only for a listed job. */
static enum step job_run(struct copier *s, const struct job *j)
{
	if (spmove_cancel)
		return STEP_FAILED;
	/* The directory's stat, for copy.c: the copy may then need no
	 * chown. */
	s->dst_dir_st = j->up ? &j->up->dst_st : NULL;
	s->dst_dir_plain = j->up && j->up->dst_plain;
	enum step rc = j->listed ? copy_listed_regular(s, &j->src, &j->dst,
						       j->listed == LISTED_LOOK)
		       : copy_regular(s, &j->src, j->st, j->follow, &j->dst, j->dst_st,
				      !j->dst_st, false)
		       ? STEP_FAILED : STEP_DONE;
	s->dst_dir_st = NULL;
	s->dst_dir_plain = false;
	if (rc != STEP_GO_ON)
		s->handed_copied++;
	return rc;
}

/* Copy j as worker w does, through its own descriptors for j's
 * directories when it has a table of its own.  A job whose directories it
 * cannot take (descriptors running out) is given back (STEP_GO_ON). */
static enum step worker_run(struct worker *w, const struct job *j)
{
	if (!w->c.own_table)
		return job_run(&w->c, j);
	struct job mine = *j;
	if (fdtable_dirs(&w->dirs, w->pool->pidfd, j->serial, &mine.src.dir, &mine.dst.dir) < 0)
		return STEP_GO_ON;
	w->c.dst_dir_own = mine.dst.dir;
	w->c.dst_dir_walker = j->dst.dir;
	enum step rc = job_run(&w->c, &mine);
	fdtable_done(j->serial, mine.src.dir, mine.dst.dir);
	return rc;
}

/* Take the first queued job (newest: the last) and copy it as worker w,
 * or with w NULL as the walker (s).  Called with the lock held, which it
 * lets go meanwhile. */
static void run_next(struct pool *p, struct worker *w, struct copier *s, bool newest)
{
	struct job j;
	if (newest) {
		j = p->queue[(p->head + p->count - 1) % POOL_QUEUE];
	} else {
		j = p->queue[p->head];
		p->head = (p->head + 1) % POOL_QUEUE;
	}
	p->count--;
	p->busy++;
	pthread_mutex_unlock(&p->lock);
	enum step rc = w ? worker_run(w, &j) : job_run(s, &j);
	struct job *back = NULL;
	if (rc == STEP_GO_ON && !(back = malloc(sizeof(*back)))) {
		cli_error(ENOMEM, "cannot copy %s", quoted(j.src.path));
		rc = STEP_FAILED;
	}
	if (back)
		*back = j;
	else
		job_free(&j);
	pthread_mutex_lock(&p->lock);
	if (back) {
		back->next = p->again;
		p->again = back;
	} else {
		p->status |= rc == STEP_FAILED;
	}
	/* Given back, it is on the list before its directory's count
	 * falls: pool_wait_dir() then finds it there. */
	bool dir_done = j.up && !--j.up->jobs;
	if ((!--p->busy && !p->count) || dir_done)
		pthread_cond_broadcast(&p->done);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->pool;
	/* A file size limit (SIGXFSZ) or a closed pipe (SIGPIPE) is the
	 * writing thread's own signal: it cancels the run from here too. */
	sigset_t own;
	sigemptyset(&own);
	sigaddset(&own, SIGXFSZ);
	sigaddset(&own, SIGPIPE);
	sigaddset(&own, SIGNAL_WAKE);
	pthread_sigmask(SIG_UNBLOCK, &own, NULL);
	fdtable_init(&w->dirs);
	w->c.own_table = p->pidfd >= 0 && fdtable_own(p->pidfd);
	pthread_mutex_lock(&p->lock);
	for (bool started = false;; started = true) {
		if (started && !p->count && !p->stopping) {
			pthread_mutex_unlock(&p->lock);
			for (struct spin sp = spin_begin(); !p->count && !p->stopping && spin_more(&sp);)
				;
			pthread_mutex_lock(&p->lock);
		}
		while (!p->count && !p->stopping) {
			p->idle++;
			pthread_cond_wait(&p->queued, &p->lock);
			p->idle--;
		}
		if (!p->count)
			break;
		run_next(p, w, &w->c, false);
	}
	pthread_mutex_unlock(&p->lock);
	/* Its mover's pipes are in this thread's table. */
	w->stats = (struct sp_stats){ .size = sizeof(w->stats) };
	sp_get_stats(w->c.mover, &w->stats);
	sp_mover_free(w->c.mover);
	w->c.mover = NULL;
	fdtable_close(&w->dirs);
	copy_thread_end();
	cli_quote_release();
	return NULL;
}

/* Free p, whose workers have ended (or never started). */
static void pool_free(struct pool *p)
{
	if (p->pidfd >= 0)
		close(p->pidfd);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->queued);
	pthread_cond_destroy(&p->done);
	free(p);
}

/* A worker's own copier: the run's description, its own mover, the
 * run's batch of replaced files and its tally of files found unchanged;
 * the walker's state (the sets, the progress display, the pool) is not in
 * a copier at all.  Returns 0 or a negative errno. */
static int pool_context(struct copier *w, const struct spmove_options *run,
			struct batch *batch, struct same_tally *same)
{
	*w = (struct copier){ .o = run, .batch = batch, .same = same };
	return sp_mover_new(&w->mover, run->mover);
}

/* Start the workers: s->pool, or s->pool_failed when none can start (the
 * walker then copies everything itself). */
static void pool_start(struct spmove *s)
{
	unsigned want = pool_worker_count(s->c.o);
	/* libattr reads /etc/xattr.conf on the first question of which
	 * attributes to copy, into a list it keeps without a lock: two
	 * threads asking first at once both add to it (LeakSanitizer saw
	 * the nodes one of them lost).  The walker asks before any worker
	 * starts. */
	if (s->c.o->keep & KEEP_XATTR)
		lazy_attr_load_early();
	struct pool *p = calloc(1, sizeof(*p) + want * sizeof(p->worker[0]));
	if (!p) {
		s->pool_failed = true;
		return;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->queued, NULL);
	pthread_cond_init(&p->done, NULL);
	p->pidfd = fdtable_walker_pidfd();
	for (unsigned i = 0; i < want; i++) {
		struct worker *w = &p->worker[p->workers];
		w->pool = p;
		if (pool_context(&w->c, s->c.o, s->batch, &s->same) < 0)
			break;
		if (cli_thread_start_apart(&w->thread, work, w, i)) {
			sp_mover_free(w->c.mover);
			break;
		}
		p->workers++;
	}
	if (!p->workers) {
		pool_free(p);
		s->pool_failed = true;
		return;
	}
	s->pool = p;
	s->workers_used = p->workers;
	s->copied_alone = s->c.handed_copied;
}

/* Whether the options let workers copy (not with -l or -s, which make
 * links rather than copies), and there are some to be had. */
static bool pool_allowed(const struct spmove *s)
{
	const struct spmove_options *o = s->c.o;
	return s->tree_depth && !s->pool_failed && !o->verbose && !s->c.progress &&
	       !o->move && !o->in_place && !o->hard_link && !o->symbolic_link &&
	       !o->attributes_only &&
	       (s->pool || pool_worker_count(o));
}

/* Whether the workers start at the first file (--parallel), or only once
 * the tree has shown enough work (pool_due()). */
static bool pool_eager(const struct spmove *s)
{
	return s->c.o->parallel != 0;
}

/* The files still to copy, as far as the tree has been read: those
 * listed and not yet copied, and as many in each directory not yet read
 * as the others below the top had on average (the top, often a directory
 * of directories, while it is the only one read). */
static size_t files_left(const struct spmove *s)
{
	const struct tree_count *t = &s->tree_count;
	size_t each = t->read > 1 ? (t->regular - t->top_regular) / (t->read - 1) : t->regular;
	size_t promised = t->regular + t->pending * each;
	return promised > s->c.handed_copied ? promised - s->c.handed_copied : 0;
}

/* Whether the workers should start now, before the copy of a file (st,
 * or NULL when not looked at) the walker would otherwise copy alone. */
static bool pool_due(struct spmove *s, const struct stat *st)
{
	if (pool_eager(s))
		return true;
	struct tree_count *t = &s->tree_count;
	if (st && st->st_size > 0)
		t->bytes += (uint64_t)st->st_size;
	size_t left = files_left(s); /* st's file among them */
	return left > 1 && left * (t->bytes / (s->c.handed_copied + 1)) >= START_BYTES;
}

void pool_expect(struct spmove *s, size_t regular, size_t dirs)
{
	struct tree_count *t = &s->tree_count;
	if (!t->read++)
		t->top_regular = regular;
	else if (t->pending)
		t->pending--; /* this one */
	t->regular += regular;
	t->pending += dirs;
	if (!s->pool && files_left(s) >= START_LEFT && pool_allowed(s))
		pool_start(s);
}

bool pool_may_defer(const struct spmove *s)
{
	return pool_allowed(s);
}

bool pool_takes(const struct spmove *s, const struct stat *st)
{
	const struct spmove_options *o = s->c.o;
	return S_ISREG(st->st_mode) && !s->given_back && pool_allowed(s) &&
	       !((o->keep & KEEP_LINKS) && (st->st_nlink > 1 || o->deref == DEREF_ALWAYS));
}

enum listed pool_takes_listed(const struct spmove *s)
{
	const struct spmove_options *o = s->c.o;
	/* With -L a link to another link of the same file is one to keep. */
	if (o->deref == DEREF_ALWAYS || !pool_allowed(s))
		return LISTED_NO;
	/* Until the workers start the walker copies alone, and looks at
	 * each file first: its size counts (pool_due()). */
	if (!s->pool && !pool_eager(s))
		return LISTED_NO;
	if (s->in_new_dir)
		return LISTED_FREE;
	/* What decides about a file found at the name is the walker's
	 * (check_existing()); the worker gives back all but a regular file
	 * to replace.  --debug's lines are the walker's too. */
	return o->update == UPDATE_ALL && o->ask != ASK_USER && o->backup == BACKUP_NONE &&
	       !o->remove_destination && !o->debug ? LISTED_LOOK : LISTED_NO;
}

/* j for src (st), dst, up: the names copied.  Returns 0 or -ENOMEM. */
static int job_make(struct job *j, const struct loc *src, const struct stat *st, bool follow,
		    const struct loc *dst, const struct stat *dst_st, struct ancestor *up,
		    enum listed listed)
{
	size_t src_len = strlen(src->path) + 1, dst_len = strlen(dst->path) + 1;
	size_t looks = st || dst_st ? sizeof(struct job_block) : 0;
	char *block = malloc(looks + src_len + dst_len);
	*j = (struct job){ .src = *src, .dst = *dst, .up = up, .listed = listed,
			   .follow = follow, .block = block };
	if (!block)
		return -ENOMEM;
	char *paths = block + looks;
	if (looks) {
		struct job_block *b = (struct job_block *)block;
		if (st) {
			b->st = *st;
			j->st = &b->st;
		}
		if (dst_st) {
			b->dst_st = *dst_st;
			j->dst_st = &b->dst_st;
		}
	}
	memcpy(paths, src->path, src_len);
	memcpy(paths + src_len, dst->path, dst_len);
	j->src.path = paths;
	j->src.name = paths + src_len - 1 - strlen(src->name);
	j->dst.path = paths + src_len;
	j->dst.name = j->dst.path + dst_len - 1 - strlen(dst->name);
	return 0;
}

enum step pool_copy(struct spmove *s, const struct loc *src, const struct stat *st, bool follow,
		    const struct loc *dst, const struct stat *dst_st, struct ancestor *up,
		    enum listed listed)
{
	if (!s->pool && pool_due(s, st))
		pool_start(s);
	struct pool *p = s->pool;
	struct job j;
	bool queued = false;
	if (p && job_make(&j, src, st, follow, dst, dst_st, up, listed) == 0) {
		pthread_mutex_lock(&p->lock);
		queued = p->count < POOL_QUEUE;
		if (queued && up) {
			if (!up->pool_serial)
				up->pool_serial = ++p->serials;
			j.serial = up->pool_serial;
		}
		if (queued) {
			p->queue[(p->head + p->count) % POOL_QUEUE] = j;
			p->count++;
			if (up)
				up->jobs++;
			if (p->idle)
				pthread_cond_signal(&p->queued);
		}
		pthread_mutex_unlock(&p->lock);
		if (!queued)
			job_free(&j);
	}
	if (queued)
		return STEP_DONE;
	/* Every worker has work (or none runs): the walker's copy. */
	struct job here = { .src = *src, .dst = *dst, .st = st, .dst_st = dst_st, .up = up,
			    .listed = listed, .follow = follow };
	return job_run(&s->c, &here);
}

/* Wait until *left (the pool's busy count, or a directory's jobs) is 0,
 * copying from the queue meanwhile: everything queued (all), or only
 * until *left is 0.  Returns 1 when a handed-over copy failed (reported)
 * since the last wait, else 0. */
static int wait_for(struct spmove *s, _Atomic unsigned *left, bool all)
{
	struct pool *p = s->pool;
	pthread_mutex_lock(&p->lock);
	/* The walker copies alongside the workers. */
	while (p->count && (all || *left))
		run_next(p, NULL, &s->c, true);
	if (*left) {
		pthread_mutex_unlock(&p->lock);
		for (struct spin sp = spin_begin(); *left && !spmove_cancel && spin_more(&sp);)
			;
		pthread_mutex_lock(&p->lock);
	}
	/* A signal that cancels the run reaches this thread, not a worker
	 * blocked in a read or poll (a FIFO's writer, /proc/kmsg, a hung
	 * NFS server): checked every WAKE_PERIOD_MS, and while cancelled
	 * each worker is interrupted (again, in case it was between its
	 * look at the flag and the call) until its copy has stopped. */
	while (*left) {
		if (spmove_cancel)
			for (unsigned i = 0; i < p->workers; i++)
				signals_wake(p->worker[i].thread);
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += WAKE_PERIOD_MS * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&p->done, &p->lock, &until);
	}
	int status = p->status;
	p->status = 0;
	pthread_mutex_unlock(&p->lock);
	return status;
}

int pool_wait(struct spmove *s)
{
	return s->pool ? wait_for(s, &s->pool->busy, true) : 0;
}

int pool_wait_dir(struct spmove *s, struct ancestor *dir)
{
	return s->pool ? wait_for(s, &dir->jobs, false) : 0;
}

struct job *pool_again(struct spmove *s, struct loc *src, struct loc *dst,
		       struct ancestor **up, bool *made)
{
	struct pool *p = s->pool;
	if (!p)
		return NULL;
	pthread_mutex_lock(&p->lock);
	struct job *j = p->again;
	if (j)
		p->again = j->next;
	pthread_mutex_unlock(&p->lock);
	if (j) {
		*src = j->src;
		*dst = j->dst;
		*up = j->up;
		*made = j->listed == LISTED_FREE;
	}
	return j;
}

void pool_job_free(struct job *j)
{
	job_free(j);
	free(j);
}

void pool_stop(struct spmove *s, struct sp_stats *total)
{
	struct pool *p = s->pool;
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stopping = true;
	pthread_cond_broadcast(&p->queued);
	pthread_mutex_unlock(&p->lock);
	for (unsigned i = 0; i < p->workers; i++) {
		struct worker *w = &p->worker[i];
		pthread_join(w->thread, NULL);
		if (total)
			sp_stats_add(total, &w->stats);
		s->c.methods_used |= w->c.methods_used;
		s->workers_copied += w->c.handed_copied;
	}
	for (struct job *j = p->again, *next; j; j = next) {
		next = j->next;
		job_free(j);
		free(j);
	}
	pool_free(p);
	s->pool = NULL;
}
