#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# acctpin run and race without CAP_SYS_PACCT/CAP_SYS_ADMIN: a clear message
# and exit 77, nothing made.
. "$top_srcdir/tests/lib.sh"
mkdir tmp
TMPDIR=$T_DIR/tmp
export TMPDIR

# unprivileged CMD...: run CMD without the two capabilities.
unprivileged() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --inh-caps=-all --bounding-set=-sys_pacct,-sys_admin "$@"
	else
		"$@"
	fi
}
if [ "$(id -u)" = 0 ] && ! command -v setpriv >/dev/null 2>&1; then
	skip "setpriv is needed to drop capabilities as root"
fi

for cmd in run race; do
	run_cmd out err unprivileged "$ACCTPIN" $cmd
	check_eq "$cmd without capabilities: exit status" 77 "$RC"
	check_eq "$cmd without capabilities: message" \
		"acctpin: $cmd needs CAP_SYS_PACCT and CAP_SYS_ADMIN (run it as root); skipping" \
		"$(cat err)"
	check_eq "$cmd without capabilities: no output" "" "$(cat out)"
done
if [ "$(id -u)" = 0 ]; then
	if nobody_runs "$ACCTPIN"; then
		run_cmd out err setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
			"$ACCTPIN" run --fs ext4
		check_eq "run as nobody: exit status" 77 "$RC"
	else
		echo "# no setpriv, or nobody cannot reach the build tree: acctpin run as nobody left out"
	fi
	run_cmd out err setpriv --inh-caps=-all --bounding-set=-sys_pacct "$ACCTPIN" run
	check_eq "run without CAP_SYS_PACCT alone: exit status" 77 "$RC"
fi
check_eq "no temporary directory made" "" "$(ls tmp)"
done_testing
