#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# spcat's messages and exit statuses, compared with GNU cat's.
. "$top_srcdir/tests/lib.sh"

same_as_cat() {
	local what=$1; shift
	"$SPCAT" "$@" >sp.out 2>sp.err; local sp_rc=$?
	cat "$@" >cat.out 2>cat.err; local cat_rc=$?
	sed 's/^cat:/spcat:/' cat.err >cat.err.renamed
	ok "$what: same output" cmp -s sp.out cat.out
	ok "$what: same messages" cmp -s sp.err cat.err.renamed
	check_eq "$what: same status" "$cat_rc" "$sp_rc"
}

make_random a 70000
make_random b 5000
mkdir dir
same_as_cat "missing file, then carry on" nope a
same_as_cat "directory among files" a dir b
same_as_cat "odd file name" "no such 'file'" b

# Unreadable file: root reads everything, so drop to nobody.
chmod 600 b
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
chmod 755 "$T_DIR"
chmod 644 a
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	echo "# not root: the unreadable-file check is left out"
elif ! as_nobody "$SPCAT" --version >/dev/null 2>&1; then
	echo "# the build tree is not reachable for nobody: the unreadable-file check is left out"
else
	as_nobody "$SPCAT" a b >sp.out 2>sp.err; sp_rc=$?
	as_nobody cat a b >cat.out 2>cat.err; cat_rc=$?
	sed 's/^cat:/spcat:/' cat.err >cat.err.renamed
	same_files "unreadable file: same output" sp.out cat.out
	same_files "unreadable file: same message" sp.err cat.err.renamed
	check_eq "unreadable file: same status" "$cat_rc" "$sp_rc"
fi

# Input file is output file.
cp a log.sp
cp a log.cat
"$SPCAT" b log.sp >>log.sp 2>sp.err; sp_rc=$?
cat b log.cat >>log.cat 2>cat.err; cat_rc=$?
sed 's/^cat:/spcat:/; s/log.cat/log.sp/' cat.err >cat.err.renamed
same_files "input is output: same message" sp.err cat.err.renamed
check_eq "input is output: same status" "$cat_rc" "$sp_rc"
ok "input is output: other operands still copied" cmp -s log.sp log.cat

# Output errors: a full device, a closed stdout.
"$SPCAT" a >/dev/full 2>sp.err; sp_rc=$?
cat a >/dev/full 2>cat.err; cat_rc=$?
sed 's/^cat:/spcat:/' cat.err >cat.err.renamed
same_files "/dev/full: same message" sp.err cat.err.renamed
check_eq "/dev/full: same status" "$cat_rc" "$sp_rc"
"$SPCAT" a >&- 2>sp.err; sp_rc=$?
cat a >&- 2>cat.err; cat_rc=$?
sed 's/^cat:/spcat:/' cat.err >cat.err.renamed
same_files "closed stdout: same message" sp.err cat.err.renamed
check_eq "closed stdout: same status" "$cat_rc" "$sp_rc"

# A reader that goes away: killed by SIGPIPE like cat, or, with SIGPIPE
# ignored, "write error: Broken pipe" and status 1 like cat.
make_random big 8388608
sp_rc=$( { "$SPCAT" big; echo $? >rc.sp; } | head -c 10 >/dev/null; cat rc.sp)
cat_rc=$( { cat big; echo $? >rc.cat; } | head -c 10 >/dev/null; cat rc.cat)
check_eq "reader goes away: same status" "$cat_rc" "$sp_rc"
( trap '' PIPE; { "$SPCAT" big 2>sp.err; echo $? >rc.sp; } | head -c 10 >/dev/null )
( trap '' PIPE; { cat big 2>cat.err; echo $? >rc.cat; } | head -c 10 >/dev/null )
sed 's/^cat:/spcat:/' cat.err >cat.err.renamed
same_files "SIGPIPE ignored: same message" sp.err cat.err.renamed
check_eq "SIGPIPE ignored: same status" "$(cat rc.cat)" "$(cat rc.sp)"

# Usage errors, --help, --version.
"$SPCAT" --bogus a >sp.out 2>sp.err
check_eq "unknown option: status 1" 1 $?
check_eq "unknown option: message" "spcat: unrecognized option '--bogus'
Try 'spcat --help' for more information." "$(cat sp.err)"
ok "unknown option: no output" test ! -s sp.out
for opt in -A -b -e -E -n -s -t -T -v; do
	"$SPCAT" $opt a >sp.out 2>sp.err
	rc=$?
	cat $opt a >cat.out
	ok "$opt is taken (status 0, nothing on stderr)" test $rc = 0 -a ! -s sp.err
	same_files "$opt formats as cat" sp.out cat.out
done
"$SPCAT" --offset 12Q a >sp.out 2>sp.err
check_eq "bad size: status 1" 1 $?
check_eq "bad size: message" "spcat: invalid offset: '12Q'" "$(head -n1 sp.err)"
"$SPCAT" --help >help.out 2>help.err
check_eq "--help: status 0" 0 $?
ok "--help on stdout" grep -q '^Usage: spcat' help.out
ok "--help lists --offset" grep -q -- '--offset=N' help.out
ok "--help: nothing on stderr" test ! -s help.err
"$SPCAT" --version >v.out
check_eq "--version: status 0" 0 $?
ok "--version names the package" grep -q "^spcat (splice-utils) [0-9]" v.out
"$SPCAT" --help >/dev/full 2>/dev/null
check_eq "--help into a full device fails" 1 $?

done_testing
