/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stealprobe - the guest suite's probe for stealfs: splices data into a
 * file with or without SPLICE_F_MOVE, gifts pages with vmsplice, checks mmap
 * and truncate on a file, and times pipe- and file-sourced moves.
 *
 *   stealprobe splice [-M] [-m] [-l] [-H] [-o OFFSET] DST
 *                                             stdin (a pipe) -> DST at OFFSET;
 *                                             prints "spliced BYTES", and on
 *                                             failure "error ENAME" (exit 1)
 *   stealprobe filemove [-M] [-m] [-o OFFSET] SRC DST
 *                                             SRC -> private pipe -> DST, from
 *                                             OFFSET of SRC to OFFSET of DST
 *                                             (a 2 MiB pipe where allowed,
 *                                             else 1 MiB)
 *     -M: SPLICE_F_MOVE; -m: keep DST (splice) or SRC (filemove) mapped
 *     during the move, then check the mapping shows the file's data;
 *     -l: with -m, also mlock the mapping; -H: hold references to DST's
 *     pages in a pipe (vmsplice of a shared mapping, then unmapped) during
 *     the move
 *   stealprobe gift [-f FILE [-t]] SIZE DST   vmsplice(SPLICE_F_GIFT) SIZE
 *                                             bytes of a pattern (-f: of
 *                                             FILE's shared mapping; -t: then
 *                                             truncate FILE), then splice
 *                                             them to DST with SPLICE_F_MOVE
 *                                             (a failed splice: "spliced
 *                                             BYTES", "error ENAME", exit 1)
 *   stealprobe pieces COUNT SIZE DST          vmsplice COUNT buffers of SIZE
 *                                             bytes of the pattern, splice
 *                                             them to DST with SPLICE_F_MOVE
 *   stealprobe dio-pin SRC DST SIZE RELEASE TEXT
 *                                             while an O_DIRECT read of SIZE
 *                                             bytes of SRC into DST's shared
 *                                             mapping waits for its bios
 *                                             (unmapped meanwhile), splice
 *                                             stdin over DST with
 *                                             SPLICE_F_MOVE, write TEXT to
 *                                             the file RELEASE (to let the
 *                                             read end); then check DST shows
 *                                             what was read
 *   stealprobe hog LEAVE                      a balloon: allocate and touch
 *                                             memory until MemAvailable is
 *                                             LEAVE bytes, print "hog: ready:
 *                                             MemAvailable N KiB", then take
 *                                             what is freed, every 50 ms,
 *                                             until killed
 *   stealprobe pattern SIZE                   write the gift pattern to stdout
 *   stealprobe mmap FILE                      mmap/read/write/truncate checks
 *   stealprobe acct FILE|-                    BSD accounting on into FILE, or off
 *   stealprobe time COMMAND [ARG]...          run COMMAND, print "time NS" on
 *                                             stderr, exit with its status
 *   stealprobe time-pipe SIZE COMMAND [ARG]...  the same, with stdin a pipe
 *                                             already holding SIZE bytes
 *   stealprobe mount [-r] DIR [DATA]          mount(2) stealfs on DIR with the
 *                                             data string DATA (-r: remount)
 *   stealprobe fsconfig [-r] DIR PARAM...     the same through fsopen(2) and
 *                                             fsconfig(2), or fspick(2) (-r);
 *                                             PARAM is KEY=VALUE (a string),
 *                                             KEY (a flag), KEY:fd (an fd),
 *                                             KEY:bin=VALUE (a binary blob)
 *                                             or KEY:path=VALUE (a path)
 *     mount and fsconfig print OK or the errno's name (EINVAL, ...) on the
 *     first line; fsconfig then prints the filesystem context's messages,
 *     each as "log: MESSAGE"
 *   stealprobe as ID COMMAND [ARG]...         run COMMAND as user and group ID
 *                                             (numeric), no other groups
 *   stealprobe hugeread FILE                  read FILE into the page cache
 *                                             through a MADV_HUGEPAGE mapping
 *                                             (faults read ahead in PMD-size
 *                                             folios where the file system
 *                                             takes them), then unmap it
 *   stealprobe frames FILE                    the physical frame of each page
 *                                             of FILE (faulted in through a
 *                                             shared mapping, then unmapped),
 *                                             from /proc/self/pagemap: one
 *                                             line a page, the frame number
 *                                             in hex, or "-" (not present;
 *                                             frames hidden from non-root)
 *
 * Built statically for the VM (contrib/stealfs/tests/check-vm.sh); exits 0 on success,
 * 1 on a failed check, 2 on a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/acct.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PIPE_BYTES (1 << 20)
#define MOVE_PIPE_BYTES (2 << 20)	/* filemove's: a PMD-size folio */
#define PAGE 4096

/* Prints "stealprobe: WHAT: strerror(errno)" and exits 1. */
static void die(const char *what)
{
	fprintf(stderr, "stealprobe: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Prints "stealprobe: MSG" and exits 1. */
static void fail(const char *msg)
{
	fprintf(stderr, "stealprobe: %s\n", msg);
	exit(1);
}

static const char *errno_name(int e);

/*
 * Runs @argv as user and group @id, with no supplementary groups (the
 * guest has no user database, and busybox's setpriv cannot change ids).
 * Returns only on failure.
 */
static int cmd_as(const char *id, char **argv)
{
	char *end;
	unsigned long n = strtoul(id, &end, 10);

	if (!*id || *end || n > 65535)
		fail("as: want a numeric id");
	if (setgroups(0, NULL) < 0 || setgid((gid_t)n) < 0 || setuid((uid_t)n) < 0)
		die("as");
	execvp(argv[0], argv);
	die(argv[0]);
	return 1;
}

/* Returns the monotonic clock in nanoseconds. */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#define PATTERN_PERIOD (1 << 20)

/*
 * Returns byte @i of the deterministic test pattern: every page of a MiB
 * differs, and the pattern repeats each MiB so that it can be written from
 * one buffer (the benchmark's producer must cost little).
 */
static unsigned char pattern_byte(size_t i)
{
	i %= PATTERN_PERIOD;
	return (unsigned char)(i * 7 + i / PAGE + 1);
}

/* Fills @buf with the pattern as it stands at byte @start. */
static void fill_pattern(unsigned char *buf, size_t len, size_t start)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = pattern_byte(start + i);
}

/* Grows pipe @fd to PIPE_BYTES when the kernel lets us; ignores refusal. */
static void grow_pipe(int fd)
{
	(void)fcntl(fd, F_SETPIPE_SZ, PIPE_BYTES);
}

/*
 * Splices everything from pipe @in to @out at *@off, adding the bytes moved
 * to *@total.  Returns 0 at the end of the input, or the errno of the splice
 * that failed.
 */
static int drain(int in, int out, loff_t *off, unsigned int flags,
		 uint64_t *total)
{
	for (;;) {
		ssize_t n = splice(in, NULL, out, off, PIPE_BYTES, flags);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (n == 0)
			return 0;
		*total += (uint64_t)n;
	}
}

/* Opens @path for writing, creating it; exits on error. */
static int open_out(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT, 0644);

	if (fd < 0)
		die(path);
	return fd;
}

/*
 * Moves @in (a file) from byte @from to @out at the same byte through a
 * pipe of MOVE_PIPE_BYTES, or PIPE_BYTES when the kernel refuses that
 * (not root, pipe-max-size): stealfs takes a page-cache folio whole only
 * when all of it is in the pipe, and 7.2's ext4 caches 2 MiB folios.
 * Returns bytes.
 */
static uint64_t file_move(int in, int out, loff_t from, unsigned int flags)
{
	int p[2];
	loff_t off = from, in_off = from;
	uint64_t total = 0;
	size_t ask = MOVE_PIPE_BYTES;

	if (pipe(p) < 0)
		die("pipe");
	if (fcntl(p[1], F_SETPIPE_SZ, MOVE_PIPE_BYTES) < 0) {
		grow_pipe(p[1]);
		ask = PIPE_BYTES;
	}
	for (;;) {
		ssize_t n = splice(in, &in_off, p[1], NULL, ask, 0);

		if (n < 0)
			die("splice from file");
		if (n == 0)
			break;
		while (n > 0) {
			ssize_t m = splice(p[0], NULL, out, &off, (size_t)n, flags);

			if (m <= 0)
				die("splice to file");
			n -= m;
			total += (uint64_t)m;
		}
	}
	close(p[0]);
	close(p[1]);
	return total;
}

/* Parses a decimal size with an optional K or M suffix; exits if bad. */
static size_t parse_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	if (*end == 'K')
		v <<= 10, end++;
	else if (*end == 'M')
		v <<= 20, end++;
	if (end == s || *end)
		fail("bad size");
	return (size_t)v;
}

/*
 * Writes the pattern's first @size bytes to stdout with write(2), 64 KiB at
 * a time; returns 0, exits on error.
 */
static int cmd_pattern(size_t size)
{
	static unsigned char buf[PATTERN_PERIOD];

	fill_pattern(buf, sizeof(buf), 0);
	for (size_t done = 0; done < size;) {
		size_t at = done % PATTERN_PERIOD;
		size_t n = size - done < 65536 ? size - done : 65536;

		if (write(1, buf + at, n) != (ssize_t)n)
			die("write");
		done += n;
	}
	return 0;
}

/*
 * Maps @size bytes (whole pages) to gift and copies what they hold to
 * @want: anonymous memory filled with the pattern, or with @file a shared
 * mapping of that file.  Returns the mapping; exits on error.
 */
static unsigned char *gift_source(const char *file, size_t size,
				  unsigned char *want)
{
	unsigned char *mem;
	int fd = -1;

	if (file) {
		fd = open(file, O_RDONLY);
		if (fd < 0)
			die(file);
	}
	if (file)
		mem = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	else
		mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		die("mmap");
	if (fd >= 0)
		close(fd);
	else
		fill_pattern(mem, size, 0);
	memcpy(want, mem, size);
	return mem;
}

/* Writes all of @iov into pipe @fd with vmsplice(@flags); exits on error. */
static void vmsplice_all(int fd, struct iovec iov, unsigned int flags)
{
	while (iov.iov_len) {
		ssize_t n = vmsplice(fd, &iov, 1, flags);

		if (n <= 0)
			die("vmsplice");
		iov.iov_base = (char *)iov.iov_base + n;
		iov.iov_len -= (size_t)n;
	}
}

/*
 * Checks that @path starts with the @size bytes at @want; exits 1 with
 * "WHAT: data differs" when it does not.
 */
static void expect_file(const char *path, const unsigned char *want,
			size_t size, const char *what)
{
	unsigned char *got = malloc(size);
	int in = open(path, O_RDONLY);
	char msg[64];

	if (!got || in < 0)
		die(path);
	if (pread(in, got, size, 0) != (ssize_t)size)
		die("read back");
	close(in);
	snprintf(msg, sizeof(msg), "%s: data differs", what);
	if (memcmp(got, want, size))
		fail(msg);
	free(got);
}

/*
 * Gifts @size bytes (a multiple of the page size) to a pipe with vmsplice:
 * the pattern in anonymous memory, or with @file the pages of a shared
 * mapping of that file (truncated afterwards with @truncate_file, so that
 * the pipe holds their only reference).  Unmaps them, splices them to @dst
 * with SPLICE_F_MOVE and checks the file.  Returns 0; prints "spliced
 * BYTES" and "error ENAME" and returns 1 when a splice fails; exits 1 on a
 * mismatch.
 */
static int cmd_gift(const char *file, int truncate_file, size_t size,
		    const char *dst)
{
	unsigned char *want = malloc(size), *mem;
	int p[2], out = open_out(dst);
	loff_t off = 0;
	uint64_t moved = 0;
	int err;

	if (size % PAGE || size > PIPE_BYTES)
		fail("gift size must be whole pages, at most 1M");
	if (truncate_file && !file)
		fail("gift: -t needs -f");
	if (!want)
		die("malloc");
	if (pipe(p) < 0)
		die("pipe");
	grow_pipe(p[1]);
	mem = gift_source(file, size, want);
	vmsplice_all(p[1], (struct iovec){ mem, size }, SPLICE_F_GIFT);
	if (munmap(mem, size) < 0)
		die("munmap");
	if (truncate_file && truncate(file, 0) < 0)
		die("truncate");
	close(p[1]);
	err = drain(p[0], out, &off, SPLICE_F_MOVE, &moved);
	if (err) {
		printf("spliced %llu\nerror %s\n", (unsigned long long)moved,
		       errno_name(err));
		return 1;
	}
	if (moved != size)
		fail("gift: short splice");
	close(out);
	expect_file(dst, want, size, "gift");
	printf("gift: ok\n");
	return 0;
}

/*
 * Puts @count buffers of @size bytes of the pattern into a pipe with
 * vmsplice (without SPLICE_F_GIFT each iovec becomes a buffer of its own;
 * @size divides the page size and the data is page-aligned, so no piece
 * spans two pages, which would make it two buffers), splices them to @dst with SPLICE_F_MOVE and checks the file.  Returns 0,
 * exits 1 on a mismatch.
 */
static int cmd_pieces(size_t count, size_t size, const char *dst)
{
	size_t total = count * size;
	unsigned char *data = mmap(NULL, total, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int p[2], out = open_out(dst);
	loff_t off = 0;
	uint64_t moved = 0;

	if (!count || !size || count > 128 || PAGE % size)
		fail("pieces: 1 to 128 pieces of a size that divides 4096");
	if (data == MAP_FAILED)
		die("mmap");
	fill_pattern(data, total, 0);
	if (pipe(p) < 0)
		die("pipe");
	grow_pipe(p[1]);
	for (size_t i = 0; i < count; i++)
		vmsplice_all(p[1], (struct iovec){ data + i * size, size }, 0);
	close(p[1]);
	if (drain(p[0], out, &off, SPLICE_F_MOVE, &moved) || moved != total)
		fail("pieces: short splice");
	close(out);
	expect_file(dst, data, total, "pieces");
	printf("pieces: ok\n");
	return 0;
}

/* An O_DIRECT read running in a thread of its own. */
struct dio_read {
	int fd;
	unsigned char *buf;
	size_t size;
	ssize_t got;
	int err;
	pid_t tid;
	int done;
};

/* The thread: says who it is, reads, records the result and that it is done. */
static void *dio_reader(void *arg)
{
	struct dio_read *r = arg;

	__atomic_store_n(&r->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	r->got = pread(r->fd, r->buf, r->size, 0);
	r->err = errno;
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Returns whether thread @tid of this process sleeps where an O_DIRECT read
 * waits for its bios, its pages pinned: /proc's wchan names the first
 * caller outside the scheduler, blk_io_schedule() or, when that was a tail
 * call, __iomap_dio_rw() (ext4's direct I/O, 6.1 and 6.12).
 */
static int dio_waiting(pid_t tid)
{
	char path[64], wchan[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/wchan", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(wchan, sizeof(wchan), f))
		wchan[0] = '\0';
	fclose(f);
	return !strcmp(wchan, "blk_io_schedule") || !strcmp(wchan, "__iomap_dio_rw");
}

/* Writes @text to the existing file @path; dies on failure. */
static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) ||
	    close(fd) < 0)
		die(path);
}

/*
 * Reads @size bytes of @src with O_DIRECT into a shared mapping of @dst in
 * a second thread; once the read waits for its bios (its pages pinned: the
 * suite holds them back with io.max), unmaps them and splices stdin over
 * @dst with SPLICE_F_MOVE, then writes @text to @release (the suite lifts
 * the limit that way) and waits for the read.  A page taken out of the file
 * meanwhile would take the read's data with it, so @dst must show @src's
 * data at the end.  Returns 0, 1 on a failed check, 3 when the read did not
 * wait within 60 s or ended before the move did.
 */
static int cmd_dio_pin(const char *src, const char *dst, size_t size,
		       const char *release, const char *text)
{
	struct dio_read r = { .fd = open(src, O_RDONLY | O_DIRECT), .size = size };
	int out = open(dst, O_RDWR), in = open(src, O_RDONLY), err = 0, early;
	unsigned char *want = malloc(size);
	uint64_t moved = 0;
	loff_t off = 0;
	pthread_t t;
	pid_t tid;
	int polls;

	if (r.fd < 0 || in < 0)
		die(src);
	if (out < 0)
		die(dst);
	if (!want)
		die("malloc");
	if (pread(in, want, size, 0) != (ssize_t)size)
		die("dio-pin: read the source");
	r.buf = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, out, 0);
	if (r.buf == MAP_FAILED)
		die("mmap");
	if ((errno = pthread_create(&t, NULL, dio_reader, &r)))
		die("pthread_create");
	for (polls = 0; polls < 6000; polls++) {
		early = __atomic_load_n(&r.done, __ATOMIC_ACQUIRE);
		tid = __atomic_load_n(&r.tid, __ATOMIC_ACQUIRE);
		if (early || (tid && dio_waiting(tid)))
			break;
		usleep(10000);
	}
	early = early || polls == 6000;
	if (!early) {
		if (munmap(r.buf, size) < 0)
			die("munmap");
		grow_pipe(0);
		err = drain(0, out, &off, SPLICE_F_MOVE, &moved);
		early = __atomic_load_n(&r.done, __ATOMIC_ACQUIRE);
	}
	write_file(release, text);
	pthread_join(t, NULL);
	printf("spliced %llu\n", (unsigned long long)moved);
	if (early) {
		printf("dio-pin: the read did not wait for its bios, or ended before the move did\n");
		return 3;
	}
	if (r.got != (ssize_t)size) {
		errno = r.got < 0 ? r.err : EIO;
		die("dio-pin: O_DIRECT read");
	}
	if (err) {
		errno = err;
		die("splice to file");
	}
	expect_file(dst, want, size, "dio-pin: the file lost the read's data");
	printf("dio-pin: ok\n");
	return 0;
}

/* Returns MemAvailable of /proc/meminfo in bytes; exits on error. */
static long long mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char key[32];
	long long kb;

	if (!f)
		die("/proc/meminfo");
	while (fscanf(f, "%31s %lld kB ", key, &kb) == 2) {
		if (!strcmp(key, "MemAvailable:")) {
			fclose(f);
			return kb * 1024;
		}
	}
	fail("no MemAvailable in /proc/meminfo");
	return 0;
}

/* Maps and touches @bytes (whole pages) of private anonymous memory, for good. */
static void take(size_t bytes)
{
	volatile unsigned char *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
					   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (mem == MAP_FAILED)
		die("mmap");
	for (size_t i = 0; i < bytes; i += PAGE)
		mem[i] = 1;
}

#define HOG_STEP (1 << 20)		/* less to take waits for the next look */
#define HOG_PERIOD_NS 50000000L		/* between two looks */

/*
 * The balloon: takes memory until MemAvailable is @leave bytes, prints
 * "hog: ready: MemAvailable N KiB" once a look finds less than HOG_STEP
 * more to take, and from then on looks every HOG_PERIOD_NS and takes what
 * was freed since, until killed.  (MemAvailable leaves out the free pages
 * on the per-CPU lists: those stay free.)  Exits 1 when it cannot read
 * MemAvailable or map memory.
 */
_Noreturn static void cmd_hog(size_t leave)
{
	const struct timespec period = { 0, HOG_PERIOD_NS };
	int ready = 0;

	for (;;) {
		long long avail = mem_available(), more = avail - (long long)leave;

		if (more >= HOG_STEP) {
			take((size_t)more / PAGE * PAGE);
			continue;
		}
		if (!ready) {
			printf("hog: ready: MemAvailable %lld KiB\n", avail / 1024);
			fflush(stdout);
			ready = 1;
		}
		nanosleep(&period, NULL);
	}
}

static sigjmp_buf bus_jump;

/* SIGBUS handler: back to the probe that expected it. */
static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(bus_jump, 1);
}

/* Returns 1 if reading @p raises SIGBUS, 0 if it reads fine. */
static int faults(volatile const unsigned char *p)
{
	if (sigsetjmp(bus_jump, 1))
		return 1;
	(void)*p;
	return 0;
}

/*
 * Checks a file through mmap: the mapping shows what read(2) returns, a
 * store through it shows up in read(2), and after truncating to half the
 * pages beyond the new end raise SIGBUS.  Returns 0, exits 1 on failure.
 */
static int cmd_mmap(const char *path)
{
	int fd = open(path, O_RDWR);
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0)
		die(path);
	size_t size = (size_t)st.st_size;
	if (size < 2 * PAGE)
		fail("mmap: file too small");
	unsigned char *map = mmap(NULL, size, PROT_READ | PROT_WRITE,
				  MAP_SHARED, fd, 0);
	unsigned char *buf = malloc(size);
	if (map == MAP_FAILED || !buf)
		die("mmap");
	if (pread(fd, buf, size, 0) != (ssize_t)size)
		die("pread");
	if (memcmp(map, buf, size))
		fail("mmap: mapping differs from read()");

	map[PAGE + 1] ^= 0xff;
	if (msync(map, size, MS_SYNC) < 0)
		die("msync");
	unsigned char c;
	if (pread(fd, &c, 1, PAGE + 1) != 1 || c != (buf[PAGE + 1] ^ 0xff))
		fail("mmap: store not visible to read()");
	map[PAGE + 1] ^= 0xff;	/* restore */

	struct sigaction sa = { .sa_handler = on_sigbus };
	sigaction(SIGBUS, &sa, NULL);
	size_t half = (size / 2 + PAGE - 1) / PAGE * PAGE;
	if (ftruncate(fd, (off_t)half) < 0)
		die("ftruncate");
	if (faults(map))
		fail("mmap: SIGBUS below the new end");
	if (half < size && !faults(map + half))
		fail("mmap: no SIGBUS beyond the new end");
	if (ftruncate(fd, (off_t)size) < 0)
		die("ftruncate back");
	if (half < size && map[half] != 0)
		fail("mmap: regrown tail not zero");
	munmap(map, size);
	printf("mmap: ok\n");
	return 0;
}

/*
 * Runs @argv and waits for it; prints "time NANOSECONDS" on stderr.
 * Returns the command's exit status (1 if it did not exit normally).
 */
static int cmd_time(char **argv)
{
	int status;
	uint64_t t0 = now_ns();
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		execvp(argv[0], argv);
		die(argv[0]);
	}
	if (waitpid(pid, &status, 0) < 0)
		die("waitpid");
	fprintf(stderr, "time %llu\n", (unsigned long long)(now_ns() - t0));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/*
 * Fills a pipe big enough for @size bytes of the pattern (write(2), so
 * these are anonymous pipe pages), closes its write end, and times @argv
 * reading it on stdin; prints "time NANOSECONDS" on stderr.  Returns the
 * command's exit status.  Needs /proc/sys/fs/pipe-max-size >= @size.
 */
static int cmd_time_pipe(size_t size, char **argv)
{
	int p[2];

	if (pipe(p) < 0)
		die("pipe");
	if (fcntl(p[1], F_SETPIPE_SZ, (int)size) < 0)
		die("F_SETPIPE_SZ");
	if (dup2(p[1], 1) < 0 || dup2(p[0], 0) < 0)
		die("dup2");
	cmd_pattern(size);
	close(p[1]);
	close(p[0]);
	if (dup2(2, 1) < 0)
		die("dup2");
	return cmd_time(argv);
}

/*
 * Turns BSD process accounting on into @path, or off when @path is "-".
 * Accounting outlives this process.  Returns 0, exits 1 on error.
 */
static int cmd_acct(const char *path)
{
	if (acct(strcmp(path, "-") ? path : NULL) < 0)
		die("acct");
	return 0;
}

/* Returns the symbolic name of errno value @e ("EINVAL"), or "E<number>". */
static const char *errno_name(int e)
{
	static const struct { int e; const char *name; } names[] = {
		{ EINVAL, "EINVAL" }, { EPERM, "EPERM" }, { ENOENT, "ENOENT" },
		{ EBUSY, "EBUSY" }, { ENODEV, "ENODEV" }, { ENOSPC, "ENOSPC" },
		{ ERANGE, "ERANGE" }, { EOPNOTSUPP, "EOPNOTSUPP" },
		{ ENOMEM, "ENOMEM" }, { EFAULT, "EFAULT" }, { EACCES, "EACCES" },
		{ EBADF, "EBADF" }, { ENOTDIR, "ENOTDIR" }, { EROFS, "EROFS" },
		{ ENOSYS, "ENOSYS" }, { EIO, "EIO" }, { ENOTTY, "ENOTTY" },
		{ EINTR, "EINTR" }, { EFBIG, "EFBIG" }, { EPIPE, "EPIPE" },
		{ EAGAIN, "EAGAIN" },
	};
	static char other[16];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == e)
			return names[i].name;
	snprintf(other, sizeof(other), "E%d", e);
	return other;
}

/* Prints OK for @ret == 0, else the name of errno; returns 0 or 1. */
static int report(int ret)
{
	puts(ret ? errno_name(errno) : "OK");
	return ret != 0;
}

/*
 * Mounts a stealfs on @dir with the mount(2) data string @data (NULL for
 * none), or remounts @dir when @remount.  Prints OK or the errno's name;
 * returns 0 on success, 1 on failure.
 */
static int cmd_mount(const char *dir, const char *data, int remount)
{
	return report(mount("none", dir, "stealfs", remount ? MS_REMOUNT : 0,
			    data));
}

/* The fsconfig(2) commands, spelled here so that old headers do. */
enum {
	PROBE_SET_FLAG = 0,
	PROBE_SET_STRING = 1,
	PROBE_SET_BINARY = 2,
	PROBE_SET_PATH = 3,
	PROBE_SET_FD = 5,
	PROBE_CMD_CREATE = 6,
	PROBE_CMD_RECONFIGURE = 7,
};
#define PROBE_MOVE_MOUNT_F_EMPTY_PATH 0x4

/* Prints the messages the kernel left in filesystem context @fsfd. */
static void print_fs_log(int fsfd)
{
	char msg[1024];
	ssize_t n;

	while ((n = read(fsfd, msg, sizeof(msg) - 1)) > 0) {
		msg[n] = '\0';
		printf("log: %.*s\n", (int)strcspn(msg, "\n"), msg);
	}
}

/*
 * Passes @param (see the usage) to filesystem context @fsfd with
 * fsconfig(2); returns its result (0, or -1 with errno set).
 */
static int probe_fsconfig(int fsfd, const char *param)
{
	char key[256];
	const char *eq = strchr(param, '='), *colon = strchr(param, ':');
	size_t klen = strcspn(param, "=:");
	int cmd = eq ? PROBE_SET_STRING : PROBE_SET_FLAG, aux = 0, ret;
	const char *value = eq ? eq + 1 : NULL;

	if (klen >= sizeof(key))
		fail("parameter name too long");
	memcpy(key, param, klen);
	key[klen] = '\0';
	if (colon && (!eq || colon < eq)) {
		if (!strcmp(colon, ":fd")) {
			cmd = PROBE_SET_FD;
			aux = open("/dev/null", O_RDONLY);
			value = NULL;
			if (aux < 0)
				die("/dev/null");
		} else if (!strncmp(colon, ":bin=", 5)) {
			cmd = PROBE_SET_BINARY;
			aux = (int)strlen(value);
		} else if (!strncmp(colon, ":path=", 6)) {
			cmd = PROBE_SET_PATH;
			aux = AT_FDCWD;
		} else {
			fail("bad fsconfig parameter");
		}
	}
	ret = (int)syscall(SYS_fsconfig, fsfd, cmd, key, value, aux);
	if (cmd == PROBE_SET_FD) {
		int e = errno;

		close(aux);
		errno = e;
	}
	return ret;
}

/*
 * Mounts a stealfs on @dir through fsopen/fsconfig/fsmount/move_mount with
 * the @n parameters @params, or with @remount reconfigures the stealfs on
 * @dir through fspick.  Prints OK or the errno's name, then the context's
 * messages; returns 0 on success, 1 on failure.
 */
static int cmd_fsconfig(const char *dir, char **params, int n, int remount)
{
	int fsfd, mfd, ret = 0;

	if (remount)
		fsfd = (int)syscall(SYS_fspick, AT_FDCWD, dir, 0);
	else
		fsfd = (int)syscall(SYS_fsopen, "stealfs", 0);
	if (fsfd < 0)
		return report(-1);
	for (int i = 0; i < n && !ret; i++)
		ret = probe_fsconfig(fsfd, params[i]);
	if (!ret)
		ret = (int)syscall(SYS_fsconfig, fsfd, remount ?
				   PROBE_CMD_RECONFIGURE : PROBE_CMD_CREATE,
				   NULL, NULL, 0);
	if (!ret && !remount) {
		mfd = (int)syscall(SYS_fsmount, fsfd, 0, 0);
		ret = mfd < 0 ? -1 : (int)syscall(SYS_move_mount, mfd, "",
						  AT_FDCWD, dir,
						  PROBE_MOVE_MOUNT_F_EMPTY_PATH);
	}
	ret = report(ret);
	print_fs_log(fsfd);
	close(fsfd);
	return ret;
}

/* A shared mapping of a whole file, kept while data moves. */
struct mapping {
	unsigned char *addr;
	size_t size;
};

/*
 * Maps @path shared and faults every page in, so that its pages are mapped
 * while data moves from or to it; with @lock, mlocks them too.  Exits on
 * error.
 */
static void map_file(const char *path, struct mapping *map, int lock)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	volatile unsigned char sum = 0;

	if (fd < 0 || fstat(fd, &st) < 0)
		die(path);
	map->size = (size_t)st.st_size;
	map->addr = mmap(NULL, map->size, PROT_READ, MAP_SHARED, fd, 0);
	if (map->addr == MAP_FAILED)
		die("mmap");
	/*
	 * No transparent huge pages here: with THP "always" (Debian's 7.2)
	 * khugepaged may collapse the file's pages under this mapping into
	 * new PMD-size folios, copies on new frames, between our look and
	 * the move.  Best effort: a kernel without THP refuses the advice.
	 */
	(void)madvise(map->addr, map->size, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < map->size; i += PAGE)
		sum += map->addr[i];
	if (lock && mlock(map->addr, map->size) < 0)
		die("mlock");
	close(fd);
}

/*
 * Takes a reference to every page of @path through a new pipe, kept in
 * @fds (vmsplice of a shared mapping without SPLICE_F_GIFT), then unmaps
 * them: the pages stay in the file, unmapped, each with one reference more
 * than the page cache's until the pipe is closed.  Exits on error.
 */
static void hold_refs(const char *path, int fds[2])
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	unsigned char *map;

	if (fd < 0 || fstat(fd, &st) < 0)
		die(path);
	if (!st.st_size || st.st_size > PIPE_BYTES)
		fail("-H: the file must hold 1 byte to 1 MiB");
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		die("mmap");
	close(fd);
	if (pipe(fds) < 0)
		die("pipe");
	grow_pipe(fds[1]);
	vmsplice_all(fds[1], (struct iovec){ map, (size_t)st.st_size }, 0);
	if (munmap(map, (size_t)st.st_size) < 0)
		die("munmap");
}

/*
 * Checks that the mapping made by map_file() shows what read(2) returns
 * now: a page swapped under a live mapping would show stale data.  Exits 1
 * when it differs.
 */
static void check_mapping(const char *path, const struct mapping *map)
{
	unsigned char *buf = malloc(map->size);
	int fd = open(path, O_RDONLY);

	if (!buf || fd < 0)
		die(path);
	if (pread(fd, buf, map->size, 0) != (ssize_t)map->size)
		die("pread");
	if (memcmp(buf, map->addr, map->size))
		fail("mapping differs from read() after the move");
	printf("mapping: ok\n");
}

/*
 * Reads @path into its page cache through a shared mapping advised
 * MADV_HUGEPAGE: a fault there reads ahead PMD-size folios
 * (do_sync_mmap_readahead(), 6.12 and 7.2) where the mapping allows them,
 * which read(2)'s readahead, bounded by read_ahead_kb, does not make.
 * The mapping is gone on return.  Returns 0, or exits on error (1 also
 * when the advice is refused: no THP).
 */
static int cmd_hugeread(const char *path)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	volatile unsigned char sum = 0;
	unsigned char *map;

	if (fd < 0 || fstat(fd, &st) < 0)
		die(path);
	if (!st.st_size)
		return 0;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		die("mmap");
	if (madvise(map, (size_t)st.st_size, MADV_HUGEPAGE) < 0)
		die("madvise MADV_HUGEPAGE");
	for (size_t i = 0; i < (size_t)st.st_size; i += PAGE)
		sum += map[i];
	if (munmap(map, (size_t)st.st_size) < 0)
		die("munmap");
	close(fd);
	return 0;
}

/*
 * Prints the physical frame of every page of @path, one line each (see the
 * top of the file): the pages are faulted in through a shared read-only
 * mapping, their frames read from /proc/self/pagemap, and the mapping
 * dropped again, so that a move afterwards finds them unmapped.  Returns 0,
 * or exits on error.
 */
static int cmd_frames(const char *path)
{
	struct mapping map;
	int pm = open("/proc/self/pagemap", O_RDONLY);

	if (pm < 0)
		die("/proc/self/pagemap");
	map_file(path, &map, 0);
	for (size_t i = 0; i < map.size; i += PAGE) {
		uint64_t e;
		off_t at = (off_t)(((uintptr_t)map.addr + i) / PAGE * sizeof(e));

		if (pread(pm, &e, sizeof(e), at) != (ssize_t)sizeof(e))
			die("pread /proc/self/pagemap");
		/* bit 63: present; bits 0-54: the frame (0 when hidden) */
		if ((e >> 63) && (e & ((1ULL << 55) - 1)))
			printf("%llx\n", (unsigned long long)(e & ((1ULL << 55) - 1)));
		else
			printf("-\n");
	}
	if (map.size && munmap(map.addr, map.size) < 0)
		die("munmap");
	close(pm);
	return fflush(stdout) ? 1 : 0;
}

/* Prints the usage and returns 2. */
static int usage(void)
{
	fputs("usage: stealprobe splice [-M] [-m] [-l] [-H] [-o OFFSET] DST\n"
	      "       stealprobe filemove [-M] [-m] [-o OFFSET] SRC DST\n"
	      "       stealprobe hugeread FILE\n"
	      "       stealprobe gift [-f FILE [-t]] SIZE DST\n"
	      "       stealprobe pieces COUNT SIZE DST\n"
	      "       stealprobe dio-pin SRC DST SIZE RELEASE TEXT | hog LEAVE\n"
	      "       stealprobe pattern SIZE | mmap FILE\n"
	      "       stealprobe acct FILE|-\n"
	      "       stealprobe time COMMAND [ARG]...\n"
	      "       stealprobe time-pipe SIZE COMMAND [ARG]...\n"
	      "       stealprobe mount [-r] DIR [DATA]\n"
	      "       stealprobe fsconfig [-r] DIR PARAM...\n"
	      "       stealprobe as ID COMMAND [ARG]...\n"
	      "       stealprobe frames FILE\n", stderr);
	return 2;
}

/* The lines cmd_splice() prints, touched before it splices. */
static char report_line[128];

/*
 * Writes "@what @number" or "@what @word" (@word not NULL) and a newline to
 * stdout with write(2), from report_line.  After a splice failed with
 * ENOMEM in a memory cgroup at its limit, touching a page not touched
 * before (stdio's buffer, a deeper stack) would have the process OOM-killed
 * instead of reporting.
 */
static void report_raw(const char *what, uint64_t number, const char *word)
{
	char digits[24], *d = digits + sizeof(digits);
	size_t n = 0;

	*--d = '\0';
	do
		*--d = (char)('0' + number % 10);
	while ((number /= 10) && d > digits);
	for (const char *p = what; *p && n < sizeof(report_line) - 2; p++)
		report_line[n++] = *p;
	report_line[n++] = ' ';
	for (const char *p = word ? word : d; *p && n < sizeof(report_line) - 1; p++)
		report_line[n++] = *p;
	report_line[n++] = '\n';
	if (write(1, report_line, n) != (ssize_t)n)
		exit(1);
}

/*
 * Splices stdin (a pipe) to @dst at @offset with @flags; with @mapped keeps
 * @dst mapped (and mlocked with @locked) during the move and checks the
 * mapping after it; with @held keeps references to @dst's pages in a pipe
 * during the move.  Prints "spliced BYTES", and "error ENAME" when a splice
 * fails; then exits 1 without touching another page (see report_raw()).
 * Returns 0, or 1 when closing @dst fails.
 */
static int cmd_splice(const char *dst, loff_t offset, unsigned int flags,
		      int mapped, int locked, int held)
{
	int out = open_out(dst), refs[2] = { -1, -1 }, err;
	struct mapping map = { NULL, 0 };
	uint64_t moved = 0;

	if (mapped)
		map_file(dst, &map, locked);
	if (held)
		hold_refs(dst, refs);
	grow_pipe(0);
	memset(report_line, ' ', sizeof(report_line));
	errno_name(0);
	err = drain(0, out, &offset, flags, &moved);
	report_raw("spliced", moved, NULL);
	if (err) {
		report_raw("error", 0, errno_name(err));
		_exit(1);	/* exit() would write to a page of ours */
	}
	if (mapped)
		check_mapping(dst, &map);
	if (held) {
		close(refs[0]);
		close(refs[1]);
	}
	return close(out) < 0;
}

int main(int argc, char **argv)
{
	unsigned int flags = 0;
	loff_t offset = 0;
	const char *cmd;
	int opt, mapped = 0, remount = 0, locked = 0, held = 0, trunc = 0;
	const char *file = NULL;

	if (argc < 2)
		return usage();
	cmd = argv[1];
	if (!strcmp(cmd, "as") && argc > 3)
		return cmd_as(argv[2], argv + 3);
	if (!strcmp(cmd, "time") && argc > 2)
		return cmd_time(argv + 2);
	if (!strcmp(cmd, "time-pipe") && argc > 3)
		return cmd_time_pipe(parse_size(argv[2]), argv + 3);
	argv++, argc--;
	while ((opt = getopt(argc, argv, "+MmlHrtf:o:")) != -1) {
		if (opt == 'M')
			flags |= SPLICE_F_MOVE;
		else if (opt == 'm')
			mapped = 1;
		else if (opt == 'l')
			locked = 1;
		else if (opt == 'H')
			held = 1;
		else if (opt == 't')
			trunc = 1;
		else if (opt == 'f')
			file = optarg;
		else if (opt == 'r')
			remount = 1;
		else if (opt == 'o')
			offset = (loff_t)parse_size(optarg);
		else
			return usage();
	}
	argv += optind;
	argc -= optind;

	if (!strcmp(cmd, "splice") && argc == 1)
		return cmd_splice(argv[0], offset, flags, mapped, locked, held);
	if (!strcmp(cmd, "filemove") && argc == 2) {
		int in = open(argv[0], O_RDONLY), out = open_out(argv[1]);
		struct mapping map = { NULL, 0 };
		if (in < 0)
			die(argv[0]);
		if (mapped)
			map_file(argv[0], &map, 0);
		printf("moved %llu\n",
		       (unsigned long long)file_move(in, out, offset, flags));
		if (mapped)
			check_mapping(argv[0], &map);
		return close(out) < 0;
	}
	if (!strcmp(cmd, "gift") && argc == 2)
		return cmd_gift(file, trunc, parse_size(argv[0]), argv[1]);
	if (!strcmp(cmd, "pieces") && argc == 3)
		return cmd_pieces(parse_size(argv[0]), parse_size(argv[1]), argv[2]);
	if (!strcmp(cmd, "dio-pin") && argc == 5)
		return cmd_dio_pin(argv[0], argv[1], parse_size(argv[2]), argv[3],
				   argv[4]);
	if (!strcmp(cmd, "hog") && argc == 1)
		cmd_hog(parse_size(argv[0]));
	if (!strcmp(cmd, "frames") && argc == 1)
		return cmd_frames(argv[0]);
	if (!strcmp(cmd, "hugeread") && argc == 1)
		return cmd_hugeread(argv[0]);
	if (!strcmp(cmd, "pattern") && argc == 1)
		return cmd_pattern(parse_size(argv[0]));
	if (!strcmp(cmd, "mmap") && argc == 1)
		return cmd_mmap(argv[0]);
	if (!strcmp(cmd, "acct") && argc == 1)
		return cmd_acct(argv[0]);
	if (!strcmp(cmd, "mount") && (argc == 1 || argc == 2))
		return cmd_mount(argv[0], argc == 2 ? argv[1] : NULL, remount);
	if (!strcmp(cmd, "fsconfig") && argc >= 1)
		return cmd_fsconfig(argv[0], argv + 1, argc - 1, remount);
	return usage();
}
