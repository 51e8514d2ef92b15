/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libsplice — move bytes between any two file descriptors with the
 * kernel's zero-copy primitives (splice(2), tee(2), vmsplice(2),
 * copy_file_range(2), sendfile(2)), falling back to read(2)/write(2) where
 * the kernel refuses them.
 *
 * Conventions: functions return a count or a negative errno value and
 * leave errno alone; the library never prints and never exits.  Every
 * function has its own manual page (man sp_copy).
 *
 * Every struct that crosses the ABI grows one way: its first field is
 * size, which the caller sets to sizeof the struct as it knows it; for an
 * array the caller passes the size of an element with the call.  The
 * library reads and writes only the fields both know: a caller built
 * against an older release is never written past its struct, and fields
 * of a later release that a caller sets (nonzero) are refused.  A size
 * smaller than release 1.0's struct is -EINVAL.
 *
 * Contents: constants; paths and policies; options and movers; moving
 * (one input to one output, sparse files too); fan-out (one input to many
 * outputs); comparing; probing the kernel.
 */
#ifndef LIBSPLICE_H
#define LIBSPLICE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Constants -------------------------------------------------------- */

/* The splice(2) flags, also for callers that did not define _GNU_SOURCE
 * (glibc declares them only then); the values are the kernel's. */
#ifndef SPLICE_F_MOVE
#define SPLICE_F_MOVE 1
#endif
#ifndef SPLICE_F_NONBLOCK
#define SPLICE_F_NONBLOCK 2
#endif
#ifndef SPLICE_F_MORE
#define SPLICE_F_MORE 4
#endif
#ifndef SPLICE_F_GIFT
#define SPLICE_F_GIFT 8
#endif

/* "Start at the current file position" for sp_copy_args.offset. */
#define SP_OFFSET_CURRENT ((int64_t)-1)
/* "Copy until end of input" for sp_copy_args.length. */
#define SP_LENGTH_EOF UINT64_MAX

/* Default size asked for with F_SETPIPE_SZ, and of the read/write buffer. */
#define SP_DEFAULT_PIPE_SIZE (1024 * 1024)
#define SP_DEFAULT_BUFFER_SIZE (128 * 1024)

/* sp_options.flags: leave the page cache as it was.  Regular files are
 * read and written with read/write and RWF_DONTCACHE (Linux 6.14+), which
 * drops the pages the transfer brought in once their I/O is done; where
 * the file system refuses it, the pages written are flushed and dropped
 * behind the transfer (sync_file_range(2), POSIX_FADV_DONTNEED) and the
 * input's pages dropped once read, except those cached before.  sp_copy()
 * and sp_fanout() (its regular-file outputs) honour it. */
#define SP_NOCACHE 0x1u

/* sp_options.flags: close the private pipe at the end of each sp_copy()
 * call rather than keep it for the next: two descriptors fewer between
 * calls, for a caller short of them (a low RLIMIT_NOFILE), at the cost
 * of a pipe made again for each call that needs one. */
#define SP_RELEASE_PIPE 0x2u

/* ---- Paths and policies (lib/paths.c) ------------------------------- */

/* A way for bytes to go from one fd to another: what moved them. */
enum sp_path {
	SP_PATH_NONE = 0,         /* nothing has moved yet */
	SP_PATH_SPLICE,           /* splice(2): one call when either fd is a pipe,
				   * else in and out of a private pipe */
	SP_PATH_RW,               /* read(2) and write(2) through a buffer */
	SP_PATH_VMSPLICE,         /* map the input, vmsplice(2) it into the
				   * private pipe, splice it out */
	SP_PATH_GIFT,             /* read into fresh pages, vmsplice them with
				   * SPLICE_F_GIFT, unmap them, splice out */
	SP_PATH_COPY_FILE_RANGE,  /* copy_file_range(2) */
	SP_PATH_SENDFILE,         /* sendfile(2) */
	SP_PATH_CLONE,            /* ioctl(FICLONE): the copy shares the input's
				   * blocks (sp_copy()'s SP_COPY_CLONE flags; not
				   * a path for struct sp_options) */
};

/* How a mover chooses the path for each transfer. */
enum sp_policy {
	SP_POLICY_AUTO = 0,  /* the fastest correct path for the pair of fds:
			      * copy_file_range between regular files (unless
			      * SPLICE_F_MOVE is asked for), else splice, else
			      * read/write where the kernel refuses splice */
	SP_POLICY_PREFER,    /* the options' path where it applies; where it
			      * does not (vmsplice, gift and the in-kernel
			      * copies need a regular input, copy_file_range a
			      * regular output) or the kernel refuses it before
			      * the first byte, splice, then read/write, each
			      * switch counted as a fallback */
	SP_POLICY_ONLY,      /* the options' path and nothing else: a refusal
			      * is an error (-EINVAL) */
};

/* The path's name: "splice", "rw", "vmsplice", "gift", "copy_file_range",
 * "sendfile", "clone" ("none" for SP_PATH_NONE), or NULL for an unknown
 * value. */
const char *sp_path_name(enum sp_path path);

/* The path called name (as sp_path_name() spells it, not "none" or
 * "clone": a path a mover can be asked for).
 * Returns 0 or -EINVAL. */
int sp_path_parse(const char *name, enum sp_path *path);

/* ---- Options and movers (lib/mover.c) --------------------------------- */

/* Which side of a transfer an error came from. */
enum sp_side {
	SP_SIDE_NONE = 0,
	SP_SIDE_INPUT,
	SP_SIDE_OUTPUT,
};

/*
 * Running totals of a mover; all counters only grow.  New fields are only
 * ever added at the end.  A struct of the caller's (for sp_get_stats() and
 * sp_stats_add()) has size set to sizeof(struct sp_stats); the one the
 * progress callback is given is the library's, size its own: a copy of it
 * by assignment carries that size, so set size again before handing the
 * copy back to the library.
 */
struct sp_stats {
	size_t size;             /* sizeof(struct sp_stats), see above */
	uint64_t bytes;          /* bytes delivered to outputs */
	uint64_t bytes_spliced;  /* ... of which never entered user memory */
	uint64_t bytes_copied;   /* ... of which were copied through user memory */
	uint64_t syscalls;       /* every system call the library issued */
	uint64_t splice_calls;
	uint64_t tee_calls;
	uint64_t vmsplice_calls;
	uint64_t read_calls;
	uint64_t write_calls;
	uint64_t poll_calls;
	uint64_t fallbacks;      /* paths abandoned for another one */
	uint64_t elapsed_ns;     /* wall-clock time spent moving data */
	uint64_t copy_file_range_calls;
	uint64_t sendfile_calls;
	/* What the mover picked on this machine: the size of
	 * the pipe its last splice went through -- the caller's pipe, grown
	 * within /proc/sys/fs/pipe-max-size, or its private one; 0 before. */
	uint64_t pipe_size;
	/* The send buffer of the last socket written to, grown
	 * to the pipe size within net.core.wmem_max, as the kernel reports
	 * it (twice the data it holds); 0 when no socket was written to. */
	uint64_t socket_buffer;
};

/*
 * Called after each chunk is delivered.  Return 0 to go on; anything else
 * stops the transfer, which then returns -ECANCELED.
 */
typedef int (*sp_progress_fn)(const struct sp_stats *stats, void *arg);

/* A mover's options: size set to sizeof(struct sp_options) and zero for
 * every other field gives the defaults.  Later releases add fields at the
 * end, whose zero is today's behaviour. */
struct sp_options {
	size_t size;                /* sizeof(struct sp_options) */
	enum sp_policy policy;      /* SP_POLICY_AUTO by default */
	enum sp_path path;          /* for SP_POLICY_PREFER and SP_POLICY_ONLY */
	unsigned int splice_flags;  /* any of SPLICE_F_MOVE, SPLICE_F_MORE, SPLICE_F_NONBLOCK */
	size_t pipe_size;           /* wanted pipe size; 0 means SP_DEFAULT_PIPE_SIZE */
	size_t buffer_size;         /* read/write buffer; 0 means SP_DEFAULT_BUFFER_SIZE */
	sp_progress_fn progress;    /* optional */
	void *progress_arg;
	/* Optional: when *cancel becomes nonzero (a signal handler sets it),
	 * the transfer stops at the next interruption or chunk with -ECANCELED. */
	const volatile sig_atomic_t *cancel;
	/* SP_NOCACHE, SP_RELEASE_PIPE, or 0. */
	unsigned int flags;
};

struct sp_mover;

/*
 * Create a mover.  opts may be NULL for the defaults; it is copied.
 * Returns 0, -EINVAL for bad options (a size smaller than release 1.0's
 * struct, or larger with nonzero bytes past the fields this release knows;
 * an unknown policy, path, flag or splice flag, SP_POLICY_PREFER or
 * SP_POLICY_ONLY without a path, a pipe or buffer size over 2 GiB) or
 * -ENOMEM.
 */
int sp_mover_new(struct sp_mover **mover, const struct sp_options *opts);

/* Free a mover and its private pipe and buffer.  NULL is allowed. */
void sp_mover_free(struct sp_mover *mover);

/* Copy the mover's running totals into *stats (stats->size set by the
 * caller; fields past what the library knows are zeroed).  Returns 0, or
 * -EINVAL for a NULL argument or a size smaller than release 1.0's. */
int sp_get_stats(const struct sp_mover *mover, struct sp_stats *stats);

/* Add the counters of from, a mover that worked alongside (another
 * thread's), to *to: the counts are summed; the time is the longer of the
 * two (they ran at once); the pipe and socket buffer sizes are the larger.
 * Only the fields within both sizes are read and written.  Returns 0, or
 * -EINVAL (nothing added) for a NULL argument or a size smaller than
 * release 1.0's. */
int sp_stats_add(struct sp_stats *to, const struct sp_stats *from);

/* Size of the mover's private pipe once created (0 before). */
size_t sp_pipe_size(const struct sp_mover *mover);

/*
 * Grow the pipe fd to at least want bytes, within /proc/sys/fs/pipe-max-size.
 * Refusals (EPERM, EBUSY) are not errors.  Returns the resulting size, or
 * a negative errno value when fd is not a pipe.
 */
long sp_pipe_grow(int fd, size_t want);

/* The library's version string, such as "1.0.0". */
const char *sp_version(void);

/* ---- Copying: one input to one output (lib/copy.c, move.c, whole.c) -- */

/* What sp_copy() makes of holes (with SP_COPY_WHOLE). */
enum sp_holes {
	SP_HOLES_KEEP = 0, /* the input's holes (SEEK_HOLE) stay holes */
	SP_HOLES_PUNCH,    /* they do, and every block of zeros the copy
			    * wrote becomes a hole too */
	SP_HOLES_FILL,     /* holes are written out as the zeros they read as */
};

/* sp_copy_args.flags. */
/* Copy the whole input, its holes as args->holes says (see sp_copy()). */
#define SP_COPY_WHOLE 0x1u
/* out_fd is a regular file the caller has just created empty (O_CREAT |
 * O_EXCL, without O_APPEND) and not yet written to: the library asks the
 * kernel nothing about it but, when out_st is NULL, its fstat(2); a
 * caller that knows the file system it made the file on (its directory's
 * st_dev) may give an out_st with only st_mode and st_dev set.  Only with
 * SP_COPY_WHOLE. */
#define SP_COPY_NEW_OUTPUT 0x2u
/* First try to make a regular out_fd share the blocks of a regular in_fd
 * (ioctl(FICLONE), as cp --reflink=auto); where the file systems refuse,
 * copy.  A pair of file systems that refused (EOPNOTSUPP, EXDEV) is not
 * asked again by the mover.  Only with SP_COPY_WHOLE. */
#define SP_COPY_CLONE 0x4u
/* Clone or fail (as cp --reflink=always): the clone's error is the call's,
 * result->path SP_PATH_CLONE.  Only with SP_COPY_WHOLE. */
#define SP_COPY_CLONE_ONLY 0x8u

struct stat;

/* One transfer, as sp_copy() takes it.  Zero for a field gives the
 * default, except where said.  Later releases add fields at the end. */
struct sp_copy_args {
	size_t size;        /* sizeof(struct sp_copy_args): the library checks it */
	int in_fd;
	int out_fd;
	/* Where to start reading in_fd: SP_OFFSET_CURRENT uses and advances
	 * the file position; any other value reads from that offset (the
	 * file position is left alone) or, on an fd that cannot seek, skips
	 * that many bytes first.  0 with SP_COPY_WHOLE. */
	int64_t offset;
	/* Bytes wanted: SP_LENGTH_EOF for all (0 moves nothing).  0 with
	 * SP_COPY_WHOLE. */
	uint64_t length;
	unsigned int flags; /* SP_COPY_*; others: -EINVAL */
	enum sp_holes holes; /* with SP_COPY_WHOLE; SP_HOLES_KEEP without */
	/* Optional: the caller's fstat(2) of in_fd and of out_fd, as they are
	 * now, so that the library does not ask again (a program copying many
	 * small files saves two system calls a file). */
	const struct stat *in_st;
	const struct stat *out_st;
};

/* What one sp_copy() or sp_fanout() did, filled when the caller passes
 * one, on success and on failure.  Later releases add fields at the end. */
struct sp_result {
	size_t size;       /* sizeof(struct sp_result), set by the caller */
	uint64_t bytes;    /* bytes written to the output(s), also on failure */
	enum sp_path path; /* the path taken last: the one that moved the last
			    * bytes, or after a failure the one that failed
			    * (also before its first byte); SP_PATH_NONE
			    * when none was taken */
	enum sp_side side; /* which fd made the call fail; SP_SIDE_NONE after
			    * success, for bad arguments and -ECANCELED */
};

/*
 * Move bytes from args->in_fd to args->out_fd, by the path the mover's
 * policy picks.
 *
 * Without SP_COPY_WHOLE: up to args->length bytes from args->offset on.
 * Into a socket that keeps message boundaries (UDP, SOCK_SEQPACKET) the
 * bytes go by read/write, a message of at most 8 KiB per read: a splice
 * or sendfile(2) would send a whole chunk as one, which UDP refuses over
 * 64 KiB (unless the policy is SP_POLICY_ONLY).
 *
 * With SP_COPY_WHOLE: a regular in_fd is copied whole (first cloned, with
 * SP_COPY_CLONE or SP_COPY_CLONE_ONLY, when both fds are regular files), from offset 0 to
 * its end, whatever its file position (which is left where it was); any
 * other input from its file position to its end.  On tmpfs, ext2/3/4, XFS
 * and btrfs, whose files end where their size says, the end is the size
 * in_st gives (else the library's own fstat(2)): no call is made to find
 * it, so a file that grows meanwhile is copied as it was then, and one
 * that shrinks to its new end; elsewhere the input is read to its end.  The copy goes to
 * out_fd from its file position on and leaves that position after the
 * copy.  Only a regular out_fd not opened with O_APPEND can have holes.
 * Into one, a regular input with holes (fewer blocks than its size
 * needs, and SEEK_DATA/SEEK_HOLE find a hole) is copied extent by extent
 * (SP_HOLES_KEEP, SP_HOLES_PUNCH): holes are skipped, and a hole at its
 * end is made by setting out_fd's size.  A file with a size but no blocks
 * in which SEEK_HOLE finds no hole, or whose file system cannot tell (the
 * pseudo-files of /sys and /proc) is read to its end.  Into anything else
 * holes are written as the zeros they read as.  With SP_HOLES_PUNCH each
 * run of whole 4096-byte blocks of zeros written into a regular out_fd
 * becomes a hole (FALLOC_FL_PUNCH_HOLE) where out_fd can be mapped for
 * reading and the file system punches holes.
 *
 * result may be NULL.  Returns the number of bytes written to out_fd
 * (fewer than length only at end of input; holes kept are not written),
 * -EINVAL for a NULL mover or args, a size smaller than release 1.0's
 * struct (or larger, with nonzero bytes past the fields this release
 * knows), an unknown flag, SP_COPY_NEW_OUTPUT or a clone flag without
 * SP_COPY_WHOLE, both clone flags, a
 * nonzero offset or length with SP_COPY_WHOLE or an unknown holes value;
 * or another negative errno value, result->side telling which fd failed.
 */
int64_t sp_copy(struct sp_mover *mover, const struct sp_copy_args *args,
		struct sp_result *result);

/* ---- Fan-out: one input to many outputs (lib/fanout.c) ---------------- */

/* What sp_fanout() tells about one output: an element of the caller's
 * array, whose size the caller passes with the call (status_size);
 * later releases add fields at the end. */
struct sp_fanout_status {
	uint64_t bytes;  /* bytes written to this output */
	int error;       /* 0 while it is live; else the errno that dropped it */
	int copied;      /* nonzero once write(2) served it instead of splice/tee */
};

/*
 * Called when output index failed with err (an errno value) and has been
 * dropped.  Return 0 to go on with the other outputs, anything else to stop:
 * sp_fanout() then returns -err and result->side is SP_SIDE_OUTPUT.
 */
typedef int (*sp_fanout_error_fn)(size_t index, int err, void *arg);

/*
 * Copy in_fd, from its current position to its end, to each of the n
 * outputs out_fds[0..n-1] (as tee(1) does), in the kernel: the input is
 * spliced into the mover's private pipe, duplicated with tee(2) into
 * output pipes or through a scratch pipe into other outputs, and the last
 * output takes the pages themselves.  An output splice refuses (O_APPEND,
 * a tty, EINVAL before its first byte) gets write(2) instead, the others
 * keep splicing; a socket that keeps message boundaries (UDP) gets write(2)
 * in messages of at most 8 KiB; a mover whose path is SP_PATH_RW uses
 * read/write for all, and one with SP_POLICY_ONLY and SP_PATH_SPLICE fails
 * instead of falling back.  File outputs after their first chunk may be spliced by helper
 * threads, up to one per CPU the caller may run on (sched_getaffinity),
 * so that the kernel's copies into several files run in parallel; they
 * exist only during the call and never take the caller's signals.
 *
 * Every output gets exactly the same bytes; the input advances at the pace
 * of the slowest live output.  An output that fails is dropped, its errno
 * stored in status[index].error, and on_error (may be NULL: go on) decides
 * whether to stop.  Once no output is live, reading stops.
 *
 * status must have room for n entries of status_size bytes each
 * (sizeof(struct sp_fanout_status)); it is cleared first, and an entry is
 * up to date when on_error is called for it and when the call returns.
 * Returns the
 * number of bytes read from in_fd and handed to every live output, or a
 * negative errno: an input error (result->side is SP_SIDE_INPUT),
 * -err when on_error asked to stop, -ECANCELED, -EINVAL (a NULL mover,
 * out_fds or status with n outputs, a status_size or result->size smaller
 * than release 1.0's), or another setup failure.
 * result (may be NULL) gets the bytes handed to every live output, the
 * path (SP_PATH_SPLICE, or SP_PATH_RW when the input was read by read(2))
 * and the failed side.  SIGPIPE is the caller's business: writing to a
 * pipe without readers raises it.
 */
int64_t sp_fanout(struct sp_mover *mover, int in_fd, const int *out_fds, size_t n,
		  struct sp_fanout_status *status, size_t status_size,
		  sp_fanout_error_fn on_error, void *arg, struct sp_result *result);

/* ---- Comparing (lib/compare.c) ---------------------------------------- */

/*
 * Compare length bytes of fd a from offset off_a with fd b from off_b
 * (positional reads; file positions are left alone).  Returns 0 when they
 * are equal, 1 when they differ or one ends early, or a negative errno.
 */
int sp_compare(int a, int64_t off_a, int b, int64_t off_b, uint64_t length);

/* ---- Measuring: what the running kernel does (lib/probe.c) ------------ */

/*
 * Experimental: these are exported in the version node LIBSPLICE_EXPERIMENTAL,
 * not in a release's, and may change or go in any release (a program
 * using them is rebuilt with the library).  They measure the kernel
 * rather than move data.
 */

/* stealfs's page counters (contrib/stealfs), summed since it was loaded. */
struct sp_stealfs_counts {
	size_t size;      /* sizeof(struct sp_stealfs_counts) */
	uint64_t stolen;  /* pages taken into a page cache instead of copied */
	uint64_t copied;  /* pages copied */
};

/* Read stealfs's counters into *counts (counts->size set).  Returns 0,
 * -EINVAL for NULL or a size too small, or -ENOENT when the module is not
 * loaded (or its counters cannot be read). */
int sp_stealfs_read(struct sp_stealfs_counts *counts);

/* How sp_probe() judged one path. */
enum sp_probe_verdict {
	SP_PROBE_NOT_RUN = 0,  /* could not be set up; error says why */
	SP_PROBE_WORKS,        /* moved every byte, by the path asked for */
	SP_PROBE_FALLS_BACK,   /* right data, but another path moved it (used) */
	SP_PROBE_FAILS,        /* the transfer failed with error */
	SP_PROBE_WRONG_DATA,   /* it claimed success, the copy differs */
};

/* One policy and path tried between two files of the probed directory:
 * an element of the caller's array, whose size the caller passes with the
 * call (method_size). */
struct sp_probe_method {
	enum sp_policy policy;     /* SP_POLICY_AUTO, or SP_POLICY_PREFER path */
	enum sp_path path;         /* asked for (SP_PATH_NONE with SP_POLICY_AUTO) */
	unsigned int splice_flags; /* 0 or SPLICE_F_MOVE */
	enum sp_probe_verdict verdict;
	int error;                 /* errno of a failure, else 0 */
	enum sp_path used;         /* the path that moved the bytes */
	uint64_t bytes;            /* bytes delivered */
	uint64_t bytes_spliced;    /* of which never entered user memory */
	int64_t pages_moved;       /* stealfs's count of pages moved; -1 without it */
	int64_t pages_copied;      /* and of pages copied; -1 without it */
};

/* What became of pages handed to the kernel, as observed. */
enum sp_page_fate {
	SP_PAGES_UNKNOWN = 0, /* the kernel gives no way to tell here (or error) */
	SP_PAGES_SHARED,      /* the pipe (or destination) references them */
	SP_PAGES_COPIED,      /* a copy was made */
	SP_PAGES_MOVED,       /* they left their owner: stolen */
	SP_PAGES_REFUSED,     /* the call was refused (error is EINVAL) */
};

/* One page-level measurement. */
struct sp_probe_pages {
	enum sp_page_fate fate;
	int error;            /* errno when the measurement failed, else 0 */
	int64_t pages;        /* pages involved; -1 when not measured */
	int64_t pages_moved;  /* stealfs's count of pages moved; -1 without it */
};

/* The raw observations behind one page measurement: what its
 * fate rests on; -1 where a figure was not measured. */
struct sp_probe_evidence {
	/* The source's first byte was 'A'; after the transfer it was overwritten
	 * with 'B' and the destination's first byte read back: 'B' shows the
	 * destination references the source's page, 'A' that it holds a copy. */
	int byte_after_write;
	int64_t frames_checked;  /* pages whose physical frame numbers were compared */
	int64_t frames_same;     /* of which the destination's frame was the source's */
	int frames_error;        /* why frames were not compared (EPERM: not root), else 0 */
	int64_t source_resident; /* source pages still in its page cache afterwards */
};

/* The evidence of each page measurement, named as in struct sp_probe. */
struct sp_probe_evidences {
	struct sp_probe_evidence vmsplice_anon, vmsplice_gift, vmsplice_file, splice_in,
		pagecache_move, anon_move, gift_move, pagecache_splice, tee;
};

/* Everything sp_probe() measures but the paths.  Later releases add
 * fields at the end; sp_probe() fills as much as the caller's size says. */
struct sp_probe {
	size_t size;               /* sizeof(struct sp_probe) */
	char kernel[65];           /* uname -r */
	unsigned long fs_type;     /* statfs(2) f_type of the directory */
	size_t page_size;
	int stealfs_counters;      /* nonzero when stealfs's counters are present */
	/* How many paths this library tries (the methods sp_probe() fills
	 * are the first of them): more in a later release. */
	size_t methods_tried;
	struct sp_probe_pages vmsplice_anon;  /* vmsplice of anonymous memory */
	struct sp_probe_pages vmsplice_gift;  /* ... with SPLICE_F_GIFT */
	struct sp_probe_pages vmsplice_file;  /* vmsplice of a shared file mapping */
	struct sp_probe_pages splice_in;      /* splice from a file into a pipe */
	struct sp_probe_pages pagecache_move; /* page-cache pages spliced on with SPLICE_F_MOVE */
	struct sp_probe_pages anon_move;      /* write(2) pipe pages with SPLICE_F_MOVE */
	struct sp_probe_pages gift_move;      /* gifted pages with SPLICE_F_MOVE */
	struct sp_probe_pages pagecache_splice; /* page-cache pages spliced on without it */
	struct sp_probe_pages tee;              /* tee(2) from a pipe referencing a file's pages */
	int frames_readable;                    /* /proc/self/pagemap shows frame numbers */
	struct sp_probe_evidences evidence;
};

/*
 * Measure, with scratch files in dir (created there and unlinked at once),
 * which paths work and what the kernel does with the pages (result->size
 * set by the caller).  The paths are tried in the
 * library's order (release 1.0: SP_POLICY_AUTO, then SP_POLICY_PREFER with
 * splice, vmsplice, gift, rw, copy_file_range and sendfile, then splice
 * and gift with SPLICE_F_MOVE; later releases add paths at the end): the
 * first n of them go into methods[0..n-1], elements of method_size bytes
 * (sizeof(struct sp_probe_method); methods may be NULL when n is 0), and
 * result->methods_tried says how many there are.  Takes well under a
 * second.  Returns 0, -EINVAL for a NULL argument or a size (result's or
 * method_size) smaller than release 1.0's struct, or a negative errno when
 * dir cannot be examined or written.
 */
int sp_probe(const char *dir, struct sp_probe *result, struct sp_probe_method *methods,
	     size_t method_size, size_t n);


#ifdef __cplusplus
}
#endif

#endif /* LIBSPLICE_H */
