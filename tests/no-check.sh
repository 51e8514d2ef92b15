#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Stands for the unit tests (the Check programs tests/*/test-*) in a build
# configured without Check: they were not built, so they are skipped.
echo "SKIP: Check was not found at configure time: the unit tests (tests/lib/test-*, tests/common/test-*, tests/acctpin/test-record) were not built; install the Debian package check and run ./configure again"
exit 77
