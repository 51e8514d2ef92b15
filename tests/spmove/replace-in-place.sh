#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# spcp over an existing file: replaced by a complete new file only where
# the result is the one GNU cp gives by writing into it; otherwise written
# in place, as cp does (-v says why): a bind-mounted file (docker's
# /etc/hosts), a file with other hard links, a root-owned file copied over
# by another user, a file with extended attributes, and /dev/stdout in an
# append redirection (the caller's later writes are kept).  Each case side
# by side with GNU cp 9.11 (issue 35, items 1 and 3).
[ -n "${BASH_VERSION-}" ] || exec bash "$0" "$@"
. "$top_srcdir/tests/lib.sh"
require_root
LC_ALL=C
export LC_ALL
GNU_CP=$(gnu cp)
chmod 755 "$T_DIR"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }

# run_case TOOL DIR: the cases, copied by TOOL in DIR; prints what results.
run_case() {
	local cp=$1 d=$2
	mkdir "$d" && cd "$d" || return 1
	echo data >src
	chmod 644 src
	# A bind-mounted file.
	echo old >bound; echo orig >mounted
	mount --bind mounted bound || return 1
	"$cp" src bound; echo "bind: rc=$? $(cat bound) $(cat mounted)"
	umount bound
	# Hard links.
	echo old >h1; ln h1 h2
	"$cp" src h1; echo "links: rc=$? $(cat h2) $(stat -c %h h1)"
	# /dev/stdout in an append redirection.
	echo old >log
	{ echo pre; "$cp" src /dev/stdout; echo post; } >>log
	echo "stdout: $(tr '\n' ' ' <log)"
	# Another user's copy over root's world-writable file.
	if [ "$NOBODY" = yes ]; then
		chmod 777 .
		echo old >rootf; chmod 666 rootf
		as_nobody "$cp" src rootf; echo "owner: rc=$? $(cat rootf) $(stat -c '%U %a' rootf)"
		chmod 755 .
	fi
	# Extended attributes.
	echo old >xa
	if setfattr -n user.note -v kept xa 2>/dev/null; then
		"$cp" src xa; echo "xattr: rc=$? $(cat xa) $(getfattr --only-values -n user.note xa)"
	fi
	# A file replaceable as a whole: the same result either way.
	echo old >plain; chmod 640 plain
	"$cp" src plain; echo "plain: rc=$? $(cat plain) $(stat -c %a plain)"
	echo "left: $(ls -A | grep -c spmove)"
	cd ..
}

NOBODY=no
nobody_runs "$SPCP" && NOBODY=yes
ours=$(run_case "$SPCP" ours 2>&1)
echo "$ours"
check_eq "a bind-mounted file is written (its mount's file too)" \
	"bind: rc=0 data data" "$(echo "$ours" | grep '^bind:')"
check_eq "every hard link sees the new data" "links: rc=0 data 2" "$(echo "$ours" | grep '^links:')"
check_eq "/dev/stdout in >> is written through, the caller's later writes kept" \
	"stdout: data post " "$(echo "$ours" | grep '^stdout:')"
[ "$NOBODY" = yes ] &&
	check_eq "another user's copy keeps root's ownership" "owner: rc=0 data root 666" \
		"$(echo "$ours" | grep '^owner:')"
check_eq "extended attributes of DST kept" "xattr: rc=0 data kept" "$(echo "$ours" | grep '^xattr:')"
check_eq "a plain file: replaced, mode kept" "plain: rc=0 data 640" "$(echo "$ours" | grep '^plain:')"
check_eq "no temporary left" "left: 0" "$(echo "$ours" | grep '^left:')"
check_eq "silent" "" "$(echo "$ours" | grep -v '^[a-z]*: ')"

if [ -x "$GNU_CP" ]; then
	gnu=$(run_case "$GNU_CP" theirs 2>&1)
	check_eq "the same results as GNU cp" "$gnu" "$ours"
fi

# -v says why it writes in place.
echo a >v1; ln v1 v2; echo data >src
run_cmd out err "$SPCP" -v src v1
check_eq "-v: the line" "'src' -> 'v1'" "$(cat out)"
check_eq "-v: says it writes in place" "spcp: 'v1': other names link to it: writing in place" "$(cat err)"
# A move replaces (mv's result is a new file there too).
echo old >m1; ln m1 m2; echo new >msrc
"$SPMOVE" --remove-source msrc m1
check_eq "a move replaces the name: the other link keeps the old data" "new old" "$(cat m1) $(cat m2)"
done_testing
