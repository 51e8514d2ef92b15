/* SPDX-License-Identifier: GPL-2.0-or-later */
/* acctpin: BSD process accounting versus unmount.  Declarations shared by
 * the files of the tool (record decoding, scratch filesystems, markers,
 * scenarios, race, report). */
#ifndef SPLICE_UTILS_ACCTPIN_H
#define SPLICE_UTILS_ACCTPIN_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* ---- acct_v3 records (record.c) ---- */

/* Size of one struct acct_v3 record in the file. */
#define AP_RECORD_SIZE 64

/* One decoded struct acct_v3 (comp_t fields expanded to integers). */
struct ap_record {
	unsigned flags;     /* AFORK, ASU, ACOMPAT, ACORE, AXSIG */
	unsigned version;   /* 3 */
	unsigned tty;       /* old 16-bit dev_t: major << 8 | minor */
	uint32_t exitcode;  /* raw: status << 8, or the signal number */
	uint32_t uid, gid, pid, ppid;
	uint32_t btime;     /* seconds since the epoch */
	float etime;        /* elapsed time in AHZ ticks (an IEEE float in v3) */
	uint64_t utime, stime, mem, io, rw, minflt, majflt, swaps;
	char comm[17];
};

/* Expand a comp_t: 13-bit mantissa, 3-bit base-8 exponent. */
uint64_t ap_comp_decode(uint16_t c);

/* Decode one 64-byte record in the host's byte order.  Returns 0, or
 * -EINVAL with a reason (without the offset) in why: another version, the
 * other byte order, unknown flag bits or a command name that is not a
 * NUL-terminated, NUL-padded string. */
int ap_record_decode(const unsigned char raw[AP_RECORD_SIZE], struct ap_record *rec,
		     char *why, size_t why_size);

/* Read the record at *offset from f (positioned there) and advance *offset.
 * Returns 1 with *rec set, 0 at a clean end of file, or a negative errno
 * with a message naming the byte offset in msg (-EINVAL: a truncated or
 * bad record; a read error's errno). */
int ap_record_read(FILE *f, uint64_t *offset, struct ap_record *rec, char *msg, size_t msg_size);

/* The records of one accounting file, as read by ap_records_load. */
struct ap_records {
	struct ap_record *v;
	size_t n;
	bool damaged;       /* a truncated or invalid record ended the read */
	char error[160];    /* why, naming the byte offset */
};

/* Load every record of path from byte base on (at most max records).
 * Returns 0 (a damaged file sets damaged and error), or -errno when the
 * file cannot be opened or memory runs out. */
int ap_records_load(const char *path, uint64_t base, size_t max, struct ap_records *out);

/* Free what ap_records_load allocated. */
void ap_records_free(struct ap_records *r);

/* Index of the record with this pid and comm, or -1. */
long ap_records_find(const struct ap_records *r, uint32_t pid, const char *comm);

/* ---- dump (dump.c) ---- */

/* Print the records of files (NULL-terminated; "-" is standard input) as
 * dump-acct does, or as JSON.  Returns 0, or 1 after reported errors. */
int ap_dump(char *const *files, bool json);

/* ---- the sandbox: namespaces, signals, watchdog (sandbox.c) ---- */

/* Exit status when the needed privileges are missing. */
#define AP_EXIT_SKIP 77

/* Set by the SIGINT/SIGTERM/SIGHUP handler: stop, clean up and exit. */
extern volatile sig_atomic_t ap_interrupted;

/* Set when cleaning up failed (after a message): the run then fails. */
extern bool ap_cleanup_failed;

/* State shared between the outer process and the sandbox (MAP_SHARED). */
struct ap_shared {
	volatile unsigned long progress;  /* bumped on every step, for the watchdog */
	char stage[96];                   /* what the sandbox is doing */
	volatile int sysctl_changed;      /* /proc/sys/kernel/acct differs from sysctl_saved */
	char sysctl_saved[64];
	char tempdir[PATH_MAX];           /* host temporary directory (empty after the run) */
	char subdir[PATH_MAX];            /* our directory inside a caller's --dir, if any */
	char owner[128];                  /* the owner file's text (stale.c) for this run */
};

/* The shared state, once ap_sandbox_run has set it up. */
extern struct ap_shared *ap_shared;

/* The accounting sysctl, and the fd the outer process opened on it (read
 * and write) for the sandbox to lock and change; -1 when it cannot. */
#define AP_SYSCTL "/proc/sys/kernel/acct"
extern int ap_sysctl_fd;

/* Note what the sandbox is doing now (for a hang report). */
void ap_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Whether the process has CAP_SYS_ADMIN and CAP_SYS_PACCT in its effective set. */
bool ap_have_privileges(void);

/* Run body(arg) as init of a new PID namespace with its own mount namespace
 * (falling back to the current ones where the kernel refuses), with a
 * watchdog that reports a hang after hang_seconds without progress and
 * signals forwarded.  First remove what killed runs left in $TMPDIR and in
 * also_sweep (the --dir DIR, or NULL).  Returns body's exit status, 1
 * after a hang or a setup failure; after SIGINT/SIGTERM it re-raises the
 * signal. */
int ap_sandbox_run(int (*body)(void *), void *arg, unsigned hang_seconds,
		   const char *also_sweep);

/* Sleep for ms milliseconds unless interrupted.  Returns false when interrupted. */
bool ap_sleep_ms(unsigned ms);

/* ---- directories of runs that were killed (stale.c) ---- */

/* The file in each directory acctpin makes that names the run it is for. */
#define AP_OWNER_FILE ".acctpin-owner"

/* The owner file's text for this process (its pid, start time, boot and
 * PID namespace) into buf.  Returns 0 or a negative errno. */
int ap_owner_text(char *buf, size_t size);

/* Create the owner file in dir (which this run just made) holding text;
 * an empty text (the owner could not be told) makes none.  Returns 0, or a
 * negative errno (ap_report_failure() says why). */
int ap_owner_write(const char *dir, const char *text);

/* Remove the directories acctpin.* in parent that runs of this user left
 * when they were killed: with an owner file naming a process that is gone
 * (of this boot and PID namespace, or of an earlier boot); self is this
 * run's owner text (empty: remove nothing).  Another user's, one whose
 * process still runs, one without the file are left alone.  Each removal,
 * or failure to remove, is a note on stderr; none fails the run. */
void ap_sweep_stale(const char *parent, const char *self);

/* ---- scratch filesystems (scratch.c) ---- */

/* Failures, as doc/design.md's convention says: a helper prints nothing.
 * One that fails returns the negative errno of the failure (a refused
 * --dir or TMPDIR: -ELOOP for a symbolic link, -ENOTDIR, -EPERM for other
 * users' reach; a failed mkfs.ext4: -EIO) and leaves, through ap_fail(),
 * what failed in GNU's words (the message names the path); a helper that
 * calls another passes its errno on.  The caller that decides the run's
 * outcome reports it with ap_report_failure().  None returns -1.  The
 * functions that clean up (ap_workspace_close(), ap_scratch_release(),
 * ap_remove_our_dir()) report themselves and set ap_cleanup_failed. */

/* Record the failure fmt describes, ending with strerror(shown) unless
 * shown is 0, for this thread's next ap_report_failure(); returns rc.  A
 * later failure replaces it. */
int ap_fail(int rc, int shown, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Print the failure a helper recorded ("acctpin: ..."), once; nothing when
 * the helper left none (a failure that never had a message). */
void ap_report_failure(void);

enum ap_fs_kind { AP_FS_TMPFS, AP_FS_EXT4, AP_FS_EXISTING };

/* Where the scratch filesystems live: a private tmpfs on the temporary
 * directory (mounted in the sandbox's mount namespace only). */
struct ap_workspace {
	enum ap_fs_kind kind;
	const char *existing;      /* --dir DIR */
	uint64_t size;             /* bytes per scratch filesystem */
	char root[PATH_MAX];
	bool private_ns;           /* we have our own mount namespace */
	unsigned serial;
};

/* Mount the workspace on ap_shared->tempdir (and, with --dir, create our
 * own directory in DIR).  Returns 0, or a negative errno (ap_report_failure() says why). */
int ap_workspace_open(struct ap_workspace *ws);

/* Unmount everything below the workspace and remove our files.  Safe to call
 * more than once and after a partial ap_workspace_open.  A failure is
 * reported and sets ap_cleanup_failed. */
void ap_workspace_close(struct ap_workspace *ws);

/* A scratch filesystem: mounted at mnt, with a second private mount of it
 * at keep through which the files stay readable after mnt goes. */
struct ap_scratch {
	char mnt[PATH_MAX];
	char keep[PATH_MAX];
	char dir[PATH_MAX];        /* the scenario's own directory in the workspace */
};

/* Create a fresh scratch filesystem (tmpfs, ext4 on a loop device, or a bind
 * mount of our directory in --dir) for one scenario.  name labels the
 * directory.  Returns 0, or a negative errno (ap_report_failure() says why). */
int ap_scratch_new(struct ap_workspace *ws, const char *name, struct ap_scratch *s);

/* Unmount what is left of a scratch filesystem (lazily, recursively).  A
 * failure is reported and sets ap_cleanup_failed. */
void ap_scratch_release(struct ap_scratch *s);

/* Remove dir, a directory acctpin made, with everything in it (symbolic
 * links are removed, never followed); a failure other than "already gone"
 * is reported and sets ap_cleanup_failed. */
void ap_remove_our_dir(const char *dir);

/* Whether acctpin may make its own directory in dir, which it reaches by
 * name later ($TMPDIR, --dir): a directory (not a symbolic link, which
 * whoever can write its own directory could repoint) owned by root or
 * the caller and not writable by other users unless sticky, so that no
 * other user can swap acctpin's directory there for a symbolic link.
 * Only dir itself is checked, not the directories above it.  what names
 * dir in messages ("TMPDIR=/x", or NULL: dir itself).  Returns 0, or a
 * negative errno (ap_report_failure() says why). */
int ap_check_dir(const char *what, const char *dir);

/* Write dir/name to out.  Returns 0, or -ENAMETOOLONG (ap_report_failure() says why). */
int ap_path(char out[PATH_MAX], const char *dir, const char *name);

/* mkdir dir/name (0700) and write the path to out.  Returns 0, or a
 * negative errno (ap_report_failure() says why). */
int ap_make_dir(const char *dir, const char *name, char out[PATH_MAX]);

/* Bind-mount from onto a new directory dir/name (written to out), private.
 * Returns 0, or a negative errno (ap_report_failure() says why). */
int ap_bind(const char *from, const char *dir, const char *name, char out[PATH_MAX]);

/* Create dir/name as a new, empty accounting file (O_CREAT|O_EXCL|
 * O_NOFOLLOW, mode 0600) and write its path to out.  Returns 0, or a negative
 * errno (ap_report_failure() says why); never opens a file that already exists. */
int ap_acct_file_new(const char *dir, const char *name, char out[PATH_MAX]);

/* Turn accounting on to path (a file ap_acct_file_new made) or off (NULL).
 * Returns 0 or -errno. */
int ap_acct(const char *path);

/* ---- a foreign accounting file (foreign.c) ---- */

/* Open path, an accounting file acctpin did not create, for run
 * --acct-file: refused unless allowed (--allow-foreign); never follows a
 * symbolic link; must be a regular file.  Returns a read-only fd, or a
 * negative errno (ap_report_failure() says why) (-EPERM: not allowed). */
int ap_foreign_open(const char *path, bool allowed);

/* In the sandbox's mount namespace: open path again and make sure it is
 * still the file open on *fd, which the new fd replaces.  Returns 0, or a
 * negative errno (ap_report_failure() says why) (-ESTALE: the file was replaced; -EBADF:
 * no longer a regular file; or what opening it again failed with). */
int ap_foreign_reopen(const char *path, int *fd);

/* The current size of the file fd.  Returns 0 or -errno. */
int ap_foreign_size(int fd, uint64_t *size);

/* Create dir/name as an empty placeholder (see ap_acct_file_new) and
 * bind-mount the file open on fd over it, privately; the path goes to out.
 * Unmounting out takes the file's mount away.  Returns 0, or a negative
 * errno (ap_report_failure() says why). */
int ap_acct_file_foreign(int fd, const char *dir, const char *name, char out[PATH_MAX]);

/* ---- free space and the accounting thresholds (space.c) ---- */

/* The /proc/sys/kernel/acct values in force, and the locked fd through
 * which acctpin changed the check period (-1 when it did not). */
struct ap_thresholds {
	int resume, suspend, period;
	int fd;
};

/* Lock /proc/sys/kernel/acct (ap_sysctl_fd) against other acctpin runs, remember its
 * values (also in ap_shared, so the outer process can restore them) and
 * set the check period to period seconds.  Returns 0 or -errno. */
int ap_thresholds_shorten(struct ap_thresholds *t, int period);

/* Put the remembered values back and unlock.  Returns 0 or -errno (reported). */
int ap_thresholds_restore(struct ap_thresholds *t);

/* Blocks of a filesystem as statfs(2) and the kernel's check see them. */
struct ap_space {
	uint64_t blocks, avail, bsize;
};

/* statfs path.  Returns 0 or -errno. */
int ap_space(const char *path, struct ap_space *sp);

/* Available blocks as a percentage of all blocks. */
double ap_space_percent(const struct ap_space *sp);

/* Grow or shrink the filler file fd until the filesystem holding path has
 * about want_avail blocks available.  Returns 0 or -errno. */
int ap_fill_to(int fd, const char *path, uint64_t want_avail);

/* ---- marker processes (marker.c) ---- */

/* A child process that exits at once (or when its gate closes) with a
 * known name and a known exit code or signal. */
struct ap_marker {
	pid_t pid;
	char name[16];
	int code;           /* >= 0: _exit(code); < 0: killed by signal -code */
};

/* The raw ac_exitcode and ac_flag that a marker's record must carry. */
uint32_t ap_marker_exitcode(const struct ap_marker *m);
unsigned ap_marker_flags(const struct ap_marker *m);

/* Fork a marker named name exiting with code (see struct ap_marker).  With
 * a gate (a pipe's two fds) the child first waits for end of file on it.
 * Returns 0 or -errno. */
int ap_marker_start(struct ap_marker *m, const char *name, int code, const int *gate);

/* Wait for a started marker.  Returns 0 or -errno; a marker that did not
 * end as planned is -EPROTO. */
int ap_marker_reap(struct ap_marker *m);

/* Whether record rec is the one marker m must have written. */
bool ap_marker_matches(const struct ap_marker *m, const struct ap_record *rec, pid_t parent);

/* ---- report (report.c) ---- */

/* One check's outcome. */
struct ap_check {
	char scenario[24];
	char name[24];
	bool ok;
	bool skipped;
	char detail[200];
};

/* All the checks of a run, in order, and the per-scenario summary. */
struct ap_report {
	bool json;
	struct ap_check *checks;
	size_t n, cap;
	unsigned failed;
};

/* Record a check and, without --json, print its TAP line at once.  Returns ok. */
bool ap_check(struct ap_report *r, const char *scenario, const char *name, bool ok,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Record a skipped scenario (TAP "ok N - ... # SKIP reason"). */
void ap_skip(struct ap_report *r, const char *scenario, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

struct json_object;

/* Print the summary: the TAP plan and a table, or the whole JSON document
 * (header's members first; header is consumed, NULL after a failed
 * allocation).  Returns 0, or 1 after reporting that the JSON could not be
 * printed. */
int ap_report_finish(struct ap_report *r, struct json_object *header);

/* Free the checks. */
void ap_report_free(struct ap_report *r);


/* ---- run and race (scenario.c, race.c) ---- */

enum ap_expect { AP_EXPECT_LINUX, AP_EXPECT_BSD };

struct ap_run_options {
	struct ap_workspace ws;
	enum ap_expect expect;
	bool json;
	unsigned long scenarios;   /* bit i: scenario i was asked for */
	const char *foreign;       /* --acct-file FILE (with --allow-foreign), or NULL */
	int foreign_fd;            /* FILE, open read-only; -1 without --acct-file */
};

/* Names of the scenarios, in the order they run; NULL-terminated. */
extern const char *const ap_scenario_names[];

/* The body of acctpin run inside the sandbox: arg is a struct ap_run_options. */
int ap_run_body(void *arg);

struct ap_race_options {
	struct ap_workspace ws;
	unsigned threads;
	unsigned seconds;
	unsigned long iterations;  /* 0: as many as fit in seconds */
	bool json;
};

/* The body of acctpin race inside the sandbox: arg is a struct ap_race_options. */
int ap_race_body(void *arg);

#endif
