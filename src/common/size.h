/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Byte counts written with a unit suffix ("64K", "1MiB", "2GB"). */
#ifndef SPLICE_UTILS_SIZE_H
#define SPLICE_UTILS_SIZE_H

#include <stdint.h>

/*
 * Parse a byte count with an optional suffix: K M G T P E (powers of 1024,
 * also written KiB, MiB, ...) or KB MB GB TB PB EB (powers of 1000), the
 * letter in either case.  Returns 0, -EINVAL for a malformed string or
 * -ERANGE for one too big; *value is only set on success.
 */
int cli_parse_size(const char *text, uint64_t *value);

#endif
