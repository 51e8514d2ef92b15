#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/bench/bench run by hand in a build tree without its helper
# programs fails at once with a message naming what to build, and writes
# no table.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
command -v python3 >/dev/null || skip "no python3"

mkdir -p fake/contrib/bench
rc=0
top_builddir="$T_DIR/fake" python3 "$top_srcdir/contrib/bench/bench" --quick --out "$T_DIR/out" \
	>out 2>err || rc=$?
check_eq "exit status" 2 "$rc"
ok "the message says to run make bench" grep -q "not built: run 'make bench'" err
ok "no table is written" test ! -e "$T_DIR/out/bench.csv"
done_testing
