/*
 * stealprobe - the guest suite's probe for stealfs: splices data into a
 * file with or without SPLICE_F_MOVE, gifts pages with vmsplice, checks mmap
 * and truncate on a file, and times pipe- and file-sourced moves.
 *
 *   stealprobe splice [-M] [-m] [-o OFFSET] DST  stdin (a pipe) -> DST at
 *                                             OFFSET
 *   stealprobe filemove [-M] [-m] SRC DST     SRC -> private pipe -> DST
 *     -M: SPLICE_F_MOVE; -m: keep DST (splice) or SRC (filemove) mapped
 *     during the move, then check the mapping shows the file's data
 *   stealprobe gift SIZE DST                  vmsplice(SPLICE_F_GIFT) SIZE
 *                                             bytes of a pattern, then splice
 *                                             them to DST with SPLICE_F_MOVE
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
 *
 * Built statically for the VM (contrib/stealfs/tests/check-vm.sh); exits 0 on success,
 * 1 on a failed check, 2 on a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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
 * Splices everything from pipe @in to @out at *@off; returns the bytes
 * moved, exits on error.
 */
static uint64_t drain(int in, int out, loff_t *off, unsigned int flags)
{
	uint64_t total = 0;

	for (;;) {
		ssize_t n = splice(in, NULL, out, off, PIPE_BYTES, flags);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("splice to file");
		if (n == 0)
			return total;
		total += (uint64_t)n;
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

/* Moves @in (a file) to @out at offset 0 through a pipe; returns bytes. */
static uint64_t file_move(int in, int out, unsigned int flags)
{
	int p[2];
	loff_t off = 0;
	uint64_t total = 0;

	if (pipe(p) < 0)
		die("pipe");
	grow_pipe(p[1]);
	for (;;) {
		ssize_t n = splice(in, NULL, p[1], NULL, PIPE_BYTES, 0);

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
 * Gifts @size bytes (a multiple of the page size) of the pattern to a pipe
 * with vmsplice, unmaps them, splices them to @dst with SPLICE_F_MOVE and
 * checks the file.  Returns 0, exits 1 on a mismatch.
 */
static int cmd_gift(size_t size, const char *dst)
{
	int p[2], out = open_out(dst);
	loff_t off = 0;

	if (size % PAGE || size > PIPE_BYTES)
		fail("gift size must be whole pages, at most 1M");
	if (pipe(p) < 0)
		die("pipe");
	grow_pipe(p[1]);
	unsigned char *mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		die("mmap");
	fill_pattern(mem, size, 0);
	struct iovec iov = { mem, size };
	while (iov.iov_len) {
		ssize_t n = vmsplice(p[1], &iov, 1, SPLICE_F_GIFT);

		if (n <= 0)
			die("vmsplice");
		iov.iov_base = (char *)iov.iov_base + n;
		iov.iov_len -= (size_t)n;
	}
	if (munmap(mem, size) < 0)
		die("munmap");
	close(p[1]);
	if (drain(p[0], out, &off, SPLICE_F_MOVE) != size)
		fail("gift: short splice");
	close(out);

	unsigned char *got = malloc(size), *want = malloc(size);
	int in = open(dst, O_RDONLY);
	if (!got || !want || in < 0)
		die("gift: check");
	if (read(in, got, size) != (ssize_t)size)
		die("gift: read back");
	fill_pattern(want, size, 0);
	if (memcmp(got, want, size))
		fail("gift: data differs");
	printf("gift: ok\n");
	return 0;
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
 * while data moves from or to it.  Exits on error.
 */
static void map_file(const char *path, struct mapping *map)
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
	for (size_t i = 0; i < map->size; i += PAGE)
		sum += map->addr[i];
	close(fd);
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

/* Prints the usage and returns 2. */
static int usage(void)
{
	fputs("usage: stealprobe splice [-M] [-m] [-o OFFSET] DST\n"
	      "       stealprobe filemove [-M] [-m] SRC DST\n"
	      "       stealprobe gift SIZE DST | pattern SIZE | mmap FILE\n"
	      "       stealprobe acct FILE|-\n"
	      "       stealprobe time COMMAND [ARG]...\n"
	      "       stealprobe time-pipe SIZE COMMAND [ARG]...\n"
	      "       stealprobe mount [-r] DIR [DATA]\n"
	      "       stealprobe fsconfig [-r] DIR PARAM...\n", stderr);
	return 2;
}

int main(int argc, char **argv)
{
	unsigned int flags = 0;
	loff_t offset = 0;
	const char *cmd;
	int opt, mapped = 0, remount = 0;

	if (argc < 2)
		return usage();
	cmd = argv[1];
	if (!strcmp(cmd, "time") && argc > 2)
		return cmd_time(argv + 2);
	if (!strcmp(cmd, "time-pipe") && argc > 3)
		return cmd_time_pipe(parse_size(argv[2]), argv + 3);
	argv++, argc--;
	while ((opt = getopt(argc, argv, "+Mmro:")) != -1) {
		if (opt == 'M')
			flags |= SPLICE_F_MOVE;
		else if (opt == 'm')
			mapped = 1;
		else if (opt == 'r')
			remount = 1;
		else if (opt == 'o')
			offset = (loff_t)parse_size(optarg);
		else
			return usage();
	}
	argv += optind;
	argc -= optind;

	if (!strcmp(cmd, "splice") && argc == 1) {
		int out = open_out(argv[0]);
		struct mapping map = { NULL, 0 };
		if (mapped)
			map_file(argv[0], &map);
		grow_pipe(0);
		printf("spliced %llu\n",
		       (unsigned long long)drain(0, out, &offset, flags));
		if (mapped)
			check_mapping(argv[0], &map);
		return close(out) < 0;
	}
	if (!strcmp(cmd, "filemove") && argc == 2) {
		int in = open(argv[0], O_RDONLY), out = open_out(argv[1]);
		struct mapping map = { NULL, 0 };
		if (in < 0)
			die(argv[0]);
		if (mapped)
			map_file(argv[0], &map);
		printf("moved %llu\n",
		       (unsigned long long)file_move(in, out, flags));
		if (mapped)
			check_mapping(argv[0], &map);
		return close(out) < 0;
	}
	if (!strcmp(cmd, "gift") && argc == 2)
		return cmd_gift(parse_size(argv[0]), argv[1]);
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
