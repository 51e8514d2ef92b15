#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A small mutation check: each mutant in tests/mutants/list breaks the code
# on purpose, and the test it names must then fail.  The mutants are made in
# a scratch copy of the built tree (the tree itself is never changed), one at
# a time, rebuilt incrementally, and undone before the next.
#
#   tests/mutants/run.sh [NAME...]     (make check-mutants; MUTANTS="NAME...")
#
# Exit 0 when every mutant was killed; 1 when one survived, did not apply
# (its text is gone from the file, or is there more than once) or did not
# build; 99 when the named tests fail without any mutant.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
list=${MUTANT_LIST:-$top/tests/mutants/list}
[ $# -gt 0 ] || set -- ${MUTANTS:-}
# The mutants' make runs its own jobs, not the parent make's.
unset MAKEFLAGS MFLAGS MAKELEVEL
jobs=$(nproc 2>/dev/null || echo 2)

[ -f "$top/config.status" ] && [ -f "$top/Makefile" ] || {
	echo "check-mutants: configure and build the tree first (in the source tree)" >&2
	exit 99
}

# Read the list: stanzas of "KEY VALUE" lines (mutant, file, from, to, test),
# "from" and "to" with printf's backslash escapes (\n, \t).
names=() files=() froms=() tos=() tests=()
add() { names+=("$1") files+=("$2") froms+=("$3") tos+=("$4") tests+=("$5"); }
n= f= fr= t= te=
while IFS= read -r line || [ -n "$line" ]; do
	case $line in
	'#'* | '') continue ;;
	'mutant '*) [ -z "$n" ] || add "$n" "$f" "$fr" "$t" "$te"
		n=${line#mutant } f= fr= t= te= ;;
	'file '*) f=${line#file } ;;
	'from '*) fr=${line#from } ;;
	'to '* | to) t=${line#to}; t=${t# } ;;
	'test '*) te=${line#test } ;;
	*) echo "check-mutants: $list: cannot read: $line" >&2; exit 99 ;;
	esac
done <"$list"
[ -z "$n" ] || add "$n" "$f" "$fr" "$t" "$te"

chosen=()
for i in "${!names[@]}"; do
	if [ $# -eq 0 ] || [[ " $* " == *" ${names[$i]} "* ]]; then
		chosen+=("$i")
	fi
done
[ ${#chosen[@]} -gt 0 ] || { echo "check-mutants: no mutant chosen" >&2; exit 99; }

# The scratch copy: the built tree, with its absolute paths (Makefile,
# config.status, libtool's wrapper scripts) turned into the copy's.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/splice-utils-mutants.XXXXXX") || exit 99
trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT TERM HUP
copy=$scratch/tree
t0=$SECONDS
cp -a "$top" "$copy" || exit 99
rm -f "$copy"/tests/*/*.log "$copy"/tests/*/*.trs "$copy"/test-suite.log
grep -rlIZ --exclude-dir=.git --exclude-dir=autom4te.cache -F "$top" "$copy" |
	xargs -0 -r sed -i "s|$top|$copy|g"
cd "$copy" || exit 99

# run_tests TESTS: make check with TESTS ("check-unit": the unit tests);
# prints the results of the failed ones.  Returns make's status.  The
# tests' scratch files go under $scratch (TMPDIR): a test that fails, as
# it should under a mutant, does not get to remove its own.
mkdir "$scratch/tmp" || exit 99
run_tests() {
	local t=" $1 "
	[[ $t != *" check-unit "* ]] || t="${t/ check-unit / $(make -s print-unit-tests) }"
	TMPDIR=$scratch/tmp nice make -s -j"$jobs" check TESTS="$t" >"$scratch/make.out" 2>&1
	local rc=$?
	grep -E '^(FAIL|ERROR|SKIP):' "$scratch/make.out" | tr '\n' ' '
	return $rc
}

echo "check-mutants: ${#chosen[@]} mutants, in $copy"
# The tests must pass before any mutant.
wanted=$(for i in "${chosen[@]}"; do echo "${tests[$i]}"; done | sort -u | tr '\n' ' ')
if ! out=$(run_tests "$wanted"); then
	echo "check-mutants: the tests fail without a mutant: $out" >&2
	cat "$scratch/make.out" >&2
	exit 99
fi
echo "check-mutants: the tests pass unchanged ($((SECONDS - t0)) s)"

killed=0 bad=()
for i in "${chosen[@]}"; do
	name=${names[$i]} file=${files[$i]} test=${tests[$i]}
	from=$(printf '%b' "${froms[$i]}") to=$(printf '%b' "${tos[$i]}")
	t1=$SECONDS
	count=$(FROM=$from perl -0777 -ne '$c = () = /\Q$ENV{FROM}\E/g; print $c' "$file" 2>/dev/null)
	if [ "$count" != 1 ]; then
		echo "NOT APPLIED $name: its text is in $file ${count:-0} times, not once"
		bad+=("$name")
		continue
	fi
	cp -p "$file" "$scratch/original"
	FROM=$from TO=$to perl -0777 -pi -e 's/\Q$ENV{FROM}\E/$ENV{TO}/' "$file"
	if ! nice make -s -j"$jobs" all >"$scratch/make.out" 2>&1; then
		echo "NOT BUILT $name: $file does not compile with it"
		bad+=("$name")
	elif out=$(run_tests "$test"); then
		echo "SURVIVED $name ($file): $test passes ($((SECONDS - t1)) s)"
		bad+=("$name")
	else
		echo "killed $name ($file) by $test: $out($((SECONDS - t1)) s)"
		killed=$((killed + 1))
	fi
	# Undo: the file as it was, newer than what was built from the mutant.
	cp "$scratch/original" "$file" && touch "$file"
done
echo "check-mutants: $killed killed of ${#chosen[@]} in $((SECONDS - t0)) s"
if [ ${#bad[@]} -gt 0 ]; then
	echo "check-mutants: not killed: ${bad[*]}"
	exit 1
fi
