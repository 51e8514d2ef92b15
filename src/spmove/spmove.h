/* spmove: copy and move files through splice(2) -- what its parts share. */
#ifndef SPMOVE_H
#define SPMOVE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "libsplice.h"

enum overwrite { OVERWRITE_YES, OVERWRITE_NO, OVERWRITE_ASK };
enum sparse_mode { SPARSE_AUTO, SPARSE_ALWAYS, SPARSE_NEVER };

struct spmove_options {
	enum sp_path path;         /* --method (SP_PATH_NONE for auto) */
	enum overwrite overwrite;  /* -f (the default), -n, -i */
	bool recursive;            /* -r */
	bool remove_source;        /* --remove-source: mv */
	bool in_place;             /* --in-place: write DST directly */
	bool fsync;                /* --fsync */
	bool verify;               /* --verify */
	bool preserve_mode, preserve_owner, preserve_times;
	enum sparse_mode sparse;
	int progress;              /* 1 always, 0 never, -1 when stderr is a tty */
	bool stats;
};

/* What one run of spmove carries from operand to operand. */
struct spmove {
	const struct spmove_options *o;
	struct sp_mover *mover;
	mode_t umask;
	unsigned methods_used;     /* bit (1 << enum sp_path) per path taken */
	struct progress *progress; /* NULL without a progress bar */
};

/* ---- operands.c ---- */

/* Copy (or move) the operands args[0..n-1]: SRC DST, SRC... DIR, or with
 * target_dir (-t DIR) SRC...  Returns the exit status (1 after reported
 * errors, also for missing operands). */
int run_operands(struct spmove *s, char **args, int n, const char *target_dir);

/* ---- spmove-report.c ---- */

/* Print "spmove: 'SRC' -> 'DST': MESSAGE[: strerror(err)]" on stderr. */
void report(const char *src, const char *dst, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* name in single quotes (escaped as coreutils does) for messages. */
const char *quoted(const char *name);

/* Ask "spmove: overwrite 'DST'? " on stderr; true for an answer starting with y. */
bool ask_overwrite(const char *dst);

/* ---- spmove-preserve.c ---- */

/* Apply --preserve's LIST to o: comma-separated words mode, ownership,
 * timestamps and all (the three); empty words are ignored, and a NULL list
 * (--preserve alone, -p) means all.  Only sets flags, never clears them.
 * Returns 0, or -1 for an unknown word, with o unchanged and the first
 * unknown word at list + *bad, *bad_len bytes long. */
int preserve_list(struct spmove_options *o, const char *list, size_t *bad, size_t *bad_len);

/* ---- spmove-signal.c ---- */

/* Set by SIGINT, SIGTERM and SIGHUP; libsplice stops with -ECANCELED. */
extern volatile sig_atomic_t spmove_cancel;

/* Install the handlers that only set spmove_cancel. */
void signals_catch(void);

/* After cleanup: end the process by the signal that cancelled it, if any. */
void signals_reraise(void);

/* ---- spmove-copy.c ---- */

/*
 * Copy (or with --remove-source, move) the file src to dst.  st is src's
 * lstat (NULL for "-", standard input).  Returns 0, or 1 after a reported
 * error; dst is left as it was on failure.
 */
int copy_file(struct spmove *s, const char *src, const char *dst, const struct stat *st);

/* The mode a new copy of a file with mode src_mode gets (cp's rules). */
mode_t new_file_mode(const struct spmove *s, mode_t src_mode);

/* Apply -p's timestamps/ownership (and mode) of st to fd; for a symlink
 * (fd < 0) to dirfd/name.  Returns 0 or an errno value. */
int preserve_attributes(const struct spmove *s, int fd, int dirfd, const char *name,
			const struct stat *st);

/* ---- spmove-data.c ---- */

/*
 * Copy the data of in (size bytes, or the whole stream when !regular) to
 * out from their starts, keeping holes as --sparse says.  Returns 0 or a
 * negative errno; *side tells which side was at fault (SP_SIDE_NONE: the
 * copy between them).
 */
int copy_data(struct spmove *s, int in, int out, const struct stat *in_st,
	      enum sp_side *side);

/* ---- spmove-tree.c ---- */

/* Copy the directory tree src to dst (-r).  Returns 0 or 1 after reported errors. */
int copy_tree(struct spmove *s, const char *src, const char *dst, const struct stat *st);

/* Remove the tree at path after a successful copy across filesystems.
 * Returns 0 or 1 after a reported error. */
int remove_tree(const char *path, const char *dst);

/* ---- spmove-progress.c ---- */

struct progress;

/* A progress bar on stderr for files of at least threshold bytes
 * (0: every file).  Returns NULL when out of memory. */
struct progress *progress_new(uint64_t threshold);
void progress_free(struct progress *p);

/* Begin a file of total bytes (0 when unknown); now is the mover's totals. */
void progress_begin(struct progress *p, uint64_t total, const struct sp_stats *now);

/* End the current file's bar (clears it from the line). */
void progress_end(struct progress *p);

/* The libsplice progress callback; arg is the struct progress. */
int progress_update(const struct sp_stats *stats, void *arg);

/* ---- spmove-stealfs.c ---- */

/* Page counters of the stealfs module, when it is loaded. */
struct stealfs_counts {
	bool present;
	uint64_t stolen;  /* stolen_anon + stolen_pagecache */
	uint64_t copied;
};

/* Read the counters; present is false when the module's sysfs files are absent. */
void stealfs_read(struct stealfs_counts *c);

/* Whether path is on a stealfs mount. */
bool stealfs_mount(const char *path);

/* ---- spmove-probe.c ---- */

/* Measure and print what this kernel does in dir.  Returns an exit status. */
int probe(const char *dir);

#endif
