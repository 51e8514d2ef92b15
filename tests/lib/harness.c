/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared helpers for the Check unit tests of libsplice. */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "harness.h"

char harness_dir[256];

void harness_setup(void)
{
	/* Broken pipes are tested as EPIPE, never as a fatal signal. */
	signal(SIGPIPE, SIG_IGN);
	const char *tmp = getenv("TMPDIR");
	snprintf(harness_dir, sizeof(harness_dir), "%s/libsplice-test.XXXXXX", tmp ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(harness_dir));
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	return remove(path);
}

void harness_teardown(void)
{
	nftw(harness_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void fill_pattern(void *buf, size_t n, unsigned seed)
{
	uint32_t x = seed * 2654435761u + 1;
	unsigned char *p = buf;
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (unsigned char)x;
	}
}

char *pattern_data(size_t n, unsigned seed)
{
	char *p = malloc(n ? n : 1);
	ck_assert_ptr_nonnull(p);
	fill_pattern(p, n, seed);
	return p;
}

int temp_file(int flags)
{
	char name[] = "/tmp/splice-utils-test.XXXXXX";
	int fd = mkostemp(name, O_CLOEXEC | flags);
	ck_assert_int_ge(fd, 0);
	unlink(name);
	return fd;
}

int pattern_file(size_t n, unsigned seed)
{
	int fd = temp_file(0);
	char *buf = pattern_data(n, seed);
	ck_assert_int_eq(pwrite(fd, buf, n, 0), (ssize_t)n);
	free(buf);
	return fd;
}

const char *scratch_path(const char *name)
{
	static char paths[4][512];
	static unsigned next;
	char *p = paths[next++ % 4];
	snprintf(p, 512, "%s/%s", harness_dir, name);
	return p;
}

int open_scratch(const char *name, int flags)
{
	int fd = open(scratch_path(name), flags | O_CREAT | O_CLOEXEC, 0600);
	ck_assert_int_ge(fd, 0);
	return fd;
}

const char *make_file(const char *name, size_t n, unsigned seed, char **data)
{
	char *buf = malloc(n ? n : 1);
	ck_assert_ptr_nonnull(buf);
	fill_pattern(buf, n, seed);
	int fd = open_scratch(name, O_WRONLY | O_TRUNC);
	ck_assert_int_eq(pwrite(fd, buf, n, 0), (ssize_t)n);
	close(fd);
	if (data)
		*data = buf;
	else
		free(buf);
	return scratch_path(name);
}

char *slurp(const char *path, size_t *n)
{
	int fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	struct stat st;
	ck_assert_int_eq(fstat(fd, &st), 0);
	char *buf = malloc((size_t)st.st_size + 1);
	ck_assert_ptr_nonnull(buf);
	ssize_t got = pread(fd, buf, (size_t)st.st_size, 0);
	ck_assert_int_eq(got, st.st_size);
	close(fd);
	*n = (size_t)got;
	return buf;
}

void expect_file(const char *name, const void *data, size_t n)
{
	size_t got;
	char *back = slurp(scratch_path(name), &got);
	ck_assert_uint_eq(got, n);
	ck_assert(memcmp(back, data, n) == 0);
	free(back);
}

struct drain {
	pthread_t thread;
	int fd;
	char *buf;
	size_t len, cap;
};

static void *drain_main(void *arg)
{
	struct drain *d = arg;
	for (;;) {
		if (d->cap - d->len < 65536) {
			d->cap = d->cap * 2 + 65536;
			d->buf = realloc(d->buf, d->cap);
			if (!d->buf)
				abort();
		}
		/* readv/writev: the unit tests wrap read and write to inject faults. */
		struct iovec iov = { d->buf + d->len, d->cap - d->len };
		ssize_t n = readv(d->fd, &iov, 1);
		if (n <= 0)
			break;
		d->len += (size_t)n;
	}
	return NULL;
}

struct drain *drain_start(int fd)
{
	struct drain *d = calloc(1, sizeof(*d));
	ck_assert_ptr_nonnull(d);
	d->fd = fd;
	ck_assert_int_eq(pthread_create(&d->thread, NULL, drain_main, d), 0);
	return d;
}

char *drain_finish(struct drain *d, size_t *n)
{
	pthread_join(d->thread, NULL);
	close(d->fd);
	char *buf = d->buf;
	*n = d->len;
	free(d);
	return buf;
}

struct feed {
	pthread_t thread;
	int fd;
	const char *data;
	size_t n;
};

static void *feed_main(void *arg)
{
	struct feed *f = arg;
	size_t off = 0;
	while (off < f->n) {
		struct iovec iov = { (char *)f->data + off, f->n - off };
		ssize_t w = writev(f->fd, &iov, 1);
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	close(f->fd);
	return NULL;
}

struct feed *feed_start(int fd, const void *data, size_t n)
{
	struct feed *f = calloc(1, sizeof(*f));
	ck_assert_ptr_nonnull(f);
	*f = (struct feed){ .fd = fd, .data = data, .n = n };
	ck_assert_int_eq(pthread_create(&f->thread, NULL, feed_main, f), 0);
	return f;
}

void feed_finish(struct feed *f)
{
	pthread_join(f->thread, NULL);
	free(f);
}

int open_path(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC, 0600);
	ck_assert_int_ge(fd, 0);
	return fd;
}

int feed_pipe(const void *data, size_t n, struct feed **f)
{
	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	*f = feed_start(p[1], data, n);
	return p[0];
}

/* Runs harness_suites; returns EXIT_FAILURE when any test failed. */
int main(void)
{
	SRunner *sr = srunner_create(harness_suites[0]());
	for (size_t i = 1; harness_suites[i]; i++)
		srunner_add_suite(sr, harness_suites[i]());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
