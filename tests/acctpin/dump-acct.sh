#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# acctpin dump compared field by field with GNU acct's dump-acct on a file
# that accton(8) made (in a PID namespace of its own, so that the host's
# accounting is left alone).
. "$top_srcdir/tests/lib.sh"
require_root
command -v accton >/dev/null 2>&1 && command -v dump-acct >/dev/null 2>&1 ||
	skip "accton and dump-acct (Debian package acct) are not installed"
command -v unshare >/dev/null 2>&1 || skip "unshare is not installed"
TZ=UTC
export TZ
: >pacct
chmod 600 pacct
unshare --pid --fork sh -c '
	accton pacct >/dev/null
	sh -c "exit 3"
	sh -c "kill -USR1 \$\$"
	dd if=/dev/zero of=/dev/null bs=1M count=200 2>/dev/null
	timeout 0.3 sh -c "while :; do :; done"
	if command -v script >/dev/null 2>&1; then script -qc "sh -c \"exit 5\"" /dev/null; fi
	accton off >/dev/null' >/dev/null 2>&1
ok "accton wrote records" test -s pacct

run_cmd ours err "$ACCTPIN" dump pacct
check_eq "exit status" 0 "$RC"
dump-acct pacct >theirs
check_eq "as many lines as dump-acct" "$(wc -l <theirs)" "$(wc -l <ours)"
fields="command version utime stime etime uid gid mem io pid ppid flags exitcode tty btime"
i=1
for f in $fields; do
	check_eq "field $f" "$(cut -d'|' -f$i theirs)" "$(cut -d'|' -f$i ours)"
	i=$((i + 1))
done
same_files "whole lines identical" theirs ours
ok "a signal flag seen" grep -q '|    X|' ours
ok "an exit status seen" grep -q '|       3|' ours
run_cmd json err "$ACCTPIN" dump --json pacct
check_eq "json: one object per record" "$(wc -l <theirs)" "$(grep -c '^{"comm":' json)"
done_testing
