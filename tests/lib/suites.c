/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The suites of test-libsplice, which the harness's main() runs. */
#include "config.h"

#include <check.h>
#include <stddef.h>

#include "harness.h"

Suite *move_suite(void);
Suite *faults_suite(void);
Suite *sparse_suite(void);
Suite *stats_suite(void);
Suite *sized_suite(void);

Suite *(*const harness_suites[])(void) = { move_suite, faults_suite, sparse_suite, stats_suite,
							    sized_suite, NULL };
