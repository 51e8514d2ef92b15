/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A monotonic clock for measuring how long things take: the library's
 * (its statistics' elapsed_ns), which the tools linking the library's
 * objects use too, so that the tree has one. */
#ifndef LIBSPLICE_CLOCK_H
#define LIBSPLICE_CLOCK_H

#include <stdint.h>

/* Nanoseconds on CLOCK_MONOTONIC (from an arbitrary start); never fails on
 * Linux.  Internal to libsplice: hidden from the shared library's users. */
__attribute__((visibility("hidden"))) uint64_t lsp_now_ns(void);

#endif
