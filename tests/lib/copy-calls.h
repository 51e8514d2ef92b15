/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sp_copy() as the tests call it: one transfer of a range, or one whole
 * copy with holes; res (may be NULL) gets the call's outcome. */
#ifndef TESTS_LIB_COPY_CALLS_H
#define TESTS_LIB_COPY_CALLS_H

#include <stddef.h>
#include <sys/stat.h>

#include "libsplice.h"

/* An empty result with its size set, for the tests' calls. */
#define RESULT_INIT { .size = sizeof(struct sp_result) }

/* length bytes from in_fd at offset to out_fd (sp_copy() without flags). */
static inline int64_t copy_range(struct sp_mover *m, int in_fd, int out_fd, int64_t offset,
				 uint64_t length, struct sp_result *res)
{
	struct sp_copy_args a = { .size = sizeof(a), .in_fd = in_fd, .out_fd = out_fd,
				  .offset = offset, .length = length };
	return sp_copy(m, &a, res);
}

/* The same, with the caller's fstat(2)s of the fds (either may be NULL). */
static inline int64_t copy_range_stat(struct sp_mover *m, int in_fd, const struct stat *in_st,
				      int out_fd, const struct stat *out_st, int64_t offset,
				      uint64_t length, struct sp_result *res)
{
	struct sp_copy_args a = { .size = sizeof(a), .in_fd = in_fd, .out_fd = out_fd,
				  .offset = offset, .length = length, .in_st = in_st,
				  .out_st = out_st };
	return sp_copy(m, &a, res);
}

/* All of in_fd to out_fd, holes as how says (SP_COPY_WHOLE; with
 * SP_COPY_NEW_OUTPUT when new_output). */
static inline int64_t copy_all(struct sp_mover *m, int in_fd, const struct stat *in_st,
			       int out_fd, enum sp_holes how, bool new_output,
			       struct sp_result *res)
{
	struct sp_copy_args a = { .size = sizeof(a), .in_fd = in_fd, .out_fd = out_fd,
				  .flags = SP_COPY_WHOLE | (new_output ? SP_COPY_NEW_OUTPUT : 0),
				  .holes = how, .in_st = in_st };
	return sp_copy(m, &a, res);
}

#endif
