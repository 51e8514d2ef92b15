#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --stats --json of spcat, sptee and spmove: one valid JSON object on
# stderr that python3 and jq accept, with figures that add up.
. "$top_srcdir/tests/lib.sh"

make_random src 3000000

# valid DESCRIPTION FILE: FILE is JSON for python3 (and jq when installed).
valid() {
	ok "$1: python3 -m json.tool accepts it" python3 -m json.tool "$2" /dev/null
	if command -v jq >/dev/null 2>&1; then
		ok "$1: jq accepts it" jq -e . "$2" >/dev/null
		check_eq "$1: the calls add up to the syscalls" "$(jq .syscalls "$2")" \
			"$(jq '[.calls[]] | add' "$2")"
		check_eq "$1: bytes in kernel and through user memory add up" \
			"$(jq .bytes "$2")" "$(jq '.bytes_in_kernel + .bytes_through_user_memory' "$2")"
	fi
}

"$SPCAT" --stats --json src >/dev/null 2>cat.json
check_eq "spcat: one line" 1 "$(wc -l <cat.json)"
valid "spcat" cat.json
ok "spcat: counts the bytes" grep -q '"bytes":3000000,' cat.json
"$SPCAT" --stats --json --no-splice src >/dev/null 2>rw.json
ok "spcat --no-splice: nothing in the kernel" grep -q '"bytes_in_kernel":0,' rw.json

"$SPTEE" --stats --json t1 t2 <src >/dev/null 2>tee.json
valid "sptee" tee.json
ok "sptee: every output's bytes" grep -q '"bytes":9000000,' tee.json

"$SPMOVE" --stats --json src dst 2>move.json
valid "spmove" move.json
ok "spmove: the method and the paths taken" grep -q '"method":"auto","paths":\["' move.json
if grep -q '"copy_file_range"' move.json; then
	ok "spmove: copy_file_range calls counted" test "$(jq .calls.copy_file_range move.json)" -gt 0
fi
"$SPMOVE" --stats --json --method=sendfile src dst2 2>sendfile.json
valid "spmove --method=sendfile" sendfile.json
if command -v jq >/dev/null 2>&1; then
	ok "spmove --method=sendfile: sendfile calls counted" \
		test "$(jq .calls.sendfile sendfile.json)" -gt 0
fi

run_cmd out err "$SPCAT" --json src
check_eq "spcat --json without --stats: usage error" 1 "$RC"
run_cmd out err "$SPTEE" --json </dev/null
check_eq "sptee --json without --stats: usage error" 1 "$RC"
run_cmd out err "$SPMOVE" --json src dst3
check_eq "spmove --json without --stats: usage error" 1 "$RC"
done_testing
