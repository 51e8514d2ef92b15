#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The fault-injection matrix for acctpin (see tests/fault/matrix.sh): the
# plain scenario on tmpfs and on ext4 over a loop device, the switch to a
# second filesystem, accounting to the caller's file (--acct-file), and dump.  Whatever fails, nothing is left behind: no
# temporary directory, mount, loop device or sysctl change.
. "$top_srcdir/tests/fault/matrix.sh"
. "$top_srcdir/tests/acctpin/common.sh"
BIN=$(real_bin acctpin)

# left_behind: nothing of acctpin's is left -- no file in its TMPDIR, no
# mount and no loop device over a file there, kernel.acct as it was; prints
# what is.  (Only what is ours: other tests may run in parallel.)
left_behind() {
	if [ -n "$(ls -A "$TMPDIR")" ]; then
		echo "left in TMPDIR: $(ls -A "$TMPDIR" | tr '\n' ' ')"
		return 1
	fi
	if grep -F " $TMPDIR/" /proc/self/mountinfo; then
		echo "a mount was left"
		return 1
	fi
	if losetup -a | grep -F "$TMPDIR/"; then
		echo "a loop device was left"
		return 1
	fi
	if [ "$(acct_sysctl)" != "$sysctl_before" ]; then
		echo "kernel.acct was left at $(acct_sysctl)"
		return 1
	fi
}
# all_passed: acctpin's own report says every check passed.
all_passed() {
	grep -q '^# [0-9]* checks, 0 failed' out && ! grep -q '^not ok' out && return 0
	echo "acctpin's report: $(grep -m 1 -e '^not ok' -e 'checks,' out)"
	return 1
}

# The checks acctpin reports failed (on standard output, as TAP) are its
# messages too.
run_messages() { cat err; sed -n 's/^not ok [0-9]* - /acctpin: /p' out; }
# What a message must name: a path in acctpin's own directory.
IN_OURS='.*/acctpin\.'

for sc in plain ext4 switch; do
	case $sc in
	plain) args="--scenario plain" ;;
	ext4) args="--fs ext4 --scenario plain" ;;
	switch) args="--scenario switch" ;;
	esac
	eval "${sc}_helpers='mkfs\.ext4|mke2fs'; ${sc}_stdio=write
	${sc}_setup() { :; }
	${sc}_run() { \$FM_RUN \"\$BIN\" run $args >out 2>err; FM_RC=\$?; }
	${sc}_ok() { all_passed && left_behind; }
	${sc}_failed() { left_behind; }
	${sc}_messages() { run_messages; }"
	fm_matrix acctpin "$sc" "$IN_OURS"
done

# --acct-file with --allow-foreign: whatever fails, the caller's file keeps
# what it had (only records are appended), with its mode and inode.
printf 'the caller'"'"'s header\n' >"$T_DIR/pacct.orig"
foreign_setup() { cp "$T_DIR/pacct.orig" "$T_DIR/pacct"; chmod 640 "$T_DIR/pacct"; }
foreign_run() {
	$FM_RUN "$BIN" run --scenario plain --acct-file "$T_DIR/pacct" --allow-foreign \
		>out 2>err
	FM_RC=$?
}
kept() {
	local n
	n=$(stat -c %s "$T_DIR/pacct.orig")
	if ! cmp -s -n "$n" "$T_DIR/pacct" "$T_DIR/pacct.orig" ||
		[ $((($(stat -c %s "$T_DIR/pacct") - n) % 64)) != 0 ] ||
		[ "$(stat -c %a "$T_DIR/pacct")" != 640 ]; then
		echo "the --acct-file lost what it had, or got more than whole records"
		return 1
	fi
}
foreign_ok() { all_passed && left_behind && kept; }
foreign_failed() { left_behind && kept; }
foreign_messages() { run_messages; }
foreign_stdio=write
fm_matrix acctpin foreign "$IN_OURS|.*$T_DIR/pacct"

# dump: records made by accton(8), from the fuzzing corpus.
RECORDS=$top_srcdir/tests/fuzz/corpus/pacct/accton-records
"$BIN" dump "$RECORDS" >"$T_DIR/dump.want" || exit 99
dump_stdio=write
dump_setup() { cp "$RECORDS" pacct; }
dump_run() { $FM_RUN "$BIN" dump pacct >out 2>err; FM_RC=$?; }
dump_ok() { fm_same "$T_DIR/dump.want" out; }
dump_failed() { fm_pieces out "$T_DIR/dump.want"; }
fm_matrix acctpin dump 'pacct|write error'

fm_done
