#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The watchdog: when the work stops making progress (here: stopped with
# SIGSTOP) acctpin reports a hang, kills it, cleans up and exits 1 instead
# of hanging.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/acctpin/common.sh"

"$ACCTPIN" run --scenario nearly-full --watchdog 2 >out 2>err &
pid=$!
wait_for '^# nearly-full: [0-9.]*% free' out
child=$(cat /proc/$pid/task/$pid/children 2>/dev/null)
ok "the work runs in a child process" test -n "$child"
kill -STOP $child
wait $pid
check_eq "exit status" 1 "$?"
ok "hang reported with the step it was at" \
	grep -q '^acctpin: hang: no progress for 2 s while nearly-full: .*; killing it$' err
check_eq "sysctl restored" "$sysctl_before" "$(acct_sysctl)"
check_eq "temporary directory removed" "" "$(ls tmp)"
run_cmd out err "$ACCTPIN" race --watchdog 0
check_eq "bad --watchdog: exit status" 1 "$RC"
done_testing
