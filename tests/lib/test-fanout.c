/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for sp_fanout(): one input to many outputs. */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libsplice.h"
#include "copy-calls.h"
#include "ways.h"
#include "harness.h"

#define MAX_OUT 64

/* Whether the file fd holds exactly data[0..size-1] (after skip bytes). */
static bool file_holds(int fd, off_t skip, const char *data, size_t size)
{
	struct stat st;
	ck_assert_int_eq(fstat(fd, &st), 0);
	if ((size_t)st.st_size != (size_t)skip + size)
		return false;
	char *got = malloc(size ? size : 1);
	ck_assert_ptr_nonnull(got);
	ssize_t n = size ? pread(fd, got, size, skip) : 0;
	bool same = n == (ssize_t)size && memcmp(got, data, size) == 0;
	free(got);
	return same;
}

/* In a child: keep only fds 0-2 and keep_a, keep_b, which are moved to
 * 100 and 101 (returned there), so that no pipe end of the test stays open
 * in it. */
static void child_fds(int *keep_a, int *keep_b)
{
	if (dup2(*keep_a, 100) < 0 || dup2(*keep_b, 101) < 0)
		_exit(2);
	close_range(3, 99, 0);
	close_range(102, ~0U, 0);
	*keep_a = 100;
	*keep_b = 101;
}

/* A pipe whose read end gets data[0..size-1] from a child, written in
 * pieces of step bytes; returns the read end. */
static int feeder(const char *data, size_t size, size_t step)
{
	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	/* The child asserts nothing: a passing ck_assert() writes its place
	 * to Check's message channel, which a child shares with the test. */
	pid_t pid = fork();
	if (pid == 0) {
		int unused = 2;
		child_fds(&p[1], &unused);
		for (size_t off = 0; off < size;) {
			size_t want = size - off < step ? size - off : step;
			ssize_t w = write(p[1], data + off, want);
			if (w <= 0)
				_exit(1);
			off += (size_t)w;
		}
		_exit(0);
	}
	ck_assert_int_ge(pid, 0);
	close(p[1]);
	return p[0];
}

/* A reader child that copies a pipe into the file sink, reading up to
 * step bytes at a time and pausing delay_us between reads. */
struct collector {
	pid_t pid;
	int write_end;
};

static struct collector collect(int sink, size_t step, unsigned delay_us, bool nonblock)
{
	int p[2];
	ck_assert_int_eq(pipe2(p, nonblock ? O_NONBLOCK : 0), 0);
	pid_t pid = fork(); /* asserted in the parent only (feeder()) */
	if (pid == 0) {
		child_fds(&p[0], &sink);
		fcntl(p[0], F_SETFL, 0);
		char *buf = malloc(step);
		for (;;) {
			ssize_t n = read(p[0], buf, step);
			if (n <= 0)
				_exit(n < 0);
			if (write(sink, buf, (size_t)n) != n)
				_exit(1);
			if (delay_us)
				usleep(delay_us);
		}
	}
	ck_assert_int_ge(pid, 0);
	return (struct collector){ pid, p[1] };
}

/* Close the collector's pipe and wait for it to finish. */
static void finish(struct collector c)
{
	int status;
	close(c.write_end);
	ck_assert_int_eq(waitpid(c.pid, &status, 0), c.pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static struct sp_mover *new_mover(struct way way, size_t pipe_size)
{
	struct sp_options o = { .size = sizeof(struct sp_options), .policy = way.policy, .path = way.path, .pipe_size = pipe_size };
	struct sp_mover *m;
	ck_assert_int_eq(sp_mover_new(&m, &o), 0);
	return m;
}

/* What the error callback saw. */
struct seen {
	int calls;
	size_t index;
	int err;
	int stop;   /* what to answer */
};

static int record_error(size_t index, int err, void *arg)
{
	struct seen *s = arg;
	s->calls++;
	s->index = index;
	s->err = err;
	return s->stop;
}

/* A pipe input to a pipe, a file and an O_APPEND file: all get the bytes;
 * tee(2) and splice did the work, write(2) only for the appending file. */
START_TEST(pipe_to_mixed_outputs)
{
	struct sp_result res = RESULT_INIT;
	size_t size = 3 * 1024 * 1024 + 1;
	char *data = pattern_data(size, 1);
	int in = feeder(data, size, 100000);
	int sink = temp_file(0), plain = temp_file(0), app = temp_file(O_APPEND);
	ck_assert_int_eq(write(app, "old", 3), 3);
	struct collector c = collect(sink, 65536, 0, false);
	int outs[] = { c.write_end, plain, app };
	struct sp_fanout_status st[3];
	struct sp_mover *m = new_mover(WAY_SPLICE_OR_RW, 0);

	ck_assert_int_eq(sp_fanout(m, in, outs, 3, st, sizeof(struct sp_fanout_status), NULL, NULL, &res), (int64_t)size);
	finish(c);
	ck_assert(file_holds(sink, 0, data, size));
	ck_assert(file_holds(plain, 0, data, size));
	ck_assert(file_holds(app, 3, data, size));
	for (int i = 0; i < 3; i++) {
		ck_assert_uint_eq(st[i].bytes, size);
		ck_assert_int_eq(st[i].error, 0);
	}
	ck_assert_int_eq(st[0].copied, 0);
	ck_assert_int_eq(st[1].copied, 0);
	ck_assert_int_ne(st[2].copied, 0);
	const struct sp_stats s_now = stats_of(m), *s = &s_now;
	ck_assert_uint_eq(s->bytes, 3 * size);
	ck_assert_uint_eq(s->bytes_spliced, 2 * size);
	ck_assert_uint_gt(s->tee_calls, 0);
	ck_assert_uint_eq(res.bytes, size);
	sp_mover_free(m);
	free(data);
}
END_TEST

/* A regular file as input goes through the stage too. */
START_TEST(file_input)
{
	size_t size = 2 * 1024 * 1024 + 4095;
	char *data = pattern_data(size, 1);
	int in = temp_file(0);
	ck_assert_int_eq(write(in, data, size), (ssize_t)size);
	ck_assert_int_eq(lseek(in, 0, SEEK_SET), 0);
	int outs[3];
	for (int i = 0; i < 3; i++)
		outs[i] = temp_file(0);
	struct sp_fanout_status st[3];
	struct sp_mover *m = new_mover(WAY_SPLICE_OR_RW, 0);
	ck_assert_int_eq(sp_fanout(m, in, outs, 3, st, sizeof(struct sp_fanout_status), NULL, NULL, NULL), (int64_t)size);
	for (int i = 0; i < 3; i++)
		ck_assert(file_holds(outs[i], 0, data, size));
	ck_assert_uint_eq(stats_of(m).bytes_copied, 0);
	ck_assert_int_eq(lseek(in, 0, SEEK_CUR), (off_t)size);
	sp_mover_free(m);
	free(data);
}
END_TEST

/* Empty input: nothing written, 0 returned. */
START_TEST(empty_input)
{
	int in = feeder("", 0, 1);
	int out = temp_file(0);
	struct sp_fanout_status st[1];
	struct sp_mover *m = new_mover(WAY_SPLICE_OR_RW, 0);
	ck_assert_int_eq(sp_fanout(m, in, &out, 1, st, sizeof(struct sp_fanout_status), NULL, NULL, NULL), 0);
	ck_assert(file_holds(out, 0, "", 0));
	sp_mover_free(m);
}
END_TEST

/* No outputs: the input is left untouched. */
START_TEST(no_outputs)
{
	int in = feeder("abc", 3, 3);
	struct sp_mover *m = new_mover(WAY_SPLICE_OR_RW, 0);
	ck_assert_int_eq(sp_fanout(m, in, NULL, 0, NULL, sizeof(struct sp_fanout_status), NULL, NULL, NULL), 0);
	char buf[4];
	ck_assert_int_eq(read(in, buf, sizeof(buf)), 3);
	sp_mover_free(m);
}
END_TEST

START_TEST(no_mover_refused)
{
	int in = feeder("abc", 3, 3);
	int out = temp_file(0);
	struct sp_fanout_status st[1];
	ck_assert_int_eq(sp_fanout(NULL, in, &out, 1, st, sizeof(struct sp_fanout_status), NULL, NULL, NULL), -EINVAL);
}
END_TEST

/* 64 outputs at once, sizes around the pipe size. */
START_TEST(many_outputs)
{
	static const size_t sizes[] = { 1, 65536, 1024 * 1024, 1024 * 1024 + 1 };
	size_t size = sizes[_i];
	char *data = pattern_data(size, 1);
	int in = feeder(data, size, 4096);
	int outs[MAX_OUT];
	for (int i = 0; i < MAX_OUT; i++)
		outs[i] = temp_file(0);
	struct sp_fanout_status st[MAX_OUT];
	struct sp_mover *m = new_mover(WAY_SPLICE_OR_RW, 0);
	ck_assert_int_eq(sp_fanout(m, in, outs, MAX_OUT, st, sizeof(struct sp_fanout_status), NULL, NULL, NULL), (int64_t)size);
	for (int i = 0; i < MAX_OUT; i++) {
		ck_assert(file_holds(outs[i], 0, data, size));
		close(outs[i]);
	}
	sp_mover_free(m);
	free(data);
}
END_TEST

/* A pipe without readers fails with EPIPE: the callback hears of it, the
 * output is dropped, the others get everything. */
START_TEST(broken_pipe_dropped)
{
	struct sp_result res = RESULT_INIT;
	signal(SIGPIPE, SIG_IGN);
	size_t size = 300000;
	char *data = pattern_data(size, 1);
	int in = feeder(data, size, 65536);
	int dead[2];
	ck_assert_int_eq(pipe(dead), 0);
	close(dead[0]);
	int outs[] = { temp_file(0), dead[1], temp_file(0) };
	struct sp_fanout_status st[3];
	struct seen seen = { 0 };
	struct sp_mover *m = new_mover(WAY_SPLICE_OR_RW, 0);
	ck_assert_int_eq(sp_fanout(m, in, outs, 3, st, sizeof(struct sp_fanout_status), record_error, &seen, &res), (int64_t)size);
	ck_assert_int_eq(seen.calls, 1);
	ck_assert_uint_eq(seen.index, 1);
	ck_assert_int_eq(seen.err, EPIPE);
	ck_assert_int_eq(st[1].error, EPIPE);
	ck_assert_uint_eq(st[1].bytes, 0);
	ck_assert(file_holds(outs[0], 0, data, size));
	ck_assert(file_holds(outs[2], 0, data, size));
	ck_assert_int_eq(res.side, SP_SIDE_NONE);
	sp_mover_free(m);
	free(data);
}
END_TEST

/* The callback may stop the whole fan-out. */
START_TEST(error_callback_stops)
{
	struct sp_result res = RESULT_INIT;
	signal(SIGPIPE, SIG_IGN);
	char *data = pattern_data(1000, 1);
	int in = feeder(data, 1000, 1000);
	int dead[2];
	ck_assert_int_eq(pipe(dead), 0);
	close(dead[0]);
	int outs[] = { dead[1], temp_file(0) };
	struct sp_fanout_status st[2];
	struct seen seen = { .stop = 1 };
	struct sp_mover *m = new_mover(WAY_SPLICE_OR_RW, 0);
	ck_assert_int_eq(sp_fanout(m, in, outs, 2, st, sizeof(struct sp_fanout_status), record_error, &seen, &res), -EPIPE);
	ck_assert_int_eq(res.side, SP_SIDE_OUTPUT);
	ck_assert_int_eq(seen.calls, 1);
	ck_assert(file_holds(outs[1], 0, "", 0));
	sp_mover_free(m);
	free(data);
}
END_TEST

/* When every output has gone, reading stops. */
START_TEST(all_outputs_gone)
{
	signal(SIGPIPE, SIG_IGN);
	int dead[2];
	ck_assert_int_eq(pipe(dead), 0);
	close(dead[0]);
	int in = open("/dev/zero", O_RDONLY);
	struct sp_fanout_status st[2];
	int outs[] = { dead[1], open("/dev/full", O_WRONLY) };
	struct sp_mover *m = new_mover(WAY_SPLICE_OR_RW, 0);
	/* The first chunk is read, then nothing more. */
	int64_t got = sp_fanout(m, in, outs, 2, st, sizeof(struct sp_fanout_status), NULL, NULL, NULL);
	ck_assert(got >= 0 && (size_t)got <= sp_pipe_size(m));
	ck_assert_int_eq(st[0].error, EPIPE);
	ck_assert_int_eq(st[1].error, ENOSPC);
	sp_mover_free(m);
}
END_TEST

/* read/write only copies everything through user memory. */
START_TEST(read_write_method)
{
	size_t size = 1500000;
	char *data = pattern_data(size, 1);
	int in = feeder(data, size, 3000);
	int outs[] = { temp_file(0), temp_file(0) };
	struct sp_fanout_status st[2];
	struct sp_mover *m = new_mover(WAY_RW_ONLY, 0);
	ck_assert_int_eq(sp_fanout(m, in, outs, 2, st, sizeof(struct sp_fanout_status), NULL, NULL, NULL), (int64_t)size);
	ck_assert(file_holds(outs[0], 0, data, size));
	ck_assert(file_holds(outs[1], 0, data, size));
	const struct sp_stats s_now = stats_of(m), *s = &s_now;
	ck_assert_uint_eq(s->bytes_spliced, 0);
	ck_assert_uint_eq(s->splice_calls + s->tee_calls, 0);
	sp_mover_free(m);
	free(data);
}
END_TEST

/* Slow readers: output pipes that fill up make tee(2) stop short; the rest
 * of each chunk must follow exactly.  Non-blocking ones are polled. */
START_TEST(slow_readers)
{
	bool nonblock = _i;
	size_t size = 2 * 1024 * 1024 + 77;
	char *data = pattern_data(size, 1);
	int in = feeder(data, size, 1 << 20);
	int s1 = temp_file(0), s2 = temp_file(0), plain = temp_file(0);
	struct collector c1 = collect(s1, 4096, 200, nonblock);
	struct collector c2 = collect(s2, 100000, 0, nonblock);
	int outs[] = { c1.write_end, plain, c2.write_end };
	struct sp_fanout_status st[3];
	struct sp_mover *m = new_mover(WAY_SPLICE_OR_RW, 256 * 1024);
	ck_assert_int_eq(sp_fanout(m, in, outs, 3, st, sizeof(struct sp_fanout_status), NULL, NULL, NULL), (int64_t)size);
	finish(c1);
	finish(c2);
	ck_assert(file_holds(s1, 0, data, size));
	ck_assert(file_holds(s2, 0, data, size));
	ck_assert(file_holds(plain, 0, data, size));
	if (nonblock)
		ck_assert_uint_gt(stats_of(m).poll_calls, 0);
	ck_assert_uint_eq(stats_of(m).bytes_copied, 0);
	sp_mover_free(m);
	free(data);
}
END_TEST

/* An input that fails is reported as the input's error. */
START_TEST(directory_input_is_an_input_error)
{
	struct sp_result res = RESULT_INIT;
	int dir = open("/", O_RDONLY | O_DIRECTORY);
	int out = temp_file(0);
	struct sp_fanout_status st[1];
	struct sp_mover *m = new_mover(WAY_SPLICE_OR_RW, 0);
	ck_assert_int_eq(sp_fanout(m, dir, &out, 1, st, sizeof(struct sp_fanout_status), NULL, NULL, &res), -EISDIR);
	ck_assert_int_eq(res.side, SP_SIDE_INPUT);
	sp_mover_free(m);
}
END_TEST

START_TEST(bad_input_fd_is_an_input_error)
{
	struct sp_result res = RESULT_INIT;
	int out = temp_file(0);
	struct sp_fanout_status st[1];
	struct sp_mover *m = new_mover(WAY_SPLICE_OR_RW, 0);
	ck_assert_int_eq(sp_fanout(m, -1, &out, 1, st, sizeof(struct sp_fanout_status), NULL, NULL, &res), -EBADF);
	ck_assert_int_eq(res.side, SP_SIDE_INPUT);
	sp_mover_free(m);
}
END_TEST

/* 5000 bytes from a pipe to the device at path (opened for writing) and a
 * file, which must get them all; returns what sp_fanout() returned and
 * leaves the device's status in *dev and the error callback's in *seen. */
static int64_t to_device_and_file(const char *path, struct sp_fanout_status *dev,
				  struct seen *seen)
{
	char *data = pattern_data(5000, 1);
	int in = feeder(data, 5000, 5000);
	int outs[] = { open(path, O_WRONLY), temp_file(0) };
	ck_assert_int_ge(outs[0], 0);
	struct sp_fanout_status st[2];
	struct sp_mover *m = new_mover(WAY_SPLICE_OR_RW, 0);
	int64_t r = sp_fanout(m, in, outs, 2, st, sizeof(struct sp_fanout_status), record_error, seen, NULL);
	ck_assert(file_holds(outs[1], 0, data, 5000));
	*dev = st[0];
	sp_mover_free(m);
	free(data);
	return r;
}

/* A device splice refuses (/dev/full) falls back to write(2) and fails
 * there. */
START_TEST(full_device_dropped)
{
	struct sp_fanout_status dev;
	struct seen seen = { 0 };
	ck_assert_int_eq(to_device_and_file("/dev/full", &dev, &seen), 5000);
	ck_assert_int_eq(seen.calls, 1);
	ck_assert_int_eq(dev.error, ENOSPC);
}
END_TEST

/* A tty-less character device splice takes (/dev/null) is spliced. */
START_TEST(null_device_spliced)
{
	struct sp_fanout_status dev;
	struct seen seen = { 0 };
	ck_assert_int_eq(to_device_and_file("/dev/null", &dev, &seen), 5000);
	ck_assert_uint_eq(dev.bytes, 5000);
	ck_assert_int_eq(dev.copied, 0);
}
END_TEST

/* Files that fail part way (EFBIG past RLIMIT_FSIZE), whether the main
 * thread or a helper thread writes them, are dropped; the pipe gets all. */
START_TEST(files_failing_later)
{
	signal(SIGXFSZ, SIG_IGN);
	size_t size = 4 * 1024 * 1024 + 5, limit = 1536 * 1024;
	char *data = pattern_data(size, 1);
	int in = feeder(data, size, 1 << 20);
	int sink = temp_file(0);
	struct collector c = collect(sink, 65536, 0, false);
	struct rlimit rl;
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &rl), 0);
	rl.rlim_cur = limit;
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	int outs[] = { temp_file(0), c.write_end, temp_file(0), temp_file(0) };
	struct sp_fanout_status st[4];
	struct seen seen = { 0 };
	struct sp_mover *m = new_mover(WAY_SPLICE_OR_RW, 0);
	ck_assert_int_eq(sp_fanout(m, in, outs, 4, st, sizeof(struct sp_fanout_status), record_error, &seen, NULL), (int64_t)size);
	rl.rlim_cur = rl.rlim_max;
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	finish(c);
	ck_assert(file_holds(sink, 0, data, size));
	ck_assert_int_eq(seen.calls, 3);
	for (int i = 0; i < 4; i += i == 0 ? 2 : 1) {
		ck_assert_int_eq(st[i].error, EFBIG);
		ck_assert_uint_eq(st[i].bytes, limit);
		ck_assert(file_holds(outs[i], 0, data, limit));
	}
	sp_mover_free(m);
	free(data);
}
END_TEST

/* A set cancel flag stops the transfer. */
START_TEST(cancelled)
{
	struct sp_result res = RESULT_INIT;
	static volatile sig_atomic_t stop = 1;
	struct sp_options o = { .size = sizeof(struct sp_options), .cancel = &stop };
	struct sp_mover *m;
	ck_assert_int_eq(sp_mover_new(&m, &o), 0);
	int in = open("/dev/zero", O_RDONLY);
	int out = open("/dev/null", O_WRONLY);
	struct sp_fanout_status st[1];
	ck_assert_int_eq(sp_fanout(m, in, &out, 1, st, sizeof(struct sp_fanout_status), NULL, NULL, &res), -ECANCELED);
	ck_assert_int_eq(res.side, SP_SIDE_NONE);
	sp_mover_free(m);
}
END_TEST

/* The thread that handled the last SIGUSR1 (0: none yet). */
static volatile pid_t usr1_thread;

static void note_usr1_thread(int sig)
{
	(void)sig;
	usr1_thread = gettid();
}

/* How many threads the process has now. */
static int thread_count(void)
{
	DIR *dir = opendir("/proc/self/task");
	ck_assert_ptr_nonnull(dir);
	int n = 0;
	for (struct dirent *e; (e = readdir(dir));)
		n += e->d_name[0] != '.';
	closedir(dir);
	return n;
}

/* A progress callback (it runs on the calling thread): at the second chunk,
 * note how many threads there are in *arg, then send the process SIGUSR1
 * while this thread blocks it, so that the kernel hands it to any other
 * thread that does not; give such a thread a moment to take it, then
 * unblock it here. */
static int signal_the_process(const struct sp_stats *stats, void *arg)
{
	int *threads = arg;
	static int chunks;
	(void)stats;
	/* The helper threads start with the second chunk. */
	if (*threads || ++chunks < 2)
		return 0;
	*threads = thread_count();
	sigset_t usr1;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	ck_assert_int_eq(pthread_sigmask(SIG_BLOCK, &usr1, NULL), 0);
	ck_assert_int_eq(kill(getpid(), SIGUSR1), 0);
	for (int waited = 0; !usr1_thread && waited < 200; waited++)
		usleep(1000);
	ck_assert_int_eq(pthread_sigmask(SIG_UNBLOCK, &usr1, NULL), 0);
	return 0;
}

/* A signal sent to the process while helper threads copy into files is
 * handled by the thread that called sp_fanout(). */
START_TEST(signals_reach_the_calling_thread)
{
	struct sigaction sa = { .sa_handler = note_usr1_thread };
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	size_t size = 4 * 1024 * 1024;
	char *data = pattern_data(size, 1);
	int in = feeder(data, size, 1 << 20);
	int outs[] = { temp_file(0), temp_file(0), temp_file(0) };
	struct sp_fanout_status st[3];
	int threads = 0;
	struct sp_options o = { .size = sizeof(struct sp_options), .pipe_size = 256 * 1024, .progress = signal_the_process,
				.progress_arg = &threads };
	struct sp_mover *m;
	ck_assert_int_eq(sp_mover_new(&m, &o), 0);
	ck_assert_int_eq(sp_fanout(m, in, outs, 3, st, sizeof(struct sp_fanout_status), NULL, NULL, NULL), (int64_t)size);
	cpu_set_t cpus;
	ck_assert_int_eq(sched_getaffinity(0, sizeof(cpus), &cpus), 0);
	if (CPU_COUNT(&cpus) > 1)
		ck_assert_int_gt(threads, 1); /* helper threads were there to take it */
	ck_assert_int_eq(usr1_thread, gettid());
	for (int i = 0; i < 3; i++)
		ck_assert(file_holds(outs[i], 0, data, size));
	sp_mover_free(m);
	free(data);
}
END_TEST

static Suite *fanout_suite(void)
{
	Suite *s = suite_create("fanout");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, pipe_to_mixed_outputs);
	tcase_add_test(tc, file_input);
	tcase_add_test(tc, empty_input);
	tcase_add_test(tc, no_outputs);
	tcase_add_test(tc, no_mover_refused);
	tcase_add_loop_test(tc, many_outputs, 0, 4);
	tcase_add_test(tc, broken_pipe_dropped);
	tcase_add_test(tc, error_callback_stops);
	tcase_add_test(tc, all_outputs_gone);
	tcase_add_test(tc, read_write_method);
	tcase_add_loop_test(tc, slow_readers, 0, 2);
	tcase_add_test(tc, directory_input_is_an_input_error);
	tcase_add_test(tc, bad_input_fd_is_an_input_error);
	tcase_add_test(tc, full_device_dropped);
	tcase_add_test(tc, null_device_spliced);
	tcase_add_test(tc, files_failing_later);
	tcase_add_test(tc, cancelled);
	tcase_add_test(tc, signals_reach_the_calling_thread);
	suite_add_tcase(s, tc);
	return s;
}

Suite *(*const harness_suites[])(void) = { fanout_suite, NULL };
