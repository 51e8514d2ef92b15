#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README stays short enough to read in minutes (at most 250 lines; the
# depth goes to doc/), keeps the quick start's two commands exactly, and
# its one-line "dpkg -i" installs the supported packages, not the
# experimental stealfs-dkms.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
R=$top_srcdir/README
ok "README: at most 250 lines ($(wc -l <"$R"))" test "$(wc -l <"$R")" -le 250
check_eq "README: the quick start's two commands" "    sh contrib/quickstart
    make check" "$(sed -n '/^Quick start/,/^What and why/p' "$R" | grep '^    ' | head -n 2)"
check_eq "README: the one-line dpkg -i leaves stealfs-dkms out" "" \
	"$(grep '^    dpkg -i' "$R" | grep stealfs)"
ok "README: a one-line dpkg -i is there" grep -q '^    dpkg -i .*splice-utils_' "$R"
done_testing
