#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# acctpin run --acct-file FILE --allow-foreign: accounting goes to the
# caller's file (through a bind mount of it that each scenario takes away);
# what was in it stays, only records appended during the run are judged,
# and nothing else is left behind.  Also --dir refuses a directory that
# other users could swap acctpin's directory in.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/acctpin/common.sh"
mounts_before=$(grep -c acctpin /proc/self/mountinfo)
printf 'a header that is not a record\n' >pacct
chmod 640 pacct
cp pacct pacct.orig
prefix=$(wc -c <pacct)
mode_before=$(stat -c '%a %u %g %i' pacct)

run_cmd out err "$ACCTPIN" run --acct-file "$T_DIR/pacct" --allow-foreign
cat out err
check_eq "exit status" 0 "$RC"
check_eq "no message" "" "$(cat err)"
check_eq "no failed check" 0 "$(grep -c '^not ok' out)"
for s in plain lazy exiting switch; do
	ok "$s played on the file" grep -q "^ok [0-9]* - $s: last-record:" out
done
ok "bind skipped" grep -q '^ok [0-9]* - bind # SKIP with --acct-file, plain already unmounts a bind mount of the file$' out
ok "remount-ro skipped" grep -q "^ok [0-9]* - remount-ro # SKIP would remount the --acct-file's filesystem read-only$" out
ok "nearly-full skipped" grep -q "^ok [0-9]* - nearly-full # SKIP would fill the --acct-file's filesystem$" out

ok "what was there is still there" cmp -s -n "$prefix" pacct pacct.orig
size=$(wc -c <pacct)
ok "records were appended" test "$size" -gt "$prefix"
check_eq "whole records appended" 0 $(((size - prefix) % 64))
tail -c +$((prefix + 1)) pacct >appended
run_cmd dump err "$ACCTPIN" dump appended
check_eq "the appended records decode" "0 " "$RC $(cat err)"
ok "the markers are among them" grep -q '^apm-plain-0 ' dump
ok "the unmount records are among them" grep -q '^acctpin-umount ' dump
check_eq "mode, owner and inode unchanged" "$mode_before" "$(stat -c '%a %u %g %i' pacct)"
check_eq "accounting sysctl restored" "$sysctl_before" "$(acct_sysctl)"
check_eq "no mount left" "$mounts_before" "$(grep -c acctpin /proc/self/mountinfo)"
check_eq "temporary directory removed" "" "$(ls tmp)"

# --json names the file.
run_cmd json err "$ACCTPIN" run --json --scenario plain --acct-file "$T_DIR/pacct" --allow-foreign
check_eq "json: exit status" 0 "$RC"
ok "json: names the --acct-file" grep -qF "\"acct_file\":\"$T_DIR/pacct\"" json
if command -v python3 >/dev/null 2>&1; then
	ok "json: parses, with acct_file" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["acct_file"] == sys.argv[2] and d["failed"] == 0' json "$T_DIR/pacct"
fi

# A second run judges only its own records: the first run's are ignored.
run_cmd out err "$ACCTPIN" run --scenario plain --acct-file "$T_DIR/pacct" --allow-foreign
check_eq "second run: exit status" 0 "$RC"
ok "second run: only its own records" grep -q '^ok [0-9]* - plain: records: file: 6 whole' out

if command -v mkfs.ext4 >/dev/null 2>&1; then
	run_cmd out err "$ACCTPIN" run --scenario lazy --fs ext4 --acct-file "$T_DIR/pacct" --allow-foreign
	check_eq "with --fs ext4: exit status" 0 "$RC"
fi

# --dir: only directories that no other user can rename entries in.
mkdir open
chmod 777 open
run_cmd out err "$ACCTPIN" run --dir "$T_DIR/open"
check_eq "--dir writable by all: refused" \
	"1 acctpin: $T_DIR/open: writable by other users and not sticky: they could swap acctpin's directory there for a symbolic link" \
	"$RC $(cat err)"
check_eq "--dir writable by all: nothing made there" "" "$(ls -A open)"
chown nobody open
chmod 755 open
run_cmd out err "$ACCTPIN" run --dir "$T_DIR/open"
check_eq "--dir owned by another user: refused" \
	"1 acctpin: $T_DIR/open: owned by another user, who could swap acctpin's directory there for a symbolic link" \
	"$RC $(cat err)"
chown root open
chmod 1777 open
run_cmd out err "$ACCTPIN" run --dir "$T_DIR/open" --scenario plain
check_eq "--dir writable by all but sticky: accepted" 0 "$RC"
check_eq "--dir sticky: nothing left there" "" "$(ls -A open)"
check_eq "temporary directory removed at the end" "" "$(ls tmp)"
done_testing
