/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared helpers for the Check unit tests of libsplice. */
#ifndef SPLICE_UTILS_TEST_HARNESS_H
#define SPLICE_UTILS_TEST_HARNESS_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "libsplice.h"

/* The mover's statistics, copied out (sp_get_stats()). */
static inline struct sp_stats stats_of(const struct sp_mover *m)
{
	struct sp_stats s = { .size = sizeof(s) };
	ck_assert_int_eq(sp_get_stats(m, &s), 0);
	return s;
}

/* A new mover with options o; NULL: the splice path, read/write where the
 * kernel refuses it (the engine under test, not the auto policy's choice
 * of copy_file_range between files).  Inline, as stats_of(): the tests of
 * src/common share this harness without linking libsplice. */
static inline struct sp_mover *mover_with(const struct sp_options *o)
{
	static const struct sp_options splice_or_rw = {
		.size = sizeof(struct sp_options),
		.policy = SP_POLICY_PREFER,
		.path = SP_PATH_SPLICE,
	};
	struct sp_mover *m;
	ck_assert_int_eq(sp_mover_new(&m, o ? o : &splice_or_rw), 0);
	return m;
}

/* open(2) of path with O_CLOEXEC (mode 0600 with O_CREAT); fails the test
 * on error. */
int open_path(const char *path, int flags);

/* The suites a Check program runs, NULL-terminated.  Every test program
 * defines it; the harness's main() runs them all in one runner (forked;
 * CK_FORK=no for gdb and valgrind) and exits 1 when any test failed. */
extern Suite *(*const harness_suites[])(void);

/* A scratch directory, made by harness_setup() and removed by harness_teardown(). */
extern char harness_dir[];

/* Check fixtures: make and remove the scratch directory. */
void harness_setup(void);
void harness_teardown(void);

/* Fill buf with n bytes of a reproducible pseudo-random pattern for seed. */
void fill_pattern(void *buf, size_t n, unsigned seed);

/* Create (or replace) the scratch file name with n pattern bytes; returns
 * its path (a static buffer per call slot) and the data in *data (malloc'ed). */
const char *make_file(const char *name, size_t n, unsigned seed, char **data);

/* The path of a file in the scratch directory (a rotating static buffer). */
const char *scratch_path(const char *name);

/* Open a scratch file with flags (O_CREAT implied, mode 0600); aborts the test on failure. */
int open_scratch(const char *name, int flags);

/* n bytes of fill_pattern() for seed (malloc'ed, at least one byte). */
char *pattern_data(size_t n, unsigned seed);

/* An unlinked temporary file in /tmp, open for reading and writing with
 * O_CLOEXEC and flags; aborts the test on failure. */
int temp_file(int flags);

/* An unlinked temporary file holding pattern_data(n, seed). */
int pattern_file(size_t n, unsigned seed);

/* Read a whole file; returns malloc'ed data and its size in *n. */
char *slurp(const char *path, size_t *n);

/* Fails the test unless the scratch file name holds exactly the n bytes
 * at data. */
void expect_file(const char *name, const void *data, size_t n);

/* A thread draining a pipe's read end into memory until end of file. */
struct drain;
struct drain *drain_start(int fd);
/* Wait for the drain; returns what it read (malloc'ed) and its size in *n. */
char *drain_finish(struct drain *d, size_t *n);

/* A thread writing n bytes to fd then closing it. */
struct feed;
struct feed *feed_start(int fd, const void *data, size_t n);
void feed_finish(struct feed *f);
/* A new pipe that a feed (in *f) writes the n bytes at data into; returns
 * its read end. */
int feed_pipe(const void *data, size_t n, struct feed **f);

#endif
