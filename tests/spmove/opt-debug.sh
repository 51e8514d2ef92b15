#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --debug (spcp, spmv): -v's line, then for each file copied GNU's
# "copy offload: ..., reflink: ..., sparse detection: ..." in our terms
# (the path that moved the bytes in parentheses); "skipped 'b'" for a file
# --update=none keeps; no such line for --attributes-only or a rename.
. "$top_srcdir/tests/spmove/opt-lib.sh"
pattern='^copy offload: [a-z]*, reflink: [a-z]*, sparse detection: [A-Za-z_ +]*\( (data: [a-z_]*)\)\?$'

fresh file
echo data >a
"$SPCP" --debug a b >out
check_eq "first -v's line" "'a' -> 'b'" "$(sed -n 1p out)"
ok "then the debug line" sh -c "sed -n 2p out | grep -q '$pattern'"
"$SPCP" --debug --reflink=never a c >out
ok "--reflink=never: no clone" grep -q "reflink: no," out
"$SPCP" --debug --sparse=never a d >out
ok "--sparse=never: no hole detection" grep -q "sparse detection: no " out
ok "--sparse=never: copy_file_range avoided" grep -q "^copy offload: avoided, reflink: no" out
truncate -s 1M sparse
"$SPCP" --debug sparse e >out
ok "a sparse file: SEEK_HOLE" grep -q "sparse detection: SEEK_HOLE" out
"$SPCP" --debug --update=none a b >out
check_eq "--update=none: skipped" "skipped 'b'" "$(cat out)"
"$SPCP" --debug --attributes-only a f >out
ok "--attributes-only: no debug line" sh -c "! grep -q 'copy offload' out"
"$SPMV" --debug f g >out
check_eq "a rename: -v's line only" "renamed 'f' -> 'g'" "$(cat out)"
"$SPCP" --debug a /dev/full 2>/dev/null >/dev/full
check_eq "stdout full: status 1" 1 "$?"
done_testing
