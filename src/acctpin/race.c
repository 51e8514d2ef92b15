/* SPDX-License-Identifier: GPL-2.0-or-later */
/* acctpin race: hammer accounting against unmounts.  Marker threads fork
 * and reap marker processes without pause, a toggler thread switches
 * accounting off and on again, and the main thread mounts, fills with
 * records and takes away (unmount, lazy unmount, read-only remount) one
 * bind mount of the scratch filesystem after another.  After each cycle
 * it stops the threads and checks the cycle's file: no torn or foreign
 * record, no record lost that had to be written, nothing written after
 * the unmount. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "acctpin.h"
#include "clock.h"
#include "jsondoc.h"
#include "message.h"
#include "path.h"
#include "quote.h"

enum { MAX_RECORDS = 1 << 20, EBUSY_RETRIES = 200 };

/* The ways a cycle takes the mount away. */
enum cut { CUT_UMOUNT, CUT_LAZY, CUT_REMOUNT, CUT_KINDS };
static const char *const cut_names[] = { "umount", "lazy", "remount-ro" };
static const char *const cut_threads[] = { "apr-umount", "apr-lazy", "apr-remount" };

/* A marker of the current cycle, and whether its record had to be written. */
struct race_marker {
	struct ap_marker m;
	bool must;
};

struct race {
	const struct ap_race_options *o;
	struct ap_scratch base;     /* the scratch filesystem, mounted for good */
	char cycle_mnt[PATH_MAX];   /* where each cycle's bind mount goes */
	char file[PATH_MAX];        /* this cycle's accounting file, through cycle_mnt */

	/* Accounting state as the markers see it (see marker_thread). */
	atomic_ulong gen;           /* bumped when a change of state starts */
	atomic_int busy;            /* changes of state in progress */
	atomic_bool on;             /* the toggler (or the cycle) turned it on to file */
	atomic_bool mounted;        /* the cycle's mount is not being taken away */

	pthread_mutex_t lock;       /* guards what follows */
	pthread_cond_t cond;
	bool pause, stop;
	unsigned parked, workers;
	struct race_marker *mk;
	size_t nmk, capmk;
	bool failed;                /* a thread could not fork or reap */
	pid_t toggler_tid;
	char busy_wchan[64];        /* where the toggler waited when an unmount stayed busy */

	/* Counts. */
	unsigned long cycles, cuts[CUT_KINDS], ebusy, busy_gave_up, toggles_on, toggles_off, toggle_enoent;
	unsigned long forks, must, records, pin_records, lost, torn, stray, after_off;
};

/* Begin and end a change of the accounting state. */
static void change_begin(struct race *r)
{
	atomic_fetch_add(&r->busy, 1);
	atomic_fetch_add(&r->gen, 1);
}

static void change_end(struct race *r)
{
	atomic_fetch_sub(&r->busy, 1);
}

/* Park while the main thread checks a cycle.  Returns false when the
 * threads must stop. */
static bool wait_if_paused(struct race *r)
{
	pthread_mutex_lock(&r->lock);
	while (r->pause && !r->stop) {
		r->parked++;
		pthread_cond_broadcast(&r->cond);
		pthread_cond_wait(&r->cond, &r->lock);
		r->parked--;
	}
	bool go = !r->stop;
	pthread_mutex_unlock(&r->lock);
	return go;
}

/* A worker thread ends: it no longer counts among those that must park
 * (else a marker thread that could not fork would hang pause_workers). */
static void *worker_done(struct race *r)
{
	pthread_mutex_lock(&r->lock);
	r->workers--;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

/* Stop the workers at their next step and wait until all are parked. */
static void pause_workers(struct race *r)
{
	pthread_mutex_lock(&r->lock);
	r->pause = true;
	while (r->parked < r->workers)
		pthread_cond_wait(&r->cond, &r->lock);
	pthread_mutex_unlock(&r->lock);
}

/* Let the workers go on (or end, with stop). */
static void resume_workers(struct race *r, bool stop)
{
	pthread_mutex_lock(&r->lock);
	r->pause = false;
	r->stop = stop;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

/* A marker thread: fork markers as fast as possible.  A marker's record
 * had to be written when accounting was on to this cycle's file, with no
 * change of state in progress, from before its fork until after its reap. */
static void *marker_thread(void *arg)
{
	struct race *r = arg;
	unsigned self;
	pthread_mutex_lock(&r->lock);
	self = r->workers - 1;   /* only for the name */
	pthread_mutex_unlock(&r->lock);
	char name[16];
	snprintf(name, sizeof name, "apr-mark%u", self);
	prctl(PR_SET_NAME, name);
	for (unsigned long seq = 0; wait_if_paused(r); seq++) {
		unsigned long g1 = atomic_load(&r->gen);
		bool settled = atomic_load(&r->busy) == 0 && atomic_load(&r->on) &&
			       atomic_load(&r->mounted);
		struct race_marker rm = { .must = false };
		snprintf(name, sizeof name, "apr-%u-%lu", self, seq % 100000);
		int code = seq % 7 == 6 ? -SIGUSR1 : (int)(seq % 200);
		if (ap_marker_start(&rm.m, name, code, NULL) < 0 || ap_marker_reap(&rm.m) < 0) {
			pthread_mutex_lock(&r->lock);
			r->failed = true;
			pthread_mutex_unlock(&r->lock);
			break;
		}
		rm.must = settled && atomic_load(&r->gen) == g1;
		pthread_mutex_lock(&r->lock);
		if (r->nmk == r->capmk) {
			size_t cap = r->capmk ? 2 * r->capmk : 1024;
			struct race_marker *v = realloc(r->mk, cap * sizeof *v);
			if (v) {
				r->mk = v;
				r->capmk = cap;
			}
		}
		if (r->nmk < r->capmk)
			r->mk[r->nmk++] = rm;
		r->forks++;
		pthread_mutex_unlock(&r->lock);
	}
	return worker_done(r);
}

/* The toggler thread: accounting off, then on again to the cycle's file. */
static void *toggle_thread(void *arg)
{
	struct race *r = arg;
	prctl(PR_SET_NAME, "apr-toggle");
	r->toggler_tid = gettid();
	while (wait_if_paused(r)) {
		change_begin(r);
		atomic_store(&r->on, false);
		ap_acct(NULL);
		change_end(r);
		r->toggles_off++;
		if (!ap_sleep_ms(1) || !wait_if_paused(r))
			break;
		change_begin(r);
		int rc = ap_acct(r->file);
		atomic_store(&r->on, rc == 0);
		change_end(r);
		r->toggles_on++;
		r->toggle_enoent += rc == -ENOENT;
		ap_sleep_ms(3);
	}
	return worker_done(r);
}

/* Count an EBUSY and give whoever holds the mount a moment: the first
 * retries come at once, later ones after a millisecond. */
static void busy_wait(struct race *r, int attempt)
{
	r->ebusy++;
	if (attempt < 100)
		sched_yield();
	else
		ap_sleep_ms(1);
}

/* Remember, the first time the unmount stays busy, where in the kernel the
 * toggler thread waits (its wchan), for the report. */
static void note_busy(struct race *r)
{
	if (r->busy_gave_up++ || r->toggler_tid <= 0)
		return;
	char path[64];
	snprintf(path, sizeof path, "/proc/self/task/%d/wchan", (int)r->toggler_tid);
	FILE *f = fopen(path, "re");
	if (f) {
		if (!fgets(r->busy_wchan, sizeof r->busy_wchan, f))
			r->busy_wchan[0] = '\0';
		fclose(f);
	}
}

/* Take the cycle's mount away as cut says, retrying while it is busy.
 * Returns 0, 1 when it stayed busy (the caller retries with the threads
 * parked), or a negative errno after a message. */
static int take_away(struct race *r, enum cut cut, bool last_try)
{
	prctl(PR_SET_NAME, cut_threads[cut]);
	change_begin(r);
	atomic_store(&r->mounted, false);
	int rc = 0;
	if (cut == CUT_REMOUNT) {
		for (int i = 0; (rc = mount(NULL, r->base.mnt, NULL, MS_REMOUNT | MS_RDONLY, NULL)) < 0 &&
				errno == EBUSY && i < EBUSY_RETRIES; i++)
			busy_wait(r, i);
	}
	if (rc == 0)
		for (int i = 0; (rc = umount2(r->cycle_mnt, cut == CUT_LAZY ? MNT_DETACH : 0)) < 0 &&
				errno == EBUSY && i < EBUSY_RETRIES; i++)
			busy_wait(r, i);
	int err = errno;
	change_end(r);
	prctl(PR_SET_NAME, "acctpin");
	if (rc == 0)
		return 0;
	if (err == EBUSY && !last_try) {
		note_busy(r);
		return 1;
	}
	return ap_fail(-err, err, "cannot %s %s",
		       cut == CUT_REMOUNT ? "remount read-only or unmount" : "unmount",
		       cli_quote(r->cycle_mnt));
}

/* Whether rec is a record the kernel wrote for one of our threads when a
 * pin was killed or accounting was switched. */
static bool pin_record(const struct ap_record *rec)
{
	if (rec->pid != (uint32_t)getpid())
		return false;
	if (!strcmp(rec->comm, "apr-toggle") || !strcmp(rec->comm, "acctpin"))
		return true;
	for (int k = 0; k < CUT_KINDS; k++)
		if (!strcmp(rec->comm, cut_threads[k]))
			return true;
	return false;
}

/* Check the cycle's file (read through the base mount) against the
 * markers and the probe; count and clear. */
static void check_cycle(struct race *r, const char *reader, const struct ap_marker *probe)
{
	struct ap_records recs;
	if (ap_records_load(reader, 0, MAX_RECORDS, &recs) < 0) {
		r->torn++;
		return;
	}
	if (recs.damaged) {
		r->torn++;
		cli_error(0, "%s: %s", reader, recs.error);
	}
	r->records += recs.n;
	for (size_t i = 0; i < recs.n; i++) {
		const struct ap_record *rec = &recs.v[i];
		bool known = pin_record(rec);
		r->pin_records += known;
		for (size_t k = r->nmk; !known && k-- > 0;)
			known = ap_marker_matches(&r->mk[k].m, rec, getpid());
		if (ap_marker_matches(probe, rec, getpid())) {
			r->after_off++;
			known = true;
		}
		if (!known && r->stray++ == 0)
			cli_error(0, "%s: foreign record %zu (pid %u, %s)", reader, i, rec->pid,
				  rec->comm);
	}
	for (size_t k = 0; k < r->nmk; k++) {
		if (!r->mk[k].must)
			continue;
		r->must++;
		long i = ap_records_find(&recs, (uint32_t)r->mk[k].m.pid, r->mk[k].m.name);
		if (i < 0 || !ap_marker_matches(&r->mk[k].m, &recs.v[i], getpid())) {
			if (r->lost++ == 0)
				cli_error(0, "%s: no record for %s (pid %d), which had to be written",
					  reader, r->mk[k].m.name, (int)r->mk[k].m.pid);
		}
	}
	r->nmk = 0;
	ap_records_free(&recs);
}

/* One cycle: mount, account, storm, take away, check.  Returns 0, or a
 * negative errno after a message. */
static int cycle(struct race *r, unsigned long n)
{
	char name[32], reader[PATH_MAX];
	enum cut cut = (enum cut)(n % (r->o->ws.kind == AP_FS_EXISTING ? CUT_REMOUNT : CUT_KINDS));
	int rc;
	ap_progress("race: cycle %lu: mounting", n);
	if (mount(r->base.mnt, r->cycle_mnt, NULL, MS_BIND, NULL) < 0 ||
	    mount(NULL, r->cycle_mnt, NULL, MS_PRIVATE, NULL) < 0) {
		rc = -errno;
		return ap_fail(rc, -rc, "cannot bind-mount %s", cli_quote(r->cycle_mnt));
	}
	snprintf(name, sizeof name, "c%lu", n);
	if ((rc = ap_path(reader, r->base.keep, name)) < 0 ||
	    (rc = ap_acct_file_new(r->cycle_mnt, name, r->file)) < 0)
		return rc;
	change_begin(r);
	atomic_store(&r->mounted, true);
	rc = ap_acct(r->file);
	atomic_store(&r->on, rc == 0);
	change_end(r);
	if (rc < 0)
		return ap_fail(rc, -rc, "acct(%s)", cli_quote(r->file));
	resume_workers(r, false);
	ap_progress("race: cycle %lu: storm", n);
	ap_sleep_ms(2 + (unsigned)(n * 7919 % 19));
	ap_progress("race: cycle %lu: %s", n, cut_names[cut]);
	rc = take_away(r, cut, false);
	ap_progress("race: cycle %lu: waiting for the threads to park", n);
	pause_workers(r);
	if (rc == 1)
		rc = take_away(r, cut, true);
	if (rc < 0)
		return rc;
	struct ap_marker probe;
	if ((rc = ap_marker_start(&probe, "apr-probe", 7, NULL)) < 0 ||
	    (rc = ap_marker_reap(&probe)) < 0)
		return ap_fail(rc, -rc, "cannot run the probe");
	if (cut == CUT_REMOUNT && mount(NULL, r->base.mnt, NULL, MS_REMOUNT, NULL) < 0) {
		rc = -errno;
		return ap_fail(rc, -rc, "cannot remount %s read-write", cli_quote(r->base.mnt));
	}
	ap_progress("race: cycle %lu: checking", n);
	check_cycle(r, reader, &probe);
	unlink(reader);
	r->cycles++;
	r->cuts[cut]++;
	return rc;
}

/* The counts as one JSON document on stdout.  Returns 0, or 1 after
 * reporting that it could not be printed. */
static int print_json(const struct race *r, const char *release, const char *fs, bool ok)
{
	const struct { const char *key; unsigned long value; } counts[] = {
		{ "threads", r->o->threads }, { "seconds", r->o->seconds },
		{ "cycles", r->cycles }, { "umount", r->cuts[CUT_UMOUNT] },
		{ "lazy", r->cuts[CUT_LAZY] }, { "remount_ro", r->cuts[CUT_REMOUNT] },
		{ "ebusy", r->ebusy }, { "busy_gave_up", r->busy_gave_up },
	}, more[] = {
		{ "acct_on", r->toggles_on }, { "acct_on_enoent", r->toggle_enoent },
		{ "acct_off", r->toggles_off }, { "markers", r->forks },
		{ "must_record", r->must }, { "records", r->records },
		{ "pin_records", r->pin_records }, { "lost", r->lost }, { "torn", r->torn },
		{ "stray", r->stray }, { "after_off", r->after_off },
	};
	struct json_object *doc = json_object_new_object();
	int rc = cli_json_add_text(doc, "command", "race");
	rc |= cli_json_add_text(doc, "kernel", release);
	rc |= cli_json_add_text(doc, "fs", fs);
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		rc |= cli_json_add_u64(doc, counts[i].key, counts[i].value);
	rc |= cli_json_add_text(doc, "busy_wchan", r->busy_wchan);
	for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++)
		rc |= cli_json_add_u64(doc, more[i].key, more[i].value);
	rc |= cli_json_add_bool(doc, "ok", ok);
	return cli_json_emit(doc, rc, stdout, "the counts");
}

/* Print the counts, as text or JSON.  Returns 0, or 1 when the JSON could
 * not be printed. */
static int print_counts(const struct race *r, bool ok, bool json)
{
	static const char *const fs_names[] = { "tmpfs", "ext4", "existing" };
	struct utsname u;
	uname(&u);
	const struct ap_race_options *o = r->o;
	if (json)
		return print_json(r, u.release, fs_names[o->ws.kind], ok);
	printf("# acctpin race: Linux %s, %s, %u marker threads and a toggler, %u s\n",
	       u.release, fs_names[o->ws.kind], o->threads, o->seconds);
	printf("cycles:             %lu (umount %lu, lazy %lu, remount-ro %lu)\n", r->cycles,
	       r->cuts[CUT_UMOUNT], r->cuts[CUT_LAZY], r->cuts[CUT_REMOUNT]);
	printf("EBUSY:              %lu (retried; %lu unmounts still busy after %d tries%s%s)\n",
	       r->ebusy, r->busy_gave_up, EBUSY_RETRIES, r->busy_wchan[0] ? ", toggler in " : "",
	       r->busy_wchan);
	printf("acct on/off:        %lu on (%lu ENOENT after the unmount), %lu off\n",
	       r->toggles_on, r->toggle_enoent, r->toggles_off);
	printf("markers:            %lu forked, %lu had to be recorded\n", r->forks, r->must);
	printf("records:            %lu (%lu written for our threads at a switch or unmount)\n",
	       r->records, r->pin_records);
	printf("lost:               %lu\n", r->lost);
	printf("torn:               %lu\n", r->torn);
	printf("foreign:            %lu\n", r->stray);
	printf("written after off:  %lu\n", r->after_off);
	printf("result:             %s\n", ok ? "ok" : "FAILED");
	return 0;
}

int ap_race_body(void *arg)
{
	const struct ap_race_options *o = arg;
	static struct race r;
	r.o = o;
	pthread_mutex_init(&r.lock, NULL);
	pthread_cond_init(&r.cond, NULL);
	r.pause = true;
	prctl(PR_SET_NAME, "acctpin");
	struct ap_workspace *ws = (struct ap_workspace *)&o->ws;
	if (ap_workspace_open(ws) < 0 || ap_scratch_new(ws, "race", &r.base) < 0 ||
	    ap_make_dir(r.base.dir, "cycle", r.cycle_mnt) < 0) {
		ap_report_failure();
		ap_workspace_close(ws);
		return 1;
	}
	pthread_t threads[65];
	unsigned started = 0;
	for (; started <= o->threads; started++) {
		pthread_mutex_lock(&r.lock);
		r.workers++;
		pthread_mutex_unlock(&r.lock);
		if (pthread_create(&threads[started], NULL,
				   started == o->threads ? toggle_thread : marker_thread, &r) != 0) {
			pthread_mutex_lock(&r.lock);
			r.workers--;
			pthread_mutex_unlock(&r.lock);
			break;
		}
	}
	bool ok = started == o->threads + 1;
	pause_workers(&r);
	uint64_t t0 = lsp_now_ns();
	for (unsigned long n = 0; ok && !ap_interrupted && (!o->iterations || n < o->iterations);
	     n++) {
		if (lsp_now_ns() - t0 >= (uint64_t)o->seconds * 1000000000u)
			break;
		int rc = cycle(&r, n);
		if (rc < 0)
			ap_report_failure();
		ok = rc == 0 && !r.failed;
	}
	resume_workers(&r, true);
	for (unsigned i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	ap_acct(NULL);
	ap_scratch_release(&r.base);
	ap_workspace_close(ws);
	free(r.mk);
	if (ap_interrupted)
		return 1;
	ok = ok && !r.lost && !r.torn && !r.stray && !r.after_off && r.cycles > 0 &&
	     !ap_cleanup_failed;
	int printed = print_counts(&r, ok, o->json);
	return ok && !printed ? 0 : 1;
}
