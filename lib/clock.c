/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A monotonic clock for measuring how long things take (lib/clock.h). */
#include "config.h"

#include <time.h>

#include "clock.h"

uint64_t lsp_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
