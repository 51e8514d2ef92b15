#!/bin/sh
# The fault-injection matrix for acctpin (see tests/fault/matrix.sh): the
# plain scenario on tmpfs and on ext4 over a loop device, the switch to a
# second filesystem, and dump.  Whatever fails, nothing is left behind: no
# temporary directory, mount, loop device or sysctl change.
. "$top_srcdir/tests/fault/matrix.sh"
. "$top_srcdir/tests/priv/acctpin-lib.sh"
BIN=$(fm_bin acctpin)

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
