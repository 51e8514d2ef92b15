/*
 * libsplice — move bytes between any two file descriptors with the
 * kernel's zero-copy primitives (splice(2), tee(2), vmsplice(2),
 * copy_file_range(2), sendfile(2)), falling back to read(2)/write(2) where
 * the kernel refuses them.
 *
 * Conventions: functions return a count or a negative errno value and
 * leave errno alone; the library never prints and never exits.  Every
 * function has its own manual page (man sp_move).
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

/* "Start at the current file position" for sp_move()'s offset. */
#define SP_OFFSET_CURRENT ((int64_t)-1)
/* "Copy until end of input" for sp_move()'s length. */
#define SP_LENGTH_EOF UINT64_MAX

/* Default size asked for with F_SETPIPE_SZ, and of the read/write buffer. */
#define SP_DEFAULT_PIPE_SIZE (1024 * 1024)
#define SP_DEFAULT_BUFFER_SIZE (128 * 1024)

/* sp_options.flags: leave the page cache as it was.  Regular files are
 * read and written with read/write and RWF_DONTCACHE (Linux 6.14+), which
 * drops the pages the transfer brought in once their I/O is done; where
 * the file system refuses it, the pages written are flushed and dropped
 * behind the transfer (sync_file_range(2), POSIX_FADV_DONTNEED) and the
 * input's pages dropped once read, except those cached before.  sp_move()
 * and sp_fanout() (its regular-file outputs) honour it. */
#define SP_NOCACHE 0x1u

/* ---- Paths and policies (lib/methods.c) ------------------------------- */

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
 * "sendfile" ("none" for SP_PATH_NONE), or NULL for an unknown value. */
const char *sp_path_name(enum sp_path path);

/* The path called name (as sp_path_name() spells it, not "none").
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
 * Running totals of a mover; all counters only grow.  The library owns
 * them (sp_get_stats() gives a pointer); new fields are only ever added at
 * the end.
 */
struct sp_stats {
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
	uint64_t copy_file_range_calls; /* since release 0.2 */
	uint64_t sendfile_calls;        /* since release 0.2 */
	/* What the mover picked on this machine (since 0.2): the size of
	 * the pipe its last splice went through -- the caller's pipe, grown
	 * within /proc/sys/fs/pipe-max-size, or its private one; 0 before. */
	uint64_t pipe_size;
	/* (since 0.2) The send buffer of the last socket written to, grown
	 * to the pipe size within net.core.wmem_max, as the kernel reports
	 * it (twice the data it holds); 0 when no socket was written to. */
	uint64_t socket_buffer;
};

/*
 * Called after each chunk is delivered.  Return 0 to go on; anything else
 * stops the transfer, which then returns -ECANCELED.
 */
typedef int (*sp_progress_fn)(const struct sp_stats *stats, void *arg);

/* A mover's options; zero for every field gives the defaults. */
struct sp_options {
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
	/* (since 0.2) SP_NOCACHE, or 0. */
	unsigned int flags;
	unsigned int reserved_flags; /* must be zero */
	/* Room for options added later: must be zero (sp_mover_new() refuses
	 * anything else), which designated initializers give for free.  A
	 * later release turns some of it into fields whose zero is today's
	 * behaviour, so callers built now keep working unchanged. */
	uint64_t reserved[7];
};

struct sp_mover;

/*
 * Create a mover.  opts may be NULL for the defaults; it is copied.
 * Returns 0, -EINVAL for bad options (an unknown policy, path or splice
 * flag, SP_POLICY_PREFER or SP_POLICY_ONLY without a path, a pipe or
 * buffer size over 2 GiB, nonzero reserved space) or -ENOMEM.
 */
int sp_mover_new(struct sp_mover **mover, const struct sp_options *opts);

/* Free a mover and its private pipe and buffer.  NULL is allowed. */
void sp_mover_free(struct sp_mover *mover);

/* The mover's running totals. */
const struct sp_stats *sp_get_stats(const struct sp_mover *mover);

/* Size of the mover's private pipe once created (0 before). */
size_t sp_pipe_size(const struct sp_mover *mover);

/*
 * Grow the pipe fd to at least want bytes, within /proc/sys/fs/pipe-max-size.
 * Refusals (EPERM, EBUSY) are not errors.  Returns the resulting size, or
 * a negative errno value when fd is not a pipe.
 */
long sp_pipe_grow(int fd, size_t want);

/* The library's version string, such as "0.2.0". */
const char *sp_version(void);

/* ---- Moving: one input to one output (lib/move.c, lib/sparse.c) ------- */

/*
 * Move up to length bytes (SP_LENGTH_EOF: until end of input) from in_fd to
 * out_fd.  offset is where to start reading in_fd: SP_OFFSET_CURRENT uses and
 * advances the file position; any other value reads from that offset (the
 * file position is left alone) or, on an fd that cannot seek, skips that
 * many bytes first.  The path follows the mover's policy.
 *
 * Into a socket that keeps message boundaries (UDP, SOCK_SEQPACKET) the
 * bytes go by read/write, a message of at most 8 KiB per read: a splice
 * or sendfile(2) would send a whole chunk as one, which UDP refuses over
 * 64 KiB (unless the policy is SP_POLICY_ONLY).
 *
 * Returns the number of bytes written to out_fd (fewer than length only at
 * end of input), or a negative errno value; then sp_error_side() tells
 * which fd failed and sp_last_bytes() how much had already been written.
 */
int64_t sp_move(struct sp_mover *mover, int in_fd, int out_fd,
		int64_t offset, uint64_t length);

struct stat;

/*
 * sp_move() for a caller that has just fstat(2)'ed the fds itself: in_st
 * and out_st (either may be NULL) are taken for the answers of those
 * calls, which sp_move() would make again; a caller copying many small
 * files saves two system calls per file.  They must describe in_fd and
 * out_fd as they are now.  Returns as sp_move().
 */
int64_t sp_move_stat(struct sp_mover *mover, int in_fd, const struct stat *in_st,
		     int out_fd, const struct stat *out_st, int64_t offset, uint64_t length);

/* The side that made the last failed call fail (SP_SIDE_NONE after success). */
enum sp_side sp_error_side(const struct sp_mover *mover);

/* Bytes written to the output by the last call, successful or not. */
uint64_t sp_last_bytes(const struct sp_mover *mover);

/* The path that moved the bytes of the last call (the last one taken when
 * a fallback switched paths); SP_PATH_NONE before any. */
enum sp_path sp_last_path(const struct sp_mover *mover);

/* What sp_move_sparse() makes of holes. */
enum sp_holes {
	SP_HOLES_KEEP = 0, /* the input's holes (SEEK_HOLE) stay holes */
	SP_HOLES_PUNCH,    /* they do, and every block of zeros the copy
			    * wrote becomes a hole too */
	SP_HOLES_FILL,     /* holes are written out as the zeros they read as */
};

/*
 * Copy all of in_fd to out_fd, making holes as how says.
 *
 * A regular in_fd is copied whole, from offset 0 to its end, whatever its
 * file position (which is left where it was); any other input from its
 * file position to its end.  The copy goes to out_fd from its file
 * position on, and leaves that position after the copy.
 *
 * Only a regular out_fd not opened with O_APPEND can have holes.  Into
 * one, a regular input with holes (fewer blocks than its size needs, and
 * SEEK_DATA/SEEK_HOLE find a hole) is copied extent by extent: its holes
 * are skipped over, not written, and a hole at its end is made by setting
 * out_fd's size to where the copy ends, so that the copy has exactly the
 * input's size.  A file with a size but no blocks in which SEEK_HOLE
 * finds no hole, or whose file system cannot tell -- the pseudo-files of
 * /sys and /proc, whose size is a guess -- is read to its end, never
 * extended to its st_size.  Into anything else -- a pipe, a FIFO, a
 * character device such as /dev/null, a socket -- holes are written as
 * the zeros they read as, whatever how says.
 *
 * With SP_HOLES_PUNCH, each run of whole 4096-byte blocks of zeros (at
 * multiples of 4096 in the file) that the copy wrote into a regular
 * out_fd is then made a hole (fallocate(FALLOC_FL_PUNCH_HOLE)).  The zeros
 * are found through a read-only mapping of out_fd: where it cannot be
 * mapped (opened write-only) or the filesystem cannot punch holes, the
 * zeros stay.
 *
 * Each stretch of data is one sp_move() with the mover's options: its
 * path, progress callback, cancel flag and statistics apply throughout.
 * Returns the number of bytes written to out_fd (holes kept are not
 * written), -EINVAL for an unknown how, or another negative errno value;
 * sp_error_side() then tells which fd failed.  sp_last_bytes() is the
 * bytes written by the whole call, successful or not; sp_last_path()
 * names the path of its last stretch.
 */
int64_t sp_move_sparse(struct sp_mover *mover, int in_fd, int out_fd, enum sp_holes how);

/*
 * (since 0.2) sp_move_sparse() into out_fd, a regular file the caller has
 * just created empty (O_CREAT | O_EXCL, without O_APPEND) and not yet
 * written to or moved in, as a copying program does for each file: the
 * mover then asks the kernel nothing about out_fd (its fstat(2), flags
 * and position), and nothing about in_fd either when in_st is the
 * caller's fstat(2) of it (NULL: asked).  On a VM where each system call
 * costs more than copying 4 KiB, that is a third of the calls for a small
 * file.  Returns as sp_move_sparse(); the result is undefined when out_fd
 * is not such a file.
 */
int64_t sp_copy_to_new(struct sp_mover *mover, int in_fd, const struct stat *in_st, int out_fd,
		       enum sp_holes how);


/* ---- Fan-out: one input to many outputs (lib/fanout.c) ---------------- */

/* What sp_fanout() tells about one output. */
struct sp_fanout_status {
	uint64_t bytes;  /* bytes written to this output */
	int error;       /* 0 while it is live; else the errno that dropped it */
	int copied;      /* nonzero once write(2) served it instead of splice/tee */
	uint64_t reserved[2]; /* for later releases; the library clears it */
};

/*
 * Called when output index failed with err (an errno value) and has been
 * dropped.  Return 0 to go on with the other outputs, anything else to stop:
 * sp_fanout() then returns -err and sp_error_side() says SP_SIDE_OUTPUT.
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
 * status must have room for n entries; it is cleared first.  Returns the
 * number of bytes read from in_fd and handed to every live output, or a
 * negative errno: an input error (sp_error_side() is SP_SIDE_INPUT),
 * -err when on_error asked to stop, -ECANCELED, or a setup failure.
 * SIGPIPE is the caller's business: writing to a pipe without readers
 * raises it.
 */
int64_t sp_fanout(struct sp_mover *mover, int in_fd, const int *out_fds, size_t n,
		  struct sp_fanout_status *status, sp_fanout_error_fn on_error, void *arg);

/* ---- Comparing (lib/compare.c) ---------------------------------------- */

/*
 * Compare length bytes of fd a from offset off_a with fd b from off_b
 * (positional reads; file positions are left alone).  Returns 0 when they
 * are equal, 1 when they differ or one ends early, or a negative errno.
 */
int sp_compare(int a, int64_t off_a, int b, int64_t off_b, uint64_t length);

/* ---- Probing: what the running kernel does (lib/probe.c) ------------------ */

/* stealfs's page counters (contrib/stealfs), summed since it was loaded. */
struct sp_stealfs_counts {
	uint64_t stolen;  /* pages taken into a page cache instead of copied */
	uint64_t copied;  /* pages copied */
};

/* Read stealfs's counters.  Returns 0, or -ENOENT when the module is not
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

/* One policy and path tried between two files of the probed directory. */
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

/* What sp_probe() tries, in this order: SP_POLICY_AUTO, then
 * SP_POLICY_PREFER with splice, vmsplice, gift, rw, copy_file_range and
 * sendfile, then splice and gift with SPLICE_F_MOVE. */
#define SP_PROBE_METHODS 9

/* Everything sp_probe() measures.  Later releases add fields at the end;
 * sp_probe() fills as much as the caller's size says. */
struct sp_probe {
	char kernel[65];           /* uname -r */
	unsigned long fs_type;     /* statfs(2) f_type of the directory */
	size_t page_size;
	int stealfs_counters;      /* nonzero when stealfs's counters are present */
	struct sp_probe_method methods[SP_PROBE_METHODS];
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
 * which methods work and what the kernel does with the pages; size is
 * sizeof(*result) as the caller knows it.  Takes well under a second.
 * Returns 0, -EINVAL for a NULL argument or a size smaller than release
 * 0.2's struct, or a negative errno when dir cannot be examined or written.
 */
int sp_probe(const char *dir, struct sp_probe *result, size_t size);


#ifdef __cplusplus
}
#endif

#endif /* LIBSPLICE_H */
