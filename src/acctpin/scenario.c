/* SPDX-License-Identifier: GPL-2.0-or-later */
/* acctpin run: the scenarios.  Each one makes its own scratch filesystem,
 * turns accounting on to a new file there, runs marker processes, plays
 * its action (an unmount of some kind), then checks the file. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "acctpin.h"
#include "jsondoc.h"
#include "quote.h"

const char *const ap_scenario_names[] = {
	"plain", "lazy", "bind", "remount-ro", "exiting", "nearly-full", "switch", NULL
};

enum {
	MAX_MARKERS = 48,
	MAX_RECORDS = 4096,
	RACING_MARKERS = 8,
	CHECK_PERIOD = 1,      /* seconds, /proc/sys/kernel/acct's third value */
	PERIOD_WAIT_MS = 1300, /* a little more than CHECK_PERIOD */
};

/* Our own process name while it does nothing special, and while it plays
 * the scenario's action or switches accounting off: the kernel's record
 * at unmount time carries it. */
#define NAME_IDLE "acctpin"
#define NAME_OFF "acctpin-off"
#define NAME_SWITCH "acctpin-switch"

/* What a marker's record should be: there, absent, or either (it raced). */
enum want { WANT_RECORD, WANT_NONE, WANT_EITHER };

/* One scenario while it plays. */
struct scen {
	const char *name;
	const struct ap_run_options *o;
	struct ap_report *rep;
	struct ap_workspace *ws;
	struct ap_scratch s, s2;
	char file[PATH_MAX];      /* the accounting file, as acct() was given it */
	char reader[PATH_MAX];    /* the same file through a mount that stays */
	uint64_t base;            /* where this scenario's records start in it */
	char reader2[PATH_MAX];   /* switch: the second file */
	char target[PATH_MAX];    /* what the action unmounts */
	char action_name[16];
	int action_err;           /* errno of the action, 0 for success */
	struct ap_marker m[MAX_MARKERS];
	enum want want[MAX_MARKERS];
	int file_of[MAX_MARKERS]; /* 1 or 2: which file the record should go to */
	size_t nm;
	size_t post;              /* the marker run after the action */
	bool setup_failed;
};

/* Set our process name (the comm in the kernel's records). */
static void set_name(const char *name)
{
	prctl(PR_SET_NAME, name);
}

/* Start and reap n markers wanted as w in file 1 or 2; with a gate they
 * wait for it and are not reaped here.  Returns the index of the first, or
 * a negative errno after a failed check. */
static long markers(struct scen *sc, size_t n, enum want w, int file, const int *gate)
{
	static const int codes[] = { 0, 1, 3, 42, 255, -SIGUSR1, -SIGTERM };
	if (sc->nm + n > MAX_MARKERS) {
		ap_check(sc->rep, sc->name, "marker", false, "more than %d markers", MAX_MARKERS);
		return -E2BIG;
	}
	long first = (long)sc->nm;
	for (size_t i = 0; i < n; i++) {
		size_t k = sc->nm;
		char name[16];
		snprintf(name, sizeof name, "apm-%.6s-%zu", sc->name, k);
		int code = codes[k % (sizeof codes / sizeof *codes)];
		int rc = ap_marker_start(&sc->m[k], name, code, gate);
		if (rc == 0 && !gate)
			rc = ap_marker_reap(&sc->m[k]);
		if (rc < 0) {
			ap_check(sc->rep, sc->name, "marker", false, "marker %s: %s", name,
				 strerror(-rc));
			return rc;
		}
		sc->want[k] = w;
		sc->file_of[k] = file;
		sc->nm++;
	}
	ap_progress("%s: %zu markers", sc->name, sc->nm);
	return first;
}

/* Whether marker k has its record in r. */
static bool has_record(const struct scen *sc, size_t k, const struct ap_records *r)
{
	long i = ap_records_find(r, (uint32_t)sc->m[k].pid, sc->m[k].name);
	return i >= 0 && ap_marker_matches(&sc->m[k], &r->v[i], getpid());
}

/* Whether rec is one of ours: a marker's or one the kernel wrote for this
 * process when accounting was switched away from the file. */
static bool known_record(const struct scen *sc, const struct ap_record *rec)
{
	for (size_t k = 0; k < sc->nm; k++)
		if (ap_marker_matches(&sc->m[k], rec, getpid()))
			return true;
	return rec->pid == (uint32_t)getpid() &&
	       (!strcmp(rec->comm, sc->action_name) || !strcmp(rec->comm, NAME_OFF) ||
		!strcmp(rec->comm, NAME_SWITCH));
}

/* Check that every record of r is whole, valid and ours. */
static void check_records(struct scen *sc, const struct ap_records *r, const char *which,
			  const char *path)
{
	if (r->damaged) {
		ap_check(sc->rep, sc->name, "records", false, "%s %s: %s", which, path, r->error);
		return;
	}
	for (size_t i = 0; i < r->n; i++)
		if (!known_record(sc, &r->v[i])) {
			ap_check(sc->rep, sc->name, "records", false,
				 "%s: record %zu (pid %u, %s, exit code %u) matches no marker",
				 which, i, r->v[i].pid, r->v[i].comm, r->v[i].exitcode);
			return;
		}
	ap_check(sc->rep, sc->name, "records", true, "%s: %zu whole acct_v3 records, all "
		 "matching markers or acctpin", which, r->n);
}

/* Check the markers wanted in file (1 or 2) against its records: the ones
 * wanted there are, the ones wanted gone are not.  check names the check;
 * only markers first..last-1 count. */
static void check_markers(struct scen *sc, const struct ap_records *r, int file,
			  const char *check, size_t first, size_t last)
{
	size_t wanted = 0, found = 0, unwanted = 0, absent = 0;
	const char *bad = NULL;
	for (size_t k = first; k < last && k < sc->nm; k++) {
		if (sc->file_of[k] != file || sc->want[k] == WANT_EITHER)
			continue;
		bool here = has_record(sc, k, r);
		if (sc->want[k] == WANT_RECORD) {
			wanted++;
			found += here;
			if (!here && !bad)
				bad = sc->m[k].name;
		} else {
			unwanted++;
			absent += !here;
			if (here && !bad)
				bad = sc->m[k].name;
		}
	}
	ap_check(sc->rep, sc->name, check, !bad,
		 "%zu of %zu markers recorded, %zu of %zu left out, as expected%s%s",
		 found, wanted, absent, unwanted, bad ? "; first wrong: " : "", bad ? bad : "");
}

/* The name of an errno value for the report ("0" for none). */
static const char *err_name(int err)
{
	switch (err) {
	case 0: return "0";
	case EBUSY: return "EBUSY";
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	default: return strerror(err);
	}
}

/* How messages name the first accounting file: the caller's name for
 * --acct-file's, not the /proc/self/fd/N it is read through. */
static const char *shown(const struct scen *sc)
{
	return sc->o->foreign_fd >= 0 ? sc->o->foreign : sc->reader;
}

/* The checks every scenario makes on its first file, after the action. */
static void judge(struct scen *sc, int linux_err, int bsd_err, bool bsd_still_on)
{
	bool bsd = sc->o->expect == AP_EXPECT_BSD;
	int want_err = bsd ? bsd_err : linux_err;
	ap_check(sc->rep, sc->name, "unmount", sc->action_err == want_err,
		 "%s returned %s (expected %s)", sc->target[0] ? sc->target : "action",
		 err_name(sc->action_err), err_name(want_err));
	struct ap_records r;
	int rc = ap_records_load(sc->reader, sc->base, MAX_RECORDS, &r);
	if (rc < 0) {
		ap_check(sc->rep, sc->name, "records", false, "%s: %s", shown(sc), strerror(-rc));
		return;
	}
	bool off_expected = !(bsd && bsd_still_on);
	bool post_here = sc->post < sc->nm && has_record(sc, sc->post, &r);
	ap_check(sc->rep, sc->name, "acct-off", post_here != off_expected,
		 "a marker run after it was %srecorded (accounting %s; expected %s)",
		 post_here ? "" : "not ", post_here ? "still on" : "off",
		 off_expected ? "off" : "on");
	check_records(sc, &r, "file", shown(sc));
	check_markers(sc, &r, 1, "missing", 0, sc->post);
	const struct ap_record *last = r.n ? &r.v[r.n - 1] : NULL;
	bool by_action = last && last->pid == (uint32_t)getpid() &&
			 !strcmp(last->comm, sc->action_name);
	long any = ap_records_find(&r, (uint32_t)getpid(), sc->action_name);
	if (!bsd)
		ap_check(sc->rep, sc->name, "last-record", by_action,
			 "last record: %s (pid %u, exit code %u), expected %s (pid %d)",
			 last ? last->comm : "none", last ? last->pid : 0,
			 last ? last->exitcode : 0, sc->action_name, (int)getpid());
	else
		ap_check(sc->rep, sc->name, "last-record", any < 0,
			 "%s record for %s at the action (expected none)",
			 any < 0 ? "no" : "a", sc->action_name);
	ap_records_free(&r);
}

/* Make the scratch filesystem and the accounting file: a new one, or
 * with --acct-file a mount of the caller's file, which is then what the
 * action takes away.  Returns 0, or a negative errno after a failed check. */
static int start(struct scen *sc)
{
	int fd = sc->o->foreign_fd;
	int rc = ap_scratch_new(sc->ws, sc->name, &sc->s);
	if (rc == 0)
		rc = fd < 0 ? ap_acct_file_new(sc->s.mnt, "pacct", sc->file)
			    : ap_acct_file_foreign(fd, sc->s.mnt, "pacct", sc->file);
	if (rc < 0) {
		ap_report_failure();
		ap_check(sc->rep, sc->name, "setup", false, "cannot make the scratch filesystem");
		return rc;
	}
	if (fd < 0) {
		snprintf(sc->target, sizeof sc->target, "%s", sc->s.mnt);
		rc = ap_path(sc->reader, sc->s.keep, "pacct");
		if (rc < 0)
			ap_report_failure();
		return rc;
	}
	rc = ap_foreign_size(fd, &sc->base);
	if (rc < 0) {
		ap_check(sc->rep, sc->name, "setup", false, "%s: %s", sc->o->foreign, strerror(-rc));
		return rc;
	}
	snprintf(sc->target, sizeof sc->target, "%s", sc->file);
	snprintf(sc->reader, sizeof sc->reader, "/proc/self/fd/%d", fd);
	return 0;
}

/* Whether the scenario cannot use --acct-file's file: then it is skipped
 * with the reason why. */
static bool no_foreign(struct scen *sc, const char *why)
{
	if (sc->o->foreign_fd < 0)
		return false;
	ap_skip(sc->rep, sc->name, "%s", why);
	return true;
}

/* Turn accounting on to sc->file.  Returns 0, or a negative errno after a
 * failed check. */
static int acct_on(struct scen *sc, const char *file)
{
	int rc = ap_acct(file);
	if (rc < 0) {
		ap_check(sc->rep, sc->name, "acct-on", false, "acct(%s): %s", file, strerror(-rc));
		return rc;
	}
	return 0;
}

/* Do the action: umount2(target, flags), or a read-only remount.  Records
 * its errno in sc->action_err. */
static void act(struct scen *sc, const char *name, int flags, bool remount)
{
	snprintf(sc->action_name, sizeof sc->action_name, "%s", name);
	ap_progress("%s: %s %s", sc->name, name, sc->target);
	set_name(name);
	int rc = remount ? mount(NULL, sc->target, NULL, MS_REMOUNT | MS_RDONLY, NULL)
			 : umount2(sc->target, flags);
	sc->action_err = rc < 0 ? errno : 0;
	set_name(NAME_IDLE);
}

/* After the action: a marker to see whether accounting is off, then
 * accounting off for good. */
static void finish(struct scen *sc, int post_file)
{
	long k = markers(sc, 1, WANT_EITHER, post_file, NULL);
	sc->post = k < 0 ? MAX_MARKERS : (size_t)k;
	set_name(NAME_OFF);
	ap_acct(NULL);
	set_name(NAME_IDLE);
}

/* plain, lazy, exiting: unmount the filesystem the file is on. */
static void play_unmount(struct scen *sc, int flags, bool racing)
{
	if (start(sc) < 0 || acct_on(sc, sc->file) < 0 || markers(sc, 5, WANT_RECORD, 1, NULL) < 0)
		return;
	int gate[2] = { -1, -1 };
	long racers = -1;
	if (racing) {
		if (pipe2(gate, O_CLOEXEC) < 0) {
			ap_check(sc->rep, sc->name, "setup", false, "pipe: %s", strerror(errno));
			return;
		}
		racers = markers(sc, RACING_MARKERS, WANT_EITHER, 1, gate);
		close(gate[0]);
		close(gate[1]);   /* they all exit now, while we unmount */
	}
	act(sc, flags & MNT_DETACH ? "acctpin-lazy" : "acctpin-umount", flags, false);
	size_t recorded = 0;
	if (racers >= 0) {
		for (size_t k = (size_t)racers; k < (size_t)racers + RACING_MARKERS; k++)
			if (ap_marker_reap(&sc->m[k]) < 0)
				ap_check(sc->rep, sc->name, "marker", false, "%s did not end as planned",
					 sc->m[k].name);
		struct ap_records r;
		if (ap_records_load(sc->reader, sc->base, MAX_RECORDS, &r) == 0) {
			for (size_t k = (size_t)racers; k < (size_t)racers + RACING_MARKERS; k++)
				recorded += has_record(sc, k, &r);
			ap_records_free(&r);
		}
	}
	finish(sc, 1);
	judge(sc, 0, flags & MNT_DETACH ? 0 : EBUSY, !(flags & MNT_DETACH));
	if (racing)
		ap_check(sc->rep, sc->name, "racing", true, "%zu of %d markers exiting during the "
			 "unmount were recorded (either is right)", recorded, RACING_MARKERS);
}

/* bind: unmount a bind mount of a subdirectory that holds the file while
 * the filesystem's first mount stays. */
static void play_bind(struct scen *sc)
{
	char sub[PATH_MAX], bind[PATH_MAX];
	if (no_foreign(sc, "with --acct-file, plain already unmounts a bind mount of the file"))
		return;
	if (ap_scratch_new(sc->ws, sc->name, &sc->s) < 0 ||
	    ap_make_dir(sc->s.mnt, "sub", sub) < 0 || ap_bind(sub, sc->s.dir, "bind", bind) < 0 ||
	    ap_acct_file_new(bind, "pacct", sc->file) < 0 || ap_path(sc->reader, sub, "pacct") < 0) {
		ap_report_failure();
		ap_check(sc->rep, sc->name, "setup", false, "cannot make the bind mount");
		return;
	}
	snprintf(sc->target, sizeof sc->target, "%s", bind);
	if (acct_on(sc, sc->file) < 0 || markers(sc, 5, WANT_RECORD, 1, NULL) < 0)
		return;
	act(sc, "acctpin-umount", 0, false);
	struct stat st;
	ap_check(sc->rep, sc->name, "original", stat(sc->reader, &st) == 0,
		 "the file is still there through the original mount: %s",
		 stat(sc->reader, &st) == 0 ? "yes" : strerror(errno));
	finish(sc, 1);
	judge(sc, 0, EBUSY, true);
}

/* remount-ro: remount the filesystem read-only. */
static void play_remount(struct scen *sc)
{
	if (sc->ws->kind == AP_FS_EXISTING) {
		ap_skip(sc->rep, sc->name, "would remount the caller's filesystem read-only");
		return;
	}
	if (no_foreign(sc, "would remount the --acct-file's filesystem read-only"))
		return;
	if (start(sc) < 0 || acct_on(sc, sc->file) < 0 || markers(sc, 5, WANT_RECORD, 1, NULL) < 0)
		return;
	act(sc, "acctpin-remount", 0, true);
	finish(sc, 1);
	judge(sc, 0, EBUSY, true);
}

/* nearly-full helpers: fill to a percentage of free space, wait for the
 * kernel's next check, run markers wanted as w.  Returns false after a
 * failed check. */
static bool fill_and_mark(struct scen *sc, int fd, double percent, size_t n, enum want w)
{
	struct ap_space sp = { 0, 0, 0 };
	int rc = ap_space(sc->s.mnt, &sp);
	uint64_t want = (uint64_t)((double)sp.blocks * percent / 100.0);
	if (rc == 0)
		rc = ap_fill_to(fd, sc->s.mnt, want);
	if (rc == 0)
		rc = ap_space(sc->s.mnt, &sp);
	if (rc < 0) {
		ap_check(sc->rep, sc->name, "fill", false, "cannot fill to %.1f%% free: %s",
			 percent, strerror(-rc));
		return false;
	}
	if (!sc->o->json)
		printf("# %s: %.2f%% free (%llu of %llu blocks)\n", sc->name, ap_space_percent(&sp),
		       (unsigned long long)sp.avail, (unsigned long long)sp.blocks);
	fflush(stdout);
	return ap_sleep_ms(PERIOD_WAIT_MS) && markers(sc, n, w, 1, NULL) >= 0;
}

/* nearly-full: writing pauses at <= suspend% free and resumes at >= resume%. */
static void play_nearly_full(struct scen *sc)
{
	if (no_foreign(sc, "would fill the --acct-file's filesystem") || start(sc) < 0)
		return;
	struct ap_space sp;
	if (ap_space(sc->s.mnt, &sp) < 0 || sp.blocks == 0 ||
	    (sc->ws->kind == AP_FS_EXISTING && sp.blocks * sp.bsize > (1ULL << 30))) {
		ap_skip(sc->rep, sc->name, "the filesystem reports no size or is larger than 1 GiB");
		return;
	}
	struct ap_thresholds t;
	int rc = ap_thresholds_shorten(&t, CHECK_PERIOD);
	if (rc < 0) {
		ap_skip(sc->rep, sc->name, "cannot shorten the check period in "
			"/proc/sys/kernel/acct: %s", strerror(-rc));
		return;
	}
	if (!sc->o->json)
		printf("# %s: kernel.acct: suspend at %d%% free, resume at %d%%, check period "
		       "%d s (1 s for now)\n", sc->name, t.suspend, t.resume, t.period);
	char filler[PATH_MAX];
	int fd = -1;
	if (ap_path(filler, sc->s.mnt, "filler") < 0)
		ap_report_failure();
	else
		fd = open(filler, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	size_t paused = 0, between = 0, resumed = 0;
	bool ok = fd >= 0 && acct_on(sc, sc->file) == 0 &&
		  markers(sc, 2, WANT_RECORD, 1, NULL) >= 0;
	if (ok) {
		paused = sc->nm;
		ok = fill_and_mark(sc, fd, t.suspend * 0.6, 2, WANT_NONE);
	}
	if (ok) {
		between = sc->nm;
		ok = fill_and_mark(sc, fd, (t.suspend + t.resume) / 2.0, 2, WANT_NONE);
	}
	if (ok) {
		resumed = sc->nm;
		ok = fill_and_mark(sc, fd, t.resume + 1.5, 2, WANT_RECORD);
	}
	if (fd >= 0)
		close(fd);
	if (ok) {
		act(sc, "acctpin-umount", 0, false);
		finish(sc, 1);
	} else {
		ap_acct(NULL);
	}
	ap_thresholds_restore(&t);
	if (!ok)
		return;
	judge(sc, 0, EBUSY, true);
	struct ap_records r;
	if (ap_records_load(sc->reader, 0, MAX_RECORDS, &r) < 0)
		return;
	check_markers(sc, &r, 1, "paused", paused, between);
	check_markers(sc, &r, 1, "still-paused", between, resumed);
	check_markers(sc, &r, 1, "resumed", resumed, sc->nm);
	ap_records_free(&r);
}

/* switch: turn accounting to a file on another filesystem, then unmount
 * the first. */
static void play_switch(struct scen *sc)
{
	char second[PATH_MAX];
	if (start(sc) < 0)
		return;
	if (ap_scratch_new(sc->ws, "switch2", &sc->s2) < 0 ||
	    ap_acct_file_new(sc->s2.mnt, "pacct2", second) < 0 ||
	    ap_path(sc->reader2, sc->s2.keep, "pacct2") < 0) {
		ap_report_failure();
		ap_check(sc->rep, sc->name, "setup", false, "cannot make the second filesystem");
		return;
	}
	if (acct_on(sc, sc->file) < 0 || markers(sc, 5, WANT_RECORD, 1, NULL) < 0)
		return;
	snprintf(sc->action_name, sizeof sc->action_name, "%s", NAME_SWITCH);
	set_name(NAME_SWITCH);
	int rc = ap_acct(second);
	set_name(NAME_IDLE);
	if (rc < 0) {
		ap_check(sc->rep, sc->name, "acct-on", false, "acct(%s): %s", second, strerror(-rc));
		ap_acct(NULL);
		return;
	}
	size_t moved = sc->nm;
	if (markers(sc, 3, WANT_RECORD, 2, NULL) < 0)
		return;
	char action[16];
	snprintf(action, sizeof action, "%s", sc->action_name);
	act(sc, "acctpin-umount", 0, false);
	snprintf(sc->action_name, sizeof sc->action_name, "%s", action);
	finish(sc, 2);
	sc->want[sc->post] = WANT_RECORD;
	judge(sc, 0, 0, false);
	struct ap_records r;
	if (ap_records_load(sc->reader2, 0, MAX_RECORDS, &r) < 0) {
		ap_check(sc->rep, sc->name, "moved", false, "cannot read %s", sc->reader2);
		return;
	}
	check_records(sc, &r, "second file", sc->reader2);
	check_markers(sc, &r, 2, "moved", moved, sc->nm);
	ap_records_free(&r);
}

/* Play scenario number i and release what it made. */
static void play(struct ap_run_options *o, struct ap_report *rep, size_t i)
{
	static struct scen sc;
	memset(&sc, 0, sizeof sc);
	sc.name = ap_scenario_names[i];
	sc.o = o;
	sc.rep = rep;
	sc.ws = &o->ws;
	sc.post = MAX_MARKERS;
	ap_progress("%s: setting up", sc.name);
	if (!strcmp(sc.name, "plain"))
		play_unmount(&sc, 0, false);
	else if (!strcmp(sc.name, "lazy"))
		play_unmount(&sc, MNT_DETACH, false);
	else if (!strcmp(sc.name, "bind"))
		play_bind(&sc);
	else if (!strcmp(sc.name, "remount-ro"))
		play_remount(&sc);
	else if (!strcmp(sc.name, "exiting"))
		play_unmount(&sc, 0, true);
	else if (!strcmp(sc.name, "nearly-full"))
		play_nearly_full(&sc);
	else
		play_switch(&sc);
	ap_acct(NULL);
	ap_scratch_release(&sc.s2);
	ap_scratch_release(&sc.s);
}

int ap_run_body(void *arg)
{
	struct ap_run_options *o = arg;
	struct ap_report rep = { .json = o->json };
	set_name(NAME_IDLE);
	if (ap_workspace_open(&o->ws) < 0 ||
	    (o->foreign && ap_foreign_reopen(o->foreign, &o->foreign_fd) < 0)) {
		ap_report_failure();
		ap_workspace_close(&o->ws);
		return 1;
	}
	static const char *const fs_names[] = { "tmpfs", "ext4", "existing" };
	struct utsname u;
	uname(&u);
	if (!o->json)
		printf("# acctpin run: Linux %s, %s%s%s, expecting %s semantics, pid %d in its own "
		       "PID namespace\n", u.release, fs_names[o->ws.kind],
		       o->ws.existing ? " at " : "", o->ws.existing ? o->ws.existing : "",
		       o->expect == AP_EXPECT_BSD ? "BSD" : "Linux", (int)getpid());
	if (!o->json && o->foreign)
		printf("# accounting to %s (--allow-foreign), through a bind mount of it\n",
		       cli_quote(o->foreign));
	for (size_t i = 0; ap_scenario_names[i] && !ap_interrupted; i++)
		if (o->scenarios & (1ul << i))
			play(o, &rep, i);
	ap_workspace_close(&o->ws);
	if (ap_interrupted) {
		if (!o->json)
			printf("# interrupted by signal %d; cleaned up\n", (int)ap_interrupted);
		ap_report_free(&rep);
		return 1;
	}
	struct json_object *header = json_object_new_object();
	int rc = cli_json_add_text(header, "command", "run");
	rc |= cli_json_add_text(header, "kernel", u.release);
	rc |= cli_json_add_text(header, "fs", fs_names[o->ws.kind]);
	rc |= cli_json_add_text(header, "expect", o->expect == AP_EXPECT_BSD ? "bsd" : "linux");
	if (o->foreign)
		rc |= cli_json_add_text(header, "acct_file", o->foreign);
	if (rc) {
		json_object_put(header);
		header = NULL;
	}
	int printed = ap_report_finish(&rep, header);
	int status = rep.failed || ap_cleanup_failed || printed ? 1 : 0;
	ap_report_free(&rep);
	return status;
}
