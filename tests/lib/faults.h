/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fault injection for unit tests: the test binaries link libsplice
 * statically with -Wl,--wrap for the system calls below, so a test can make
 * the N-th call fail with an errno, or cap how much each call may move.
 */
#ifndef SPLICE_UTILS_TEST_FAULTS_H
#define SPLICE_UTILS_TEST_FAULTS_H

#include <stddef.h>

enum fault_call {
	FAULT_SPLICE,
	FAULT_TEE,
	FAULT_PIPE2,
	FAULT_READ,
	FAULT_WRITE,
	FAULT_COPY_FILE_RANGE,
	FAULT_SETPIPE_SZ,   /* fcntl(2) F_SETPIPE_SZ only; other commands pass */
	FAULT_CALLS
};

/* Make calls number nth .. nth+times-1 (counting from 1) of kind fail with err. */
void fault_inject(enum fault_call call, unsigned nth, unsigned times, int err);

/* Let each call of kind move at most cap bytes (0: no cap). */
void fault_cap(enum fault_call call, size_t cap);

/* How many calls of kind were made since the last fault_reset(). */
unsigned fault_count(enum fault_call call);

/* The size the last fcntl(F_SETPIPE_SZ) since fault_reset() asked for
 * (failed or not), or -1 when none was made. */
long fault_pipe_size_asked(void);

/* Forget all injections and counts. */
void fault_reset(void);

#endif
