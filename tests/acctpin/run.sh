#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# acctpin run on tmpfs: every scenario matches what Linux promises, the
# output is TAP and a table (or JSON), --expect bsd reports the differences,
# and nothing is left behind.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/acctpin/common.sh"

run_cmd out err "$ACCTPIN" run
check_eq "exit status" 0 "$RC"
check_eq "no message" "" "$(cat err)"
check_eq "no failed check" 0 "$(grep -c '^not ok' out)"
check_eq "42 checks passed" 42 "$(grep -c '^ok' out)"
ok "TAP plan" grep -qx '1\.\.42' out
ok "the table's header names its columns" \
	grep -Eqx '# SCENARIO +UNMOUNT +ACCT-OFF +RECORDS +MISSING +LAST-RECORD +OTHER' out
for s in plain lazy bind remount-ro exiting nearly-full switch; do
	ok "$s: every column ok" grep -Eq "^# $s +ok +ok +ok +ok +ok +(ok|-) *\$" out
done
ok "plain: the unmount returned 0" grep -q '^ok 1 - plain: unmount: .* returned 0 (expected 0)$' out
ok "plain: the last record is the unmounting task's" \
	grep -q '^ok [0-9]* - plain: last-record: last record: acctpin-umount (pid 1, exit code 0)' out
ok "nearly-full: paused" grep -q '^ok [0-9]* - nearly-full: paused: 0 of 0 markers recorded, 2 of 2 left out' out
ok "nearly-full: resumed" grep -q '^ok [0-9]* - nearly-full: resumed: 2 of 2 markers recorded' out
ok "switch: the last record of the first file is the switch's" \
	grep -q '^ok [0-9]* - switch: last-record: last record: acctpin-switch' out
check_eq "sysctl restored" "$sysctl_before" "$(acct_sysctl)"
check_eq "temporary directory removed" "" "$(ls tmp)"

run_cmd json err "$ACCTPIN" run --json --scenario plain --scenario switch
check_eq "json: exit status" 0 "$RC"
ok "json: one document with no failure" grep -q '^{"command":"run",.*"passed":12,"failed":0}$' json
if command -v python3 >/dev/null 2>&1; then
	ok "json: parses" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["failed"] == 0' json
fi

run_cmd bsd err "$ACCTPIN" run --expect bsd -s plain -s lazy
check_eq "bsd: exit status" 1 "$RC"
ok "bsd: plain unmount should have failed with EBUSY" \
	grep -q '^not ok 1 - plain: unmount: .* returned 0 (expected EBUSY)$' bsd
ok "bsd: accounting should have stayed on" \
	grep -q '^not ok 2 - plain: acct-off: a marker run after it was not recorded (accounting off; expected on)$' bsd
ok "bsd: the table shows plain's failed checks in their columns" \
	grep -Eqx '# plain +FAIL +FAIL +ok +ok +FAIL +-' bsd
ok "bsd: lazy (forced) unmount succeeds there too" grep -q '^ok [0-9]* - lazy: unmount:' bsd
check_eq "bsd: temporary directory removed" "" "$(ls tmp)"
done_testing
