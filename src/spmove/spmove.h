/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove: copy and move files through splice(2) -- what its parts share. */
#ifndef SPMOVE_H
#define SPMOVE_H

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "argmatch.h"
#include "libsplice.h"
#include "progress.h"

/* Which symbolic links in the sources are followed (-P, -H, -L). */
enum deref { DEREF_UNSET, DEREF_NEVER, DEREF_ARGS, DEREF_ALWAYS };

/* Which existing destinations are replaced (--update=WHICH; -n is none). */
enum update { UPDATE_ALL, UPDATE_NONE, UPDATE_NONE_FAIL, UPDATE_OLDER };

/* -f, -i and -n as the last one given says (-f only counts in move mode). */
enum ask { ASK_UNSET, ASK_NEVER, ASK_USER, ASK_SKIP };

/* --backup=CONTROL. */
enum backup { BACKUP_NONE, BACKUP_SIMPLE, BACKUP_EXISTING, BACKUP_NUMBERED };

/* --reflink=WHEN. */
enum reflink { REFLINK_AUTO, REFLINK_ALWAYS, REFLINK_NEVER };

enum sparse_mode { SPARSE_AUTO, SPARSE_ALWAYS, SPARSE_NEVER };

/* The attributes --preserve names, as bits. */
enum keep {
	KEEP_MODE = 1,
	KEEP_OWNER = 2,
	KEEP_TIMES = 4,
	KEEP_LINKS = 8,
	KEEP_XATTR = 16,
	KEEP_CONTEXT = 32,
	KEEP_ALL = 31, /* all: context only where possible, so not here */
};

struct spmove_options {
	enum sp_path path;         /* --method (SP_PATH_NONE for auto) */
	enum ask ask;              /* -f, -i, -n */
	enum update update;        /* -u, --update=WHICH, -n */
	enum deref deref;          /* -P, -H, -L (after parsing: never unset) */
	enum backup backup;        /* -b, --backup=CONTROL, -S */
	const char *suffix;        /* the simple backup suffix */
	enum reflink reflink;      /* --reflink */
	bool force;                /* cp -f: replace a DST that cannot be written */
	bool remove_destination;   /* --remove-destination */
	bool recursive;            /* -r */
	bool move;                 /* a move: spmv, spmove --remove-source */
	bool no_target_directory;  /* -T */
	bool verbose;              /* -v */
	bool one_file_system;      /* cp -x: no directory of another fs filled */
	bool hard_link;            /* cp -l: hard links for the non-directories */
	bool symbolic_link;        /* cp -s: symbolic links to them */
	bool attributes_only;      /* cp --attributes-only: files made, no data */
	bool debug;                /* --debug: how each file was copied */
	bool keep_directory_symlink; /* a DST link to a directory is followed */
	bool copy_contents;        /* -R --copy-contents: special files as data */
	bool parents;              /* cp --parents: SRC copied to DIR/SRC */
	bool exchange;             /* mv --exchange: renameat2(RENAME_EXCHANGE) */
	bool no_copy;              /* mv --no-copy: no copy when rename fails */
	bool in_place;             /* --in-place: write DST directly */
	bool dash_stdin;           /* spmove: SRC "-" is standard input (for cp and mv,
				    * a file of that name) */
	bool backup_copy;          /* cp -bf F F's copy to F's backup name: a link
				    * there is replaced, never written through */
	bool fsync;                /* --fsync */
	bool verify;               /* --verify */
	unsigned keep;             /* enum keep bits: --preserve, -p, -a */
	bool require_keep;         /* -p, -a, --preserve: failing to keep is an error */
	bool require_xattr;        /* --preserve=xattr: even "not supported" is */
	bool quiet_xattr;          /* -a: "not supported" is not even reported */
	bool no_keep_mode;         /* --no-preserve=mode: new files get default modes */
	enum sparse_mode sparse;
	int progress;              /* 1 always, 0 never, -1 when stderr is a tty */
	int progress_style;        /* enum cli_progress_style */
	bool stats;
	bool json;                 /* --stats as JSON */
	unsigned parallel;         /* --parallel=N: threads copying files (0: as
				    * many as CPUs, once the tree is big enough) */
	/* Facts of the run, read once at start: */
	mode_t umask;              /* the process's */
	bool root;                 /* euid 0: may keep another user's ownership */
	const struct sp_options *mover; /* each thread's mover is made from these */
};

struct seen;

/* What a thread of the run remembers the kernel refused, so as not to ask
 * again for each file: O_TMPFILE in a file system (a matter of
 * directories, which libsplice does not make; the refusals of data paths,
 * FICLONE among them, are the mover's, per pair of file systems). */
struct refusals {
	bool no_tmpfile;      /* O_TMPFILE refused on tmpfile_dev */
	dev_t tmpfile_dev;
};

/* One thread's copier: the run's description, fixed before the first
 * copy and shared read-only (o), and the state of this thread's copies.
 * copy.c, data.c and attrs.c take it, and so does each copy worker, whose
 * copier pool_context() makes from the description alone: nothing copied
 * from another thread, nothing to blank. */
struct copier {
	const struct spmove_options *o;
	struct sp_mover *mover;
	unsigned methods_used;     /* bit (1 << enum sp_path) per path taken */
	/* For --debug, of the last regular file copied: */
	int cloned;                /* 1 cloned, -1 refused, 0 not tried */
	enum sp_path data_path;    /* what moved its bytes (SP_PATH_NONE: none) */
	struct refusals refused;
	struct cli_progress *progress; /* the walker's display (NULL without
					* --progress, and in a worker) */
	uint64_t handed_copied;    /* files handed over that this thread copied */
	struct same_tally *same;   /* the run's (struct spmove's) */
	const struct stat *dst_dir_st; /* the destination directory of the
				    * handed-over copy under way (pool.c) */
	bool dst_dir_plain;        /* and it has no default ACL (ancestor) */
	struct batch *batch;       /* inside a tree: replaced files wait here for
				    * one durability barrier (batch.c); NULL:
				    * each is made durable alone */
	/* A worker with its own descriptor table (fdtable.c), and its number
	 * for the destination directory of the job under way and the
	 * walker's, through which the batch renames what it queues. */
	bool own_table;
	int dst_dir_own, dst_dir_walker;
	int *spare_dir;            /* under a very low descriptor limit: the
				    * source directory, closed (set to
				    * SPARE_CLOSED) once
				    * a file's source is open and before its
				    * copy is made; the walker opens it again
				    * (tree.c) */
};

/* The existing files of their source's size that the run's threads came
 * to (copy.c's left_unchanged()), counted together: whether looking at
 * them pays is a matter of the tree, not of a thread. */
struct same_tally {
	_Atomic uint64_t found;    /* holding its bytes: left as they were */
	_Atomic uint64_t missed;   /* looked at and found to differ */
	_Atomic uint64_t passed;   /* not looked at, while misses prevail */
};

/* copier.spare_dir once closed: below 0 like every closed descriptor. */
#define SPARE_CLOSED (-2)

/* The walker (main.c's copy_or_move()): its own copier, and what only it
 * uses -- the sets of names seen, the tree, the pool. */
struct spmove {
	struct copier c;
	struct seen *sources;      /* command-line sources seen (name, file) */
	struct seen *created;      /* command-line destinations made (name, file) */
	struct seen *copies;       /* source file -> the name of its copy */
	struct seen *moved_dirs;   /* a move's source directories copied: only
				    * these are emptied by remove_source() */
	unsigned tree_depth;       /* copy_children() calls under way */
	bool in_new_dir;           /* copy_children() fills a directory it made:
				    * its names are free, not looked up */
	struct pool *pool;         /* pool.c: the copy workers, once started */
	struct same_tally same;    /* every copier's same points here */
	struct batch *batch;       /* batch.c: the run's queue of replaced files
				    * (NULL: none could be had) */
	bool pool_failed;          /* none could start: the walker copies all */
	bool given_back;           /* copy_entry() runs for a file a worker gave
				    * back (tree_settle()): the walker's own */
	struct tree_count {        /* the tree as far as it was read (pool.c) */
		size_t regular;    /* regular files */
		size_t top_regular; /* those of the first directory */
		size_t pending;    /* directories not yet read */
		size_t read;       /* directories read */
		uint64_t bytes;    /* in the files the walker came to alone */
	} tree_count;
	unsigned workers_used;     /* workers started (for --stats) */
	uint64_t copied_alone;     /* files the walker copied before they did */
	uint64_t workers_copied;   /* files handed over that the workers
				    * copied (pool_stop()) */
	struct dir_copy *deferred; /* entry.c: the directory whose files the
				    * workers may still be copying, its
				    * attributes not yet given (one at most) */
	bool no_defer;             /* while that one is finished: none */
	/* The new tree being made under a temporary name beside its own
	 * (entry.c), while it is: the path it is shown under, the one it is
	 * made under, and its directory. */
	struct hidden_top {
		const char *shown;
		char real[PATH_MAX];
		dev_t dev;
		ino_t ino;
	} hidden;
};

/* ---- personality.c ---- */

/* Which program spmove runs as: itself, or (installed as links to it) spcp
 * with cp's options and spmv with mv's. */
enum personality { PERSONALITY_SPMOVE, PERSONALITY_SPCP, PERSONALITY_SPMV };

/* The personality that name (cli_name_from(argv[0])) picks: spcp and cp
 * are spcp, spmv and mv spmv (a link named cp is a drop-in for GNU's, as
 * its messages say "cp:"); anything else is spmove. */
enum personality personality_of(const char *name);

/* The program's own name (its manual): "spmove", "spcp" or "spmv". */
const char *personality_name(enum personality p);

/* Print --help of spcp or spmv (the usage lines and options of GNU cp or
 * mv, under the name run) on stdout. */
void personality_help(enum personality p);

/* ---- loc.c ---- */

/*
 * A file as spmove reaches it: the entry name of the directory dir, which
 * spmove holds open -- the directory part of an operand, resolved once as
 * the user wrote it, or a directory of a tree, opened from its parent
 * without following a symbolic link and checked to be the one looked at.
 * Every system call on the file names it relative to dir.
 */
struct loc {
	int dir;           /* AT_FDCWD for an operand without a slash */
	const char *name;  /* one component, never with a slash */
	const char *path;  /* the whole name, for messages */
	dev_t dir_dev;     /* dir's device when known (a tree's), else 0 */
	bool must_dir;     /* the operand ended in a slash: it must be a directory */
	bool no_link;      /* with must_dir: a link there is refused (a move) */
	bool seen_absent;  /* the command line's first look found no file there */
	bool hidden;       /* dir is in a new tree made under a temporary name
			    * (entry.c): its free names are written at once */
};

/* Room for an operand's directory part. */
struct loc_buf {
	char buf[PATH_MAX];
};

/* The operand path as a loc: its directory opened (O_PATH) once.
 * Returns 0 or a negative errno. */
int loc_operand(const char *path, struct loc_buf *b, struct loc *l);

/* The time before a file is made, for loc_made_here(). */
void loc_now(struct timespec *t);

/* Whether fd (which may be O_PATH) is a file of type type (S_IFDIR...)
 * that this process made at or after since (loc_now()): its own, born
 * since then (or, where the file system keeps no birth time, an empty
 * directory or a file with one link).  What mkdirat(2), mknodat(2) or
 * symlinkat(2) made in a directory another user can write may have been
 * swapped for something else before it was opened; this tells. */
bool loc_made_here(int fd, mode_t type, const struct timespec *since);

/* How long the directory part of l->path is ("d/" of "d/name/"). */
size_t loc_dir_len(const struct loc *l);

/* Close an operand's directory (none for AT_FDCWD). */
void loc_close(struct loc *l);

/* The entry name of the directory dirfd, whose loc is parent: its path
 * joined into buf (size bytes), in a hidden tree when parent is.  Returns
 * 0 or -ENAMETOOLONG. */
int loc_child(const struct loc *parent, int dirfd, const char *name, char *buf, size_t size,
	      struct loc *l);

/* Whether a and b are one file (device and inode). */
bool same_inode(const struct stat *a, const struct stat *b);

/* fstatat() of l, through a symbolic link when follow.  An operand written
 * with a trailing slash (must_dir) must be a directory (-ENOTDIR), and a
 * symbolic link there is followed, as the slash asks (once, here: later
 * opens check that they reach what this saw).  Returns 0 or -errno. */
int loc_stat(const struct loc *l, struct stat *st, bool follow);

/* Open l with flags (O_CLOEXEC and O_NOCTTY added) and check that it is
 * the file seen (device, inode and type); its fstat into *now.  Returns the
 * descriptor, -ESTALE when another file has the name now, or -errno. */
int loc_open_checked(const struct loc *l, int flags, const struct stat *seen, struct stat *now);

/* Report l as replaced while being copied, in GNU cp's words. */
void loc_replaced(const struct loc *l);

/* fsync(2) the directory dirfd (which may be O_PATH).  Returns 0 or -errno. */
int loc_sync_dir(int dirfd);

/* A name for fd (or the entry name of the directory fd) that the kernel
 * resolves to that very file: "/proc/thread-self/fd/N[/NAME]" (this
 * thread's table: a copy worker may have its own), for the libraries that
 * take only names (libacl, libattr).  Returns buf. */
const char *loc_proc_path(int fd, const char *name, char *buf, size_t size);

/* Open the directory path (relative to dirfd) as O_PATH without following
 * a symbolic link anywhere in it (openat2(2)'s RESOLVE_NO_SYMLINKS, or one
 * component at a time).  Returns the descriptor or -errno (ELOOP, ENOTDIR
 * when a component is a link). */
int open_dir_no_symlinks(int dirfd, const char *path);

/* ---- operands.c ---- */

/* Copy (or move) the operands args[0..n-1]: SRC DST, SRC... DIR, or with
 * target_dir (-t DIR) SRC...  Returns the exit status (1 after reported
 * errors, also for missing operands). */
int run_operands(struct spmove *s, char **args, int n, const char *target_dir);

/* ---- entry.c ---- */

/* The directories being copied, innermost first: to refuse cycles, and
 * the descriptors of the source and destination directories, of which
 * only the innermost few are held open (tree.c). */
struct ancestor {
	struct ancestor *up;
	dev_t dev;                 /* the source directory */
	ino_t ino;
	int src_fd, dst_fd;        /* -1 while closed (deep in a tree) */
	struct stat dst_st;        /* the destination directory */
	bool dst_plain;            /* it was there, without a default ACL, when
				    * the walker entered it (copy_dir_plain()) */
	unsigned depth;
	/* How the source directory is opened again from its parent (or, at
	 * the top, from the operand's directory) when its descriptor was let
	 * go under a very low limit; NULL: it cannot be. */
	const struct loc *src_loc;
	bool follow;               /* the source was reached through a link */
	/* Its files handed over to the workers and not yet copied (changed
	 * with the pool's lock held, read without it by a spinning walker:
	 * pool_wait_dir()). */
	_Atomic unsigned jobs;
	/* Given by the pool when it queues the first of them, 0 before: a
	 * worker with its own table knows a directory it took by it. */
	uint64_t pool_serial;
};

/* What one copy_entry() call reports back to its caller. */
struct outcome {
	bool keep_source; /* moved by rename(2), or left alone: nothing to remove */
	bool into_self;  /* a directory was to go inside itself */
	bool made_dir;   /* the operand's first new directory is known */
};

/* The operand a copy started from: the names its messages quote. */
struct top {
	const char *src, *dst;
};

/*
 * Copy (or move) src to dst as cp and mv do: every check of an existing
 * destination, then a file, link, directory tree or special file.  top
 * names the command-line operand (for messages); up lists the directories
 * above (NULL for the operand itself).  Returns 0, or 1 after a reported
 * error.  Never removes the source (run_operands() does, after a move);
 * *src_st gets the source as it was copied (for that removal).
 */
int copy_entry(struct spmove *s, const struct loc *src, const struct loc *dst,
	       const struct top *top, struct ancestor *up, struct outcome *out,
	       struct stat *src_st);

/* Finish the copy of the directory that waited for the workers to copy
 * its files (s->deferred), if any: wait for them, copy what they gave
 * back, commit the replaced files, then give the directory its
 * attributes.  Called before the walker finishes any other directory, and
 * before it lets a descriptor go.  Returns 0 or 1 after reported errors. */
int copy_finish_deferred(struct spmove *s);

/* ---- tree.c ---- */

/* Copy what the source directory here->src_fd holds into the destination
 * directory here->dst_fd (src and dst: their names).  Reads the names
 * first; holds open the descriptors of only the innermost few directories
 * of a deep tree (the others are reached again through "..", checked).
 * With settle, waits for the copies handed over to the workers before it
 * returns (tree_settle()); else the caller does.  Returns 0 or 1 after
 * reported errors (it goes on after one). */
int copy_children(struct spmove *s, const struct loc *src, const struct loc *dst,
		  const struct top *top, struct ancestor *here, struct outcome *out, bool settle);

/* Wait for the copies handed over to the workers -- all, or (dir not
 * NULL) those from dir -- copy what they gave back the usual way, then
 * commit the batch of replaced files.  Returns 0, or 1 when one of them
 * failed (reported). */
int tree_settle(struct spmove *s, struct ancestor *dir, const struct top *top,
		struct outcome *out);

/* Whether a directory depth levels down may wait for its files' copies
 * while the walker goes on: not when descriptors are so few that the
 * walker lets directories go, nor so deep that it would. */
bool tree_may_defer(unsigned depth);

/* here's source descriptor is open (its destination not yet): close the
 * source descriptor of an ancestor too far up (after the copies handed to
 * workers from there are done), so that the destination directory can be
 * made and opened with no more descriptors than one pair and one.
 * Returns 0, or 1 when such a copy failed (reported). */
int tree_enter(struct spmove *s, struct ancestor *here, const struct top *top,
	       struct outcome *out);

/* here's destination descriptor is open too: close that ancestor's. */
void tree_entered(struct ancestor *here);

/* here's copy is done: open again, through "..", what tree_enter() and
 * tree_entered() closed, checked to be the same directories; where the
 * ancestor is here's parent, here's own descriptors are closed on the way
 * (set to -1), so that no more than three are open at once.  Returns 0,
 * or 1 after a report (the tree was moved meanwhile). */
int tree_leave(struct ancestor *here, const struct loc *src);

/* Under a very low descriptor limit, close the directory of the
 * destination operand (dst->dir, the operand's caller's) once the top
 * directory's copy (here) is open, its fstat in *was: whether it was
 * closed.  tree_take_back_operand() opens it again through ".." of the
 * copy, checked to be that directory, on the same descriptor number,
 * once the copy is complete (here's source descriptor is closed first);
 * returns 0, or 1 after a report (the number then names no directory). */
bool tree_let_go_operand(const struct loc *dst, const struct ancestor *here, struct stat *was);
int tree_take_back_operand(const struct loc *dst, struct ancestor *here, const struct stat *was);

/* Remove the source of a move across file systems (st: what was copied),
 * a tree or a file, if the name still has it.  Returns 0, or 1 after
 * reporting "cannot remove". */
int remove_source(const struct spmove *s, const struct loc *src, const struct stat *st);

/* ---- copy.c ---- */

/*
 * Copy the regular file (or other readable source) src, seen as src_st
 * (through a symbolic link when follow), to dst through a temporary file
 * that replaces dst when complete (for a free name, a file without a
 * name, linked in when complete); dst_st is dst's stat when it exists
 * (NULL when new), perhaps of what a symbolic link names; dst_link: the
 * name was seen to be a symbolic link (only then is it looked at again);
 * dst_absent: not even a dangling symbolic link has the name (then it is
 * not looked at again either).  Returns 0 or 1
 * after a report;
 * dst is left as it was on failure.
 */
int copy_regular(struct copier *s, const struct loc *src, const struct stat *src_st, bool follow,
		 const struct loc *dst, const struct stat *dst_st, bool dst_absent,
		 bool dst_link);

/* Make a directory with mode (cut as mkdir(2)'s) under a new temporary
 * name in dirfd; the name goes to name.  Returns 0 or a negative errno. */
int copy_temp_dir(int dirfd, mode_t mode, char *name, size_t size);

/* What a step of a copy says: finished, with status 0 (STEP_DONE) or 1
 * after a report (STEP_FAILED) -- the values are the exit statuses -- or
 * that the next step must take over, nothing done or said (STEP_GO_ON). */
enum step { STEP_DONE = 0, STEP_FAILED = 1, STEP_GO_ON = 2 };

/* Whether the directory dirfd (any descriptor of it, O_PATH too) has no
 * default ACL, or its file system none at all: a file made in it has the
 * mode it is made with, cut by the umask, and no ACL. */
bool copy_dir_plain(int dirfd);

/* copy_regular() of src, which its directory lists as a regular file and
 * was not looked at since, to dst: a free name, or with look, a name the
 * worker looks at first (a regular file there is replaced, as cp writes
 * into it).  STEP_GO_ON when src is not such a file after all, cannot be
 * opened, or has hard links to keep, or dst holds anything but a regular
 * file cp simply writes into: then copy_entry() must copy it. */
enum step copy_listed_regular(struct copier *s, const struct loc *src, const struct loc *dst,
			      bool look);

/* Copy the symbolic link src to dst, replacing what is there in one rename.
 * Returns 0 or 1 after a report. */
int copy_symlink(struct copier *s, const struct loc *src, const struct loc *dst,
		 const struct stat *st);

/* Make a FIFO, socket or device node like src at dst.  Returns 0 or 1. */
int copy_special(struct copier *s, const struct loc *src, const struct loc *dst,
		 const struct stat *st);

/* Copy standard input's data into dst ("spmove - DST").  Returns 0 or 1. */
int copy_stdin(struct copier *s, const struct loc *dst);

/* In a worker about to end: let go of what copy.c keeps for a thread. */
void copy_thread_end(void);

/* ---- same.c ---- */

/* Whether the existing regular file old (seen; open for reading) holds
 * the st->st_size bytes of in (st: in's fstat) and ends there: its blocks
 * are in's (on XFS and btrfs, a clone, with nothing of in waiting to be
 * written; old's the caller asked), or its bytes, read only from memory
 * unless in_memory (its file system is memory).  False on any doubt. */
bool same_content(int in, const struct stat *st, int old, const struct stat *seen,
		  bool in_memory);

/* Whether none of fd's file's pages waits to be written or is being
 * written (cachestat(2), Linux 6.5): then what is on the disk is the
 * file.  False where that cannot be told. */
bool same_all_written(int fd);

/* ---- durable.c ---- */

/* Whether fd's data must be made durable (fdatasync) before fd, a complete
 * temporary file, replaces an existing name, so that a power cut leaves
 * the old file or the new one: true unless fd's file system is known by
 * measurement to order a renamed file's data before the rename (ext3/ext4
 * data=ordered with auto_da_alloc; on XFS, data cloned from its source:
 * cloned) or keeps nothing over a power cut (tmpfs).  dev: fd's device,
 * when known (0: asked of fd).  Never fails: when in doubt, true. */
bool durable_before_replace(int fd, dev_t dev, bool cloned);

/* Whether fd, an O_TMPFILE file fsynced before it was linked in, must be
 * fsynced again once it has its name for a durable copy (a move, or
 * --fsync) to survive a power cut: true on btrfs, whose log replay
 * otherwise brings the name back over 0 bytes, and on file systems never
 * measured; false on ext4, XFS and tmpfs.  Never fails. */
bool durable_after_link(int fd);

/* Whether fd's file system keeps an access ACL that names no user or
 * group (owner, group and others only) as the file's mode, dropping any
 * ACL the file had -- ext2/3/4, XFS, btrfs, tmpfs, through the kernel's
 * posix_acl_update_mode() -- so that one setxattr(2) sets the mode and
 * removes an inherited ACL.  False where not known (FUSE or a network
 * file system may keep it as a plain attribute).  dev as for
 * durable_before_replace(). */
bool durable_acl_is_mode(int fd, dev_t dev);

/* Whether the files of fd's file system live in memory (tmpfs, ramfs), so
 * that reading one never waits for a disk: where preadv2(2)'s RWF_NOWAIT,
 * which says so of the pages of other file systems, is refused.  dev as
 * for durable_before_replace(). */
bool durable_in_memory(int fd, dev_t dev);

/* Whether what fd's file system keeps of a file in memory is the file:
 * a local file system measured here (tmpfs, ramfs, ext2/3/4, XFS,
 * btrfs), which no other machine writes behind the page cache's back as
 * a network file system's server or a FUSE daemon may.  dev as for
 * durable_before_replace(). */
bool durable_local(int fd, dev_t dev);

/* Whether fd's file system shares the blocks of a file and its clones
 * (XFS, btrfs), so that two files whose extents FIEMAP reports at the
 * same places hold the same bytes there, and whether its FIEMAP is best
 * asked by one thread at a time (XFS).  dev as for
 * durable_before_replace(). */
enum shared_extents { EXTENTS_NOT_SHARED, EXTENTS_SHARED, EXTENTS_ASKED_ALONE };
enum shared_extents durable_shares_extents(int fd, dev_t dev);

/* Whether temporaries on fd's file system (dev as for
 * durable_before_replace()) may wait for one syncfs(2) of many instead of
 * an fdatasync(2) each (batch.c): true where that was proven by replay
 * (XFS, btrfs), false elsewhere.  Never fails. */
bool durable_batches(int fd, dev_t dev);

/* ---- batch.c ---- */

/* The queue of complete temporaries that wait for their durability
 * barrier before each is renamed over the file it replaces.  Shared by
 * the walker and the copy workers (it has its own lock). */
struct batch;

/* A new, empty queue, or NULL (out of memory: each file alone). */
struct batch *batch_new(void);

/* Free b, committed (batch_commit()) before. */
void batch_free(struct batch *b);

/* Queue temp, a complete temporary in dirfd on the file system dev with
 * size bytes of data, to be renamed over base (path in messages); with
 * barrier, its data must be made durable first (its writeback started),
 * else it needs no flush (durable_before_replace()).  dirfd stays open
 * until the walker's next batch_commit().  A full queue is committed by
 * the caller's thread, its failures kept for the walker's next
 * batch_commit().  Returns 0, or 1 after a report (this file was not
 * committed). */
int batch_add(struct batch *b, int dirfd, dev_t dev, const char *temp, const char *base,
	      const char *path, uint64_t size, bool barrier);

/* Make everything queued with a barrier durable -- one syncfs(2) per file
 * system, or one fdatasync(2) per file when the machine holds much more
 * dirty data than the queue -- then rename each temporary over its name, in the order
 * queued; once the run is cancelled, remove them instead.  The walker's,
 * with the directories of everything queued still open (the workers may
 * be copying the next directory's files meanwhile).  Returns 0, or 1 when
 * a file failed (reported, here or in a worker's batch_add()). */
int batch_commit(struct batch *b);

/* For --stats: the barriers made and the files renamed after one. */
void batch_counts(const struct batch *b, uint64_t *barriers, uint64_t *files);

/* ---- pool.c ---- */

/* The copy workers spmove -r may start: one per CPU it may run on beyond
 * the first (at most 7), or --parallel's count less one (at most 63); 0 on
 * one CPU, with --parallel=1, or under a limit of fewer than 64 open files,
 * and never more than a quarter of the descriptors left above 32. */
unsigned pool_worker_count(const struct spmove_options *o);

/* Before the files of a directory, which lists regular files and dirs
 * directories: start the workers now when the tree, as far as it has been
 * read, promises enough files to share (pool.c says how many). */
void pool_expect(struct spmove *s, size_t regular, size_t dirs);

/* Whether the copy of st's file, inside a tree, may go to a worker: a
 * regular file, with no hard link to keep, no -v, --progress, --debug,
 * --in-place or move, and workers to be had; not one a worker gave back. */
bool pool_takes(const struct spmove *s, const struct stat *st);

/* How the files a source directory lists as regular go to the workers
 * unlooked at by the walker: not (LISTED_NO: each is looked at first), to
 * free names (LISTED_FREE: a directory the run made), or with their
 * destination names looked at by the worker (LISTED_LOOK). */
enum listed { LISTED_NO, LISTED_FREE, LISTED_LOOK };

/* How, in the directory being filled, the files the source directory
 * lists as regular may go to a worker: as pool_takes(), without -L; into
 * a directory that was there only when an existing regular file is simply
 * replaced (no -i, -n, -u, --backup or --remove-destination). */
enum listed pool_takes_listed(const struct spmove *s);

/* Copy src (st, follow as for copy_regular(); up: its directory's
 * ancestor) to dst as copy_regular() does -- a free name, or with dst_st
 * a file (not a symbolic link) to replace, already checked as cp checks
 * it (listed: as copy_listed_regular(), src not looked at) -- in a worker
 * (starting them when the tree has shown enough work: pool.c), or here
 * when all are busy or none runs yet.  STEP_DONE
 * when handed over (pool_wait() and pool_again() tell how it went), else
 * the copy's step: STEP_DONE, STEP_FAILED after a report, or STEP_GO_ON
 * (only for a listed one) when copy_entry() must take it. */
enum step pool_copy(struct spmove *s, const struct loc *src, const struct stat *st, bool follow,
		    const struct loc *dst, const struct stat *dst_st, struct ancestor *up,
		    enum listed listed);

/* Wait until every copy handed over has finished, copying from the queue
 * meanwhile.  Returns 1 when one of them failed (reported) since the last
 * call, else 0. */
int pool_wait(struct spmove *s);

/* Wait as pool_wait() does, but only until the copies handed over from
 * dir have finished: those of the directories after it may go on. */
int pool_wait_dir(struct spmove *s, struct ancestor *dir);

/* Whether the workers may be copying a directory's files when its own
 * copy is otherwise done: whether it may wait for them while the walker
 * goes on to the next (copy_directory()). */
bool pool_may_defer(const struct spmove *s);

/* A listed file a worker gave back (STEP_GO_ON), for copy_entry():
 * returns it (the caller's to free with pool_job_free()), with its names
 * in *src and *dst, its directory's ancestor in *up and in *made whether
 * the run made that directory (s->in_new_dir there); NULL when there is
 * none (left). */
struct job *pool_again(struct spmove *s, struct loc *src, struct loc *dst,
		       struct ancestor **up, bool *made);
void pool_job_free(struct job *j);

/* Stop the workers (after pool_wait()); add their statistics to *total
 * (when not NULL) and their paths to s->methods_used. */
void pool_stop(struct spmove *s, struct sp_stats *total);

/* ---- fdtable.c ---- */

/* A worker's own descriptors for the walker's directories: the last few
 * pairs (source, destination) it took, known by the walker's numbers and
 * the serial the pool gave their directory. */
#define FDTABLE_DIRS 4
struct fdtable_dirs {
	uint64_t serial;         /* 0: an empty slot */
	int walker_src, walker_dst;
	int own_src, own_dst;
};
struct fdtable {
	struct fdtable_dirs dirs[FDTABLE_DIRS];
	unsigned next;           /* the slot to fill next */
};

/* A pidfd of this process through which its workers take the walker's
 * directories, opened in the walker (the main thread) when the kernel
 * lets a thread do so; -1 when not: the workers then share its table. */
int fdtable_walker_pidfd(void);

/* In a worker: give this thread a descriptor table of its own, holding
 * only the standard descriptors and pidfd.  False (nothing changed) where
 * the kernel cannot. */
bool fdtable_own(int pidfd);

void fdtable_init(struct fdtable *t);
void fdtable_close(struct fdtable *t);

/* In a worker with its own table: the walker's directories *src and *dst,
 * whose jobs the pool gave serial, replaced by its own descriptors for
 * them -- kept from before, or taken now through pidfd (with serial 0,
 * for this job only: fdtable_done() lets them go).  A descriptor below 0
 * (AT_FDCWD) stays as it is.  Returns 0 or a negative errno (*src and *dst
 * unchanged). */
int fdtable_dirs(struct fdtable *t, int pidfd, uint64_t serial, int *src, int *dst);
void fdtable_done(uint64_t serial, int src, int dst);

/* ---- attrs.c ---- */

/*
 * Give the copy of src (st; open as src_fd, or -1) the attributes cp/mv
 * keep: times, ownership, extended attributes, mode and ACLs, as the
 * options say.  The copy is fd, or for fd < 0 the entry dst (never
 * followed: a symbolic link when st is one); new_file tells whether
 * spmove made it.  Returns 0, or 1 after an error that must fail the copy
 * (reported).
 */
int attrs_copy(const struct copier *s, const struct loc *src, int src_fd, const struct stat *st,
	       int fd, const struct loc *dst, bool new_file);

/* Whether the options ask for a file's mode to be kept (also in moves). */
bool keeps_mode(const struct copier *s);

/* The mode a new copy of a file with mode src_mode gets at first. */
mode_t new_file_mode(const struct copier *s, mode_t src_mode);

/* ---- backup.c ---- */

/* Parse --backup's CONTROL (NULL: $VERSION_CONTROL or existing) into *type.
 * Returns false after reporting a bad one. */
bool backup_parse(const char *control, enum backup *type);

/* The simple backup suffix: -S's, else $SIMPLE_BACKUP_SUFFIX, else "~"
 * (one with a slash is ignored). */
const char *backup_suffix(const char *option);

/* The name dst's backup would get, as a path like dst's (malloc'd); its
 * entry name in dst's directory starts at *name.  NULL with errno set. */
char *backup_path(const struct spmove_options *o, const struct loc *dst, const char **name);

/* Rename dst aside as its backup.  Returns the backup's path (malloc'd),
 * or NULL with errno set (ENOENT: dst is gone, nothing to back up). */
char *backup_rename(const struct spmove_options *o, const struct loc *dst);

/* Whether backing up dst would replace the source src_st (that is, the
 * source is dst's simple backup): "backing up 'DST' might destroy source". */
bool backup_is_source(const struct spmove_options *o, const struct stat *src_st,
		      const struct loc *dst);

/* ---- seen.c ---- */

/* A set of files by device and inode, each with a name. */
struct seen *seen_new(void);
void seen_free(struct seen *set);

/* Remember st's file under name.  Returns the name remembered before for
 * the same file when there is one (nothing is then changed), else NULL
 * (NULL also when out of memory). */
const char *seen_add(struct seen *set, const struct stat *st, const char *name);

/* The name remembered for st's file, or NULL. */
const char *seen_find(const struct seen *set, const struct stat *st);

/* The file made as the copy of st's file is copy's (device and inode):
 * remembered for the name seen_add() gave it.  seen_copy() tells it into
 * copy's st_dev and st_ino (false when not known). */
void seen_set_copy(struct seen *set, const struct stat *st, const struct stat *copy);
bool seen_copy(const struct seen *set, const struct stat *st, struct stat *copy);

/* Forget st's file. */
void seen_forget(struct seen *set, const struct stat *st);

/* ---- report.c ---- */

/* name as cp and mv quote it in messages: cli_quote_always(). */
const char *quoted(const char *name);

/* Ask "spmove: QUESTION? " on stderr; true for an answer starting with y. */
bool ask(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* -v: print "'SRC' -> 'DST'" (after prefix, such as "renamed ") on stdout,
 * with " (backup: 'B')" when backup is not NULL. */
void verbose_pair(const char *prefix, const char *src, const char *dst, const char *backup);

/* ---- preserve.c ---- */

/* The words of --preserve's list, as GNU lists them, and their enum keep bits. */
#define PRESERVE_CHOICES 7
extern const struct cli_choice preserve_choices[PRESERVE_CHOICES];

/* The attributes (enum keep bits) the comma-separated list names into
 * *keep; each word may be abbreviated.  Returns 0, or -EINVAL for an
 * unknown, ambiguous or empty word, the first at list + *bad, *bad_len
 * bytes long.  Prints nothing. */
int preserve_list(const char *list, unsigned *keep, size_t *bad, size_t *bad_len);

/* ---- signal.c ---- */

/* Set by a fatal signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE,
 * SIGXFSZ, SIGALRM, SIGUSR1, SIGUSR2); libsplice stops with -ECANCELED. */
extern volatile sig_atomic_t spmove_cancel;

/* Install the handlers that only set spmove_cancel. */
void signals_catch(void);

/* After cleanup: end the process by the signal that cancelled it, if any. */
void signals_reraise(void);

/* The signal that wakes a copy worker (whose default action is to do
 * nothing, should one come from outside). */
#define SIGNAL_WAKE SIGURG

/* Interrupt the system call thread is blocked in (EINTR), if any, so
 * that its copy sees spmove_cancel. */
void signals_wake(pthread_t thread);

/* ---- data.c ---- */

/*
 * Copy the data of in (in_st: its fstat, or a regular file's stand-in for
 * a stream) to out from their starts: a clone as --reflink says (the
 * library's first rung, FICLONE), else a copy keeping holes as --sparse
 * says.  fresh: out is an empty file just made, on the file system out_dev
 * (0: not known), and in_st is in's own fstat, so that the mover asks the
 * kernel about neither (SP_COPY_NEW_OUTPUT).  Sets s->cloned and
 * s->data_path.  Returns 0 or a negative errno; res tells which side was
 * at fault (SP_SIDE_NONE: the copy between them) and, SP_PATH_CLONE as
 * its path, that --reflink=always's clone failed.
 */
int copy_data(struct copier *s, int in, int out, const struct stat *in_st, bool fresh,
	      dev_t out_dev, struct sp_result *res);

/* ---- progress.c ---- */

/* The bytes copying the n sources srcs into dest would move: regular
 * files' sizes, whole trees with -r; for a move, nothing of what stays on
 * dest's file system (it is renamed).  Unreadable sources count 0. */
uint64_t progress_total(const struct spmove_options *o, char *const *srcs, int n,
			const char *dest);

/* A file's data begins to move (total: its size), and has finished; for
 * data.c, whose progress is the whole run's (s->progress). */
void progress_begin(struct cli_progress *p, uint64_t total, const struct sp_stats *now);
void progress_end(struct cli_progress *p);

/* ---- stealfs.c ---- */

/* Page counters of the stealfs module, when it is loaded. */
struct stealfs_counts {
	bool present;
	uint64_t stolen;  /* stolen_anon + stolen_pagecache */
	uint64_t copied;
};

/* Read the counters; present is false when the module's sysfs files are absent. */
void stealfs_read(struct stealfs_counts *c);

/* Whether this kernel's vmsplice(2) copies user pages instead of putting
 * them in the pipe, found by changing a page after vmsplicing it.
 * Returns 1 (copies), 0 (the pipe holds the pages) or a negative errno
 * (cannot tell). */
int vmsplice_copies(void);

/* Whether path is on a stealfs mount. */
bool stealfs_mount(const char *path);

/* ---- probe.c ---- */

/* Measure and print what this kernel does in dir, as text or (json) one
 * JSON document.  Returns an exit status. */
int probe(const char *dir, bool json);

#endif
