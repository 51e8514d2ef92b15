/* Unit tests for sp_move(): every path, fallback and error of the mover. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "faults.h"
#include "harness.h"
#include "libsplice.h"

#define MiB (1024 * 1024)

static struct sp_mover *mover_with(const struct sp_options *o)
{
	struct sp_mover *m;
	ck_assert_int_eq(sp_mover_new(&m, o), 0);
	return m;
}

static int open_path(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	return fd;
}

/* Copy a fresh n-byte file to a scratch output opened with out_flags and
 * check the output; returns what sp_move() returned. */
static int64_t copy_file(struct sp_mover *m, size_t n, int out_flags)
{
	char *data;
	const char *src = make_file("src", n, (unsigned)n, &data);
	int in = open_path(src, O_RDONLY);
	int out = open_scratch("dst", O_WRONLY | O_TRUNC | out_flags);
	int64_t r = sp_move(m, in, out, SP_OFFSET_CURRENT, SP_LENGTH_EOF);
	close(in);
	close(out);
	if (r >= 0) {
		size_t got;
		char *back = slurp(scratch_path("dst"), &got);
		ck_assert_uint_eq(got, n);
		ck_assert(memcmp(back, data, n) == 0);
		free(back);
	}
	free(data);
	return r;
}

/* Move n pattern bytes from a file into a pipe read by a thread; check them. */
static int64_t file_to_pipe(struct sp_mover *m, size_t n)
{
	char *data;
	const char *src = make_file("src", n, 7, &data);
	int in = open_path(src, O_RDONLY), p[2];
	ck_assert_int_eq(pipe(p), 0);
	struct drain *d = drain_start(p[0]);
	int64_t r = sp_move(m, in, p[1], SP_OFFSET_CURRENT, SP_LENGTH_EOF);
	close(p[1]);
	size_t got;
	char *back = drain_finish(d, &got);
	if (r >= 0) {
		ck_assert_uint_eq(got, n);
		ck_assert(memcmp(back, data, n) == 0);
	}
	free(back);
	free(data);
	close(in);
	return r;
}

START_TEST(file_to_file_sizes)
{
	static const size_t sizes[] = { 0, 1, 4095, 4096, 4097, 65535, 65536, 65537,
					MiB - 1, MiB, MiB + 1, 3 * MiB + 123 };
	struct sp_mover *m = mover_with(NULL);
	uint64_t total = 0;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		ck_assert_int_eq(copy_file(m, sizes[i], 0), (int64_t)sizes[i]);
		total += sizes[i];
	}
	const struct sp_stats *s = sp_get_stats(m);
	ck_assert_uint_eq(s->bytes, total);
	ck_assert_uint_eq(s->bytes_spliced, total);
	ck_assert_uint_eq(s->bytes_copied, 0);
	ck_assert_uint_eq(s->fallbacks, 0);
	ck_assert_uint_eq(s->read_calls + s->write_calls, 0);
	ck_assert_uint_ge(sp_pipe_size(m), 65536);
	sp_mover_free(m);
}
END_TEST

START_TEST(file_to_pipe_direct)
{
	struct sp_mover *m = mover_with(NULL);
	ck_assert_int_eq(file_to_pipe(m, 5 * MiB + 17), 5 * MiB + 17);
	ck_assert_uint_eq(sp_get_stats(m)->bytes_spliced, 5 * MiB + 17);
	ck_assert_uint_eq(sp_pipe_size(m), 0); /* no private pipe needed */
	sp_mover_free(m);
}
END_TEST

START_TEST(pipe_to_file_and_pipe)
{
	size_t n = 3 * MiB + 5;
	char *data = malloc(n);
	fill_pattern(data, n, 3);
	struct sp_mover *m = mover_with(NULL);

	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	struct feed *f = feed_start(p[1], data, n);
	int out = open_scratch("dst", O_WRONLY | O_TRUNC);
	ck_assert_int_eq(sp_move(m, p[0], out, SP_OFFSET_CURRENT, SP_LENGTH_EOF), (int64_t)n);
	feed_finish(f);
	close(p[0]);
	close(out);
	size_t got;
	char *back = slurp(scratch_path("dst"), &got);
	ck_assert_uint_eq(got, n);
	ck_assert(memcmp(back, data, n) == 0);
	free(back);

	int a[2], b[2];
	ck_assert_int_eq(pipe(a), 0);
	ck_assert_int_eq(pipe(b), 0);
	f = feed_start(a[1], data, n);
	struct drain *d = drain_start(b[0]);
	ck_assert_int_eq(sp_move(m, a[0], b[1], SP_OFFSET_CURRENT, SP_LENGTH_EOF), (int64_t)n);
	close(b[1]);
	feed_finish(f);
	back = drain_finish(d, &got);
	ck_assert_uint_eq(got, n);
	ck_assert(memcmp(back, data, n) == 0);
	ck_assert_uint_eq(sp_get_stats(m)->bytes_copied, 0);
	close(a[0]);
	free(back);
	free(data);
	sp_mover_free(m);
}
END_TEST

START_TEST(socket_both_ways)
{
	size_t n = 2 * MiB + 3;
	char *data;
	const char *src = make_file("src", n, 11, &data);
	struct sp_mover *m = mover_with(NULL);
	int sv[2];
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	struct drain *d = drain_start(sv[1]);
	int in = open_path(src, O_RDONLY);
	ck_assert_int_eq(sp_move(m, in, sv[0], SP_OFFSET_CURRENT, SP_LENGTH_EOF), (int64_t)n);
	close(sv[0]);
	size_t got;
	char *back = drain_finish(d, &got);
	ck_assert_uint_eq(got, n);
	ck_assert(memcmp(back, data, n) == 0);
	free(back);

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	struct feed *f = feed_start(sv[1], data, n);
	int out = open_scratch("dst", O_WRONLY | O_TRUNC);
	ck_assert_int_eq(sp_move(m, sv[0], out, SP_OFFSET_CURRENT, SP_LENGTH_EOF), (int64_t)n);
	feed_finish(f);
	close(sv[0]);
	close(out);
	close(in);
	free(data);
	sp_mover_free(m);
}
END_TEST

START_TEST(offset_and_length)
{
	char *data;
	const char *src = make_file("src", 100000, 5, &data);
	struct sp_mover *m = mover_with(NULL);
	int in = open_path(src, O_RDONLY);
	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	struct drain *d = drain_start(p[0]);
	ck_assert_int_eq(sp_move(m, in, p[1], 12345, 5000), 5000);
	ck_assert_int_eq(lseek(in, 0, SEEK_CUR), 0); /* an explicit offset leaves the position */
	ck_assert_int_eq(sp_move(m, in, p[1], 99000, 5000), 1000);   /* stops at end of file */
	ck_assert_int_eq(sp_move(m, in, p[1], 200000, 5000), 0);     /* past the end */
	ck_assert_int_eq(sp_move(m, in, p[1], SP_OFFSET_CURRENT, 10), 10);
	ck_assert_int_eq(sp_move(m, in, p[1], SP_OFFSET_CURRENT, 10), 10);
	ck_assert_int_eq(lseek(in, 0, SEEK_CUR), 20);
	ck_assert_int_eq(sp_move(m, in, p[1], 0, 0), 0);
	close(p[1]);
	size_t got;
	char *back = drain_finish(d, &got);
	ck_assert_uint_eq(got, 6020);
	ck_assert(memcmp(back, data + 12345, 5000) == 0);
	ck_assert(memcmp(back + 5000, data + 99000, 1000) == 0);
	ck_assert(memcmp(back + 6000, data, 20) == 0);
	ck_assert_int_eq(sp_move(m, in, 1, -5, 1), -EINVAL);
	free(back);
	free(data);
	close(in);
	sp_mover_free(m);
}
END_TEST

START_TEST(offset_on_pipe_skips)
{
	size_t n = 300000;
	char *data = malloc(n);
	fill_pattern(data, n, 9);
	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	struct feed *f = feed_start(p[1], data, n);
	struct sp_mover *m = mover_with(NULL);
	int out = open_scratch("dst", O_WRONLY | O_TRUNC);
	ck_assert_int_eq(sp_move(m, p[0], out, 70001, SP_LENGTH_EOF), (int64_t)(n - 70001));
	feed_finish(f);
	close(out);
	size_t got;
	char *back = slurp(scratch_path("dst"), &got);
	ck_assert_uint_eq(got, n - 70001);
	ck_assert(memcmp(back, data + 70001, got) == 0);
	free(back);
	free(data);
	close(p[0]);
	sp_mover_free(m);
}
END_TEST

START_TEST(offset_past_4gib)
{
	static const char marker[] = "data beyond four gibibytes";
	const int64_t at = (INT64_C(4) << 30) + 4093; /* unaligned, past 2^32 */
	int fd = open_scratch("sparse", O_RDWR | O_TRUNC);
	ck_assert_int_eq(ftruncate(fd, INT64_C(5) << 30), 0);
	ck_assert_int_eq(pwrite(fd, marker, sizeof(marker), at), (ssize_t)sizeof(marker));
	for (int method = SP_METHOD_AUTO; method <= SP_METHOD_RW; method++) {
		struct sp_options o = { .method = method };
		struct sp_mover *m = mover_with(&o);
		int p[2];
		ck_assert_int_eq(pipe(p), 0);
		struct drain *d = drain_start(p[0]);
		ck_assert_int_eq(sp_move(m, fd, p[1], at, sizeof(marker)), (int64_t)sizeof(marker));
		close(p[1]);
		size_t got;
		char *back = drain_finish(d, &got);
		ck_assert_uint_eq(got, sizeof(marker));
		ck_assert_str_eq(back, marker);
		free(back);
		sp_mover_free(m);
	}
	close(fd);
}
END_TEST

START_TEST(append_output_falls_back)
{
	int out = open_scratch("dst", O_WRONLY | O_TRUNC);
	ck_assert_int_eq(write(out, "old\n", 4), 4);
	close(out);
	char *data;
	const char *src = make_file("src", 2 * MiB + 1, 2, &data);
	struct sp_mover *m = mover_with(NULL);
	int in = open_path(src, O_RDONLY);
	out = open_scratch("dst", O_WRONLY | O_APPEND);
	ck_assert_int_eq(sp_move(m, in, out, SP_OFFSET_CURRENT, SP_LENGTH_EOF), 2 * MiB + 1);
	close(out);
	close(in);
	size_t got;
	char *back = slurp(scratch_path("dst"), &got);
	ck_assert_uint_eq(got, 2 * MiB + 5);
	ck_assert(memcmp(back, "old\n", 4) == 0);
	ck_assert(memcmp(back + 4, data, 2 * MiB + 1) == 0);
	const struct sp_stats *s = sp_get_stats(m);
	ck_assert_uint_eq(s->fallbacks, 1);
	ck_assert_uint_eq(s->bytes_copied, 2 * MiB + 1);
	ck_assert_uint_eq(s->splice_calls, 0); /* known refusal: not even tried */
	free(back);
	free(data);
	sp_mover_free(m);
}
END_TEST

START_TEST(splice_only_refuses_append)
{
	struct sp_options o = { .method = SP_METHOD_SPLICE };
	struct sp_mover *m = mover_with(&o);
	errno = 4242;
	ck_assert_int_eq(copy_file(m, 1000, O_APPEND), -EINVAL);
	ck_assert_int_eq(errno, 4242);
	ck_assert_int_eq(sp_error_side(m), SP_SIDE_OUTPUT);
	sp_mover_free(m);
}
END_TEST

START_TEST(method_rw_copies)
{
	struct sp_options o = { .method = SP_METHOD_RW, .buffer_size = 4096 };
	struct sp_mover *m = mover_with(&o);
	ck_assert_int_eq(copy_file(m, 100000, 0), 100000);
	const struct sp_stats *s = sp_get_stats(m);
	ck_assert_uint_eq(s->bytes_copied, 100000);
	ck_assert_uint_eq(s->splice_calls, 0);
	ck_assert_uint_eq(s->read_calls, 100000 / 4096 + 2);
	sp_mover_free(m);
}
END_TEST

START_TEST(directory_and_bad_fds)
{
	struct sp_mover *m = mover_with(NULL);
	int dir = open_path(harness_dir, O_RDONLY | O_DIRECTORY);
	int out = open_scratch("dst", O_WRONLY);
	ck_assert_int_eq(sp_move(m, dir, out, SP_OFFSET_CURRENT, SP_LENGTH_EOF), -EISDIR);
	ck_assert_int_eq(sp_error_side(m), SP_SIDE_INPUT);
	ck_assert_int_eq(sp_move(m, -1, out, SP_OFFSET_CURRENT, SP_LENGTH_EOF), -EBADF);
	ck_assert_int_eq(sp_error_side(m), SP_SIDE_INPUT);
	const char *src = make_file("src", 10, 1, NULL);
	int in = open_path(src, O_RDONLY);
	ck_assert_int_eq(sp_move(m, in, -1, SP_OFFSET_CURRENT, SP_LENGTH_EOF), -EBADF);
	ck_assert_int_eq(sp_error_side(m), SP_SIDE_OUTPUT);
	/* Opened the wrong way round: the side is still told apart. */
	int wronly = open_path(src, O_WRONLY);
	ck_assert_int_eq(sp_move(m, wronly, out, SP_OFFSET_CURRENT, SP_LENGTH_EOF), -EBADF);
	ck_assert_int_eq(sp_error_side(m), SP_SIDE_INPUT);
	int rdonly = open_path(src, O_RDONLY);
	ck_assert_int_eq(sp_move(m, in, rdonly, SP_OFFSET_CURRENT, SP_LENGTH_EOF), -EBADF);
	ck_assert_int_eq(sp_error_side(m), SP_SIDE_OUTPUT);
	ck_assert_int_eq(sp_move(m, in, out, 0, SP_LENGTH_EOF), 10);
	ck_assert_int_eq(sp_error_side(m), SP_SIDE_NONE);
	close(dir);
	close(out);
	close(in);
	close(wronly);
	close(rdonly);
	sp_mover_free(m);
}
END_TEST

START_TEST(broken_pipe_is_output_error)
{
	signal(SIGPIPE, SIG_IGN);
	const char *src = make_file("src", 100000, 1, NULL);
	struct sp_mover *m = mover_with(NULL);
	int in = open_path(src, O_RDONLY), p[2];
	ck_assert_int_eq(pipe(p), 0);
	close(p[0]);
	ck_assert_int_eq(sp_move(m, in, p[1], SP_OFFSET_CURRENT, SP_LENGTH_EOF), -EPIPE);
	ck_assert_int_eq(sp_error_side(m), SP_SIDE_OUTPUT);
	close(p[1]);
	close(in);
	sp_mover_free(m);
}
END_TEST

START_TEST(nonblocking_ends)
{
	size_t n = 6 * MiB + 1;
	char *data = malloc(n);
	fill_pattern(data, n, 4);
	struct sp_options o = { .pipe_size = 65536 };
	struct sp_mover *m = mover_with(&o);
	int a[2], b[2];
	ck_assert_int_eq(pipe2(a, O_NONBLOCK), 0);
	ck_assert_int_eq(pipe2(b, O_NONBLOCK), 0);
	ck_assert_int_eq(fcntl(a[1], F_SETFL, 0), 0);  /* only our ends stay non-blocking */
	ck_assert_int_eq(fcntl(b[0], F_SETFL, 0), 0);
	struct feed *f = feed_start(a[1], data, n);
	struct drain *d = drain_start(b[0]);
	ck_assert_int_eq(sp_move(m, a[0], b[1], SP_OFFSET_CURRENT, SP_LENGTH_EOF), (int64_t)n);
	close(b[1]);
	feed_finish(f);
	size_t got;
	char *back = drain_finish(d, &got);
	ck_assert_uint_eq(got, n);
	ck_assert(memcmp(back, data, n) == 0);
	close(a[0]);
	free(back);
	free(data);
	sp_mover_free(m);
}
END_TEST

static int count_progress(const struct sp_stats *s, void *arg)
{
	int *calls = arg;
	ck_assert_uint_gt(s->bytes, 0);
	return ++*calls >= calls[1];
}

START_TEST(progress_and_cancel)
{
	int calls[2] = { 0, 1000 };
	struct sp_options o = { .pipe_size = 65536, .progress = count_progress, .progress_arg = calls };
	struct sp_mover *m = mover_with(&o);
	ck_assert_int_eq(copy_file(m, MiB, 0), MiB);
	ck_assert_int_ge(calls[0], MiB / 65536);

	calls[0] = 0;
	calls[1] = 2; /* stop after the second chunk */
	ck_assert_int_eq(copy_file(m, MiB, 0), -ECANCELED);
	ck_assert_int_eq(sp_error_side(m), SP_SIDE_NONE);
	ck_assert_uint_eq(sp_last_bytes(m), 2 * 65536);
	sp_mover_free(m);

	volatile sig_atomic_t stop = 1;
	struct sp_options c = { .cancel = &stop, .pipe_size = 65536 };
	m = mover_with(&c);
	ck_assert_int_eq(copy_file(m, MiB, 0), -ECANCELED);
	ck_assert_uint_eq(sp_last_bytes(m), 65536);
	sp_mover_free(m);
}
END_TEST

START_TEST(options_are_checked)
{
	struct sp_mover *m = NULL;
	struct sp_options bad_method = { .method = 99 };
	struct sp_options bad_flags = { .splice_flags = 0x100 };
	ck_assert_int_eq(sp_mover_new(&m, &bad_method), -EINVAL);
	ck_assert_int_eq(sp_mover_new(&m, &bad_flags), -EINVAL);
	ck_assert_int_eq(sp_mover_new(NULL, NULL), -EINVAL);
	ck_assert_ptr_null(m);
	struct sp_options flags = { .splice_flags = SPLICE_F_MOVE | SPLICE_F_MORE };
	m = mover_with(&flags);
	ck_assert_int_eq(copy_file(m, 3 * MiB, 0), 3 * MiB);
	ck_assert_int_eq(sp_move(NULL, 0, 1, 0, 1), -EINVAL);
	sp_mover_free(m);
	sp_mover_free(NULL);
	ck_assert_str_eq(sp_version(), PACKAGE_VERSION);
}
END_TEST

START_TEST(character_devices_and_proc)
{
	struct sp_mover *m = mover_with(NULL);
	int zero = open_path("/dev/zero", O_RDONLY), null = open_path("/dev/null", O_WRONLY);
	ck_assert_int_eq(sp_move(m, zero, null, SP_OFFSET_CURRENT, 3 * MiB), 3 * MiB);
	int out = open_scratch("zeros", O_WRONLY | O_TRUNC);
	ck_assert_int_eq(sp_move(m, zero, out, 12345, 100000), 100000);
	close(out);
	size_t got;
	char *back = slurp(scratch_path("zeros"), &got);
	ck_assert_uint_eq(got, 100000);
	for (size_t i = 0; i < got; i++)
		ck_assert_int_eq(back[i], 0);
	free(back);

	int proc = open_path("/proc/version", O_RDONLY);
	char want[4096];
	ssize_t wn = pread(proc, want, sizeof(want), 0);
	ck_assert_int_gt(wn, 0);
	out = open_scratch("version", O_WRONLY | O_TRUNC);
	ck_assert_int_eq(sp_move(m, proc, out, SP_OFFSET_CURRENT, SP_LENGTH_EOF), wn);
	close(out);
	back = slurp(scratch_path("version"), &got);
	ck_assert(memcmp(back, want, (size_t)wn) == 0);
	free(back);
	close(proc);
	close(zero);
	close(null);
	sp_mover_free(m);
}
END_TEST

START_TEST(input_refusing_splice_falls_back)
{
	/* An eventfd has no splice_read: the kernel says EINVAL. */
	int efd = eventfd(5, 0);
	ck_assert_int_ge(efd, 0);
	struct sp_mover *m = mover_with(NULL);
	int out = open_scratch("dst", O_WRONLY | O_TRUNC);
	ck_assert_int_eq(sp_move(m, efd, out, SP_OFFSET_CURRENT, 8), 8);
	const struct sp_stats *s = sp_get_stats(m);
	ck_assert_uint_eq(s->fallbacks, 1);
	ck_assert_uint_eq(s->bytes_copied, 8);
	uint64_t v;
	ck_assert_int_eq(pread(out, &v, 8, 0), -1); /* write-only: read back by path */
	close(out);
	size_t got;
	char *back = slurp(scratch_path("dst"), &got);
	ck_assert_uint_eq(got, 8);
	memcpy(&v, back, 8);
	ck_assert_uint_eq(v, 5);
	free(back);
	close(efd);
	sp_mover_free(m);
}
END_TEST

START_TEST(pipe_grow)
{
	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_ge(sp_pipe_grow(p[1], 256 * 1024), 256 * 1024);
	long sz = sp_pipe_grow(p[1], 4096); /* never shrinks */
	ck_assert_int_ge(sz, 256 * 1024);
	int fd = open_scratch("f", O_RDWR);
	ck_assert_int_eq(sp_pipe_grow(fd, 65536), -EBADF);
	close(fd);
	close(p[0]);
	close(p[1]);

	struct sp_options o = { .pipe_size = 131072 };
	struct sp_mover *m = mover_with(&o);
	ck_assert_int_eq(copy_file(m, 1000, 0), 1000);
	ck_assert_uint_eq(sp_pipe_size(m), 131072);
	sp_mover_free(m);
}
END_TEST

/* Progress callback that changes the input file once, after the first chunk. */
struct change { int fd; off_t new_size; int done; };
static int change_input(const struct sp_stats *s, void *arg)
{
	struct change *c = arg;
	if (!c->done++) {
		if (c->new_size > 0) {
			char block[8192];
			fill_pattern(block, sizeof(block), 99);
			struct stat st;
			fstat(c->fd, &st);
			for (off_t at = st.st_size; at < c->new_size; at += (off_t)sizeof(block))
				ck_assert_int_eq(pwrite(c->fd, block, sizeof(block), at), sizeof(block));
		} else {
			ck_assert_int_eq(ftruncate(c->fd, -c->new_size), 0);
		}
	}
	return 0;
}

START_TEST(input_grows_and_shrinks)
{
	for (int grow = 0; grow <= 1; grow++) {
		char *data;
		const char *src = make_file("src", MiB, 8, &data);
		int rw = open_path(src, O_RDWR);
		struct change c = { rw, grow ? MiB + 10 * 8192 : -(MiB / 2 + 3), 0 };
		struct sp_options o = { .pipe_size = 65536, .progress = change_input, .progress_arg = &c };
		struct sp_mover *m = mover_with(&o);
		int in = open_path(src, O_RDONLY), p[2];
		ck_assert_int_eq(pipe(p), 0);
		struct drain *d = drain_start(p[0]);
		int64_t r = sp_move(m, in, p[1], SP_OFFSET_CURRENT, SP_LENGTH_EOF);
		close(p[1]);
		size_t got, final;
		char *back = drain_finish(d, &got);
		char *now = slurp(src, &final);
		ck_assert_int_eq(r, (int64_t)final);
		ck_assert_uint_eq(got, final);
		ck_assert(memcmp(back, now, final) == 0);
		free(back);
		free(now);
		free(data);
		close(in);
		close(rw);
		sp_mover_free(m);
	}
}
END_TEST

Suite *move_suite(void);
Suite *move_suite(void)
{
	Suite *s = suite_create("sp_move");
	TCase *tc = tcase_create("paths");
	tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, file_to_file_sizes);
	tcase_add_test(tc, file_to_pipe_direct);
	tcase_add_test(tc, pipe_to_file_and_pipe);
	tcase_add_test(tc, socket_both_ways);
	tcase_add_test(tc, offset_and_length);
	tcase_add_test(tc, offset_on_pipe_skips);
	tcase_add_test(tc, offset_past_4gib);
	tcase_add_test(tc, append_output_falls_back);
	tcase_add_test(tc, splice_only_refuses_append);
	tcase_add_test(tc, method_rw_copies);
	tcase_add_test(tc, directory_and_bad_fds);
	tcase_add_test(tc, broken_pipe_is_output_error);
	tcase_add_test(tc, nonblocking_ends);
	tcase_add_test(tc, progress_and_cancel);
	tcase_add_test(tc, options_are_checked);
	tcase_add_test(tc, character_devices_and_proc);
	tcase_add_test(tc, input_refusing_splice_falls_back);
	tcase_add_test(tc, pipe_grow);
	tcase_add_test(tc, input_grows_and_shrinks);
	suite_add_tcase(s, tc);
	return s;
}
