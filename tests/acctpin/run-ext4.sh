#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# acctpin run on ext4 over a loop device: every scenario, and no loop
# device, mount or temporary file left behind.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/acctpin/common.sh"
command -v mkfs.ext4 >/dev/null 2>&1 || skip "mkfs.ext4 (e2fsprogs) is not installed"
[ -e /dev/loop-control ] || skip "no /dev/loop-control"
loops_before=$(losetup -a | grep -c "$T_DIR/tmp/acctpin")
mounts_before=$(grep -c "$T_DIR/tmp/acctpin" /proc/mounts)

run_cmd out err "$ACCTPIN" run --fs ext4
check_eq "exit status" 0 "$RC"
check_eq "no message" "" "$(cat err)"
check_eq "no failed check" 0 "$(grep -c '^not ok' out)"
check_eq "42 checks passed" 42 "$(grep -c '^ok' out)"
ok "ext4 named in the header" grep -q '^# acctpin run: Linux .*, ext4, expecting Linux semantics' out
for s in plain lazy bind remount-ro exiting nearly-full switch; do
	ok "$s: every column ok" grep -Eq "^# $s +ok +ok +ok +ok +ok +(ok|-) *\$" out
done
check_eq "no loop device left" "$loops_before" "$(losetup -a | grep -c "$T_DIR/tmp/acctpin")"
check_eq "no mount left" "$mounts_before" "$(grep -c "$T_DIR/tmp/acctpin" /proc/mounts)"
check_eq "temporary directory removed" "" "$(ls tmp)"
done_testing
