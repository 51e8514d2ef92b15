/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The entry point every fuzz target defines (libFuzzer's convention). */
#ifndef SPLICE_UTILS_FUZZ_H
#define SPLICE_UTILS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
