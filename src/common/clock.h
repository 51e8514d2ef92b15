/* A monotonic clock for measuring how long things take. */
#ifndef SPLICE_UTILS_CLOCK_H
#define SPLICE_UTILS_CLOCK_H

#include <stdint.h>

/* Nanoseconds on CLOCK_MONOTONIC (from an arbitrary start); never fails on
 * Linux. */
uint64_t now_ns(void);

#endif
