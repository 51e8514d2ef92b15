#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# acctpin run and race --dir DIR: on a filesystem the caller mounted, using
# only bind mounts of a directory of its own there, which it removes.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/acctpin/common.sh"
mkdir mnt
mount -t tmpfs -o size=32m aptest "$T_DIR/mnt" || skip "cannot mount a tmpfs"
at_exit "umount '$T_DIR/mnt'"
echo precious >mnt/mine

run_cmd out err "$ACCTPIN" run --dir "$T_DIR/mnt"
check_eq "exit status" 0 "$RC"
check_eq "no message" "" "$(cat err)"
check_eq "no failed check" 0 "$(grep -c '^not ok' out)"
ok "remount-ro skipped on the caller's filesystem" \
	grep -q "^ok [0-9]* - remount-ro # SKIP would remount the caller's filesystem read-only$" out
ok "nearly-full played" grep -q '^ok [0-9]* - nearly-full: resumed' out
check_eq "only the caller's file left in DIR" "mine" "$(ls -A mnt)"
check_eq "the caller's file untouched" "precious" "$(cat mnt/mine)"

run_cmd out err "$ACCTPIN" race --dir "$T_DIR/mnt" --seconds 2
cat out err
check_eq "race: exit status" 0 "$RC"
ok "race: result ok" grep -q '^result: *ok$' out
ok "race: no remount of the caller's filesystem" grep -q 'remount-ro 0)$' out
check_eq "race: only the caller's file left in DIR" "mine" "$(ls -A mnt)"

run_cmd out err "$ACCTPIN" run --fs existing
check_eq "--fs existing without --dir: exit status" 1 "$RC"
run_cmd out err "$ACCTPIN" run --dir "$T_DIR/nowhere"
check_eq "--dir of a missing directory: exit status" 1 "$RC"
check_eq "temporary directory removed" "" "$(ls tmp)"
done_testing
