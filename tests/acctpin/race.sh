#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# acctpin race, bounded: nothing lost, torn or written after the unmount,
# nothing hung.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/acctpin/common.sh"
# The race forks from several threads at once; it runs in the sanitizer
# build too (marker children make raw system calls only, see
# src/acctpin/marker.c).

run_cmd out err "$ACCTPIN" race --seconds 5
check_eq "exit status" 0 "$RC"
check_eq "no message" "" "$(cat err)"
ok "result ok" grep -q '^result: *ok$' out
for what in lost torn foreign "written after off"; do
	ok "$what: none" grep -q "^$what: *0\$" out
done
ok "cycles of all three kinds" grep -Eq '^cycles: +[0-9]+ \(umount [1-9][0-9]*, lazy [1-9][0-9]*, remount-ro [1-9][0-9]*\)$' out
cat out

if command -v mkfs.ext4 >/dev/null 2>&1; then
	run_cmd json err "$ACCTPIN" race --fs ext4 --seconds 3 --iterations 30 --threads 3 --json
	check_eq "ext4 json: exit status" 0 "$RC"
	ok "ext4 json: ok" grep -q '"lost":0,"torn":0,"stray":0,"after_off":0,"ok":true}$' json
	cat json
fi
check_eq "temporary directory removed" "" "$(ls tmp)"
done_testing
