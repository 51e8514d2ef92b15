#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# acctpin run stopped by SIGINT or SIGTERM in the middle of the nearly-full
# scenario: it cleans up (accounting off, sysctl restored, no mount, loop
# device or temporary file left) and dies of the signal.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/acctpin/common.sh"
mkdir mnt
mount -t tmpfs -o size=32m aptest "$T_DIR/mnt" || skip "cannot mount a tmpfs"
at_exit "umount '$T_DIR/mnt'"


# SIGINT, on the caller's filesystem, keeping a hard link to the file.
"$ACCTPIN" run --scenario nearly-full --dir "$T_DIR/mnt" >out 2>err &
pid=$!
wait_for '^# nearly-full: [0-9.]*% free' out
file=$(find mnt -name pacct | head -n 1)
ok "the accounting file is there mid-run" test -n "$file"
ln "$file" mnt/kept
kill -INT $pid
wait $pid
check_eq "SIGINT: died of it" 130 "$?"
ok "SIGINT: says it cleaned up" grep -q '^# interrupted by signal 2; cleaned up$' out
check_eq "SIGINT: sysctl restored" "$sysctl_before" "$(acct_sysctl)"
check_eq "SIGINT: its directory removed from DIR" "kept" "$(ls -A mnt)"
size=$(stat -c %s mnt/kept)
sh -c 'exit 3'
"$ACCTPIN" --version >/dev/null
check_eq "SIGINT: accounting off (no record appended)" "$size" "$(stat -c %s mnt/kept)"
run_cmd dump derr "$ACCTPIN" dump mnt/kept
check_eq "SIGINT: the file holds whole records only" 0 "$RC"
check_eq "SIGINT: temporary directory removed" "" "$(ls tmp)"

# SIGTERM, on ext4 over a loop device.
if command -v mkfs.ext4 >/dev/null 2>&1 && [ -e /dev/loop-control ]; then
	loops_before=$(losetup -a | grep -c "$T_DIR/tmp/acctpin")
	"$ACCTPIN" run --scenario nearly-full --fs ext4 >out 2>err &
	pid=$!
	wait_for '^# nearly-full: [0-9.]*% free' out
	ok "SIGTERM: a loop device is in use mid-run" test "$(losetup -a | grep -c "$T_DIR/tmp/acctpin")" -gt "$loops_before"
	kill -TERM $pid
	wait $pid
	check_eq "SIGTERM: died of it" 143 "$?"
	check_eq "SIGTERM: sysctl restored" "$sysctl_before" "$(acct_sysctl)"
	check_eq "SIGTERM: no loop device left" "$loops_before" "$(losetup -a | grep -c "$T_DIR/tmp/acctpin")"
	check_eq "SIGTERM: no mount left" 0 "$(grep -c "$T_DIR/tmp/acctpin" /proc/mounts)"
	check_eq "SIGTERM: temporary directory removed" "" "$(ls tmp)"
fi
done_testing
