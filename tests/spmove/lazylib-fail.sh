#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A library loaded on first use that cannot be loaded (here: a broken copy
# of it found first on LD_LIBRARY_PATH) is an error like any other: the
# dynamic linker's words once, the file it was needed for reported, its
# temporary removed, the run going on -- never exit 127 half way through a
# copy; and plain-text --stats loads no json-c at all (issue 35, item 7).
[ -n "${BASH_VERSION-}" ] || exec bash "$0" "$@"
. "$top_srcdir/tests/lib.sh"
SPMOVE_BIN=$(real_bin spmove)
LC_ALL=C
export LC_ALL
mkdir broken
for lib in libjson-c.so.5 libacl.so.1 libattr.so.1; do : >broken/$lib; done
broken() { LD_LIBRARY_PATH=$T_DIR/broken${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$@"; }
use_built_library
make_random big 1000000

run_cmd out err broken "$SPMOVE_BIN" --stats big a
check_eq "plain --stats: exit 0" 0 "$RC"
check_eq "plain --stats: json-c not loaded (nothing about it)" "" "$(grep -i 'loading' err)"
ok "plain --stats: the summary line" grep -q '^spmove: 1000000 bytes' err
same_files "plain --stats: the copy" big a

run_cmd out err broken "$SPMOVE_BIN" --stats --json big b
check_eq "--stats --json without json-c: not 127" 0 "$RC"
same_files "--stats --json without json-c: the copy complete" big b
check_eq "--stats --json without json-c: the linker's words, then what failed" \
	"spmove: error while loading shared libraries: $T_DIR/broken/libjson-c.so.5: file too short
spmove: cannot print the statistics: Can not access a needed shared library" "$(cat err)"

cp big big2
mkdir dir
run_cmd out err broken "$SPMOVE_BIN" -p big big2 dir
check_eq "-p without libacl: exit 1 (not 127)" 1 "$RC"
check_eq "-p without libacl: reported once, then per file" \
	"1 2" "$(grep -c 'libacl.so.1: file too short' err) $(grep -c "^spmove: preserving permissions for 'dir/big2\{0,1\}'" err)"
check_eq "-p without libacl: no temporary left" "" "$(ls -A dir | grep spmove)"
done_testing
