#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --progress of spcat, sptee and spmove: numbers as pv -n off a terminal
# (or when asked), at least twice a second even while the input blocks,
# and under a pseudo-terminal a bar as wide as the terminal, then a
# summary line.
. "$top_srcdir/tests/lib.sh"

make_random big 4000000

# numbers FILE: FILE is lines of digits only, never decreasing.
numbers() {
	grep -qv '^[0-9][0-9]*$' "$1" && return 1
	sort -n -c "$1"
}

"$SPMOVE" --progress=numeric big m1 2>err
same_files "spmove --progress=numeric: the copy" big m1
ok "spmove --progress=numeric: only numbers, never decreasing" numbers err
check_eq "spmove --progress=numeric: ends at 100" 100 "$(tail -n 1 err)"

"$SPMOVE" --progress big m2 2>err
check_eq "spmove --progress off a terminal: numbers" 100 "$(tail -n 1 err)"

mkdir -p tree/sub
head -c 3000 big >tree/a
head -c 5000 big >tree/sub/b
"$SPMOVE" -r --progress=numeric tree tcopy 2>err
check_eq "spmove -r: the whole tree's total reached" 100 "$(tail -n 1 err)"

"$SPCAT" --progress=numeric big big >/dev/null 2>err
check_eq "spcat: the total of every operand" 100 "$(tail -n 1 err)"
"$SPCAT" --progress=numeric --offset=1000000 big >/dev/null 2>err
check_eq "spcat: the total counts from --offset" 100 "$(tail -n 1 err)"
cat big | "$SPCAT" --progress=numeric >/dev/null 2>err
check_eq "spcat from a pipe: bytes, as the total is not known" 4000000 "$(tail -n 1 err)"

"$SPTEE" --progress=numeric t1 t2 <big >/dev/null 2>err
same_files "sptee --progress: the copy" big t1
check_eq "sptee: the input's size as the total" 100 "$(tail -n 1 err)"

# While the input stays empty for 3 seconds, the display still ticks: six
# numbers at two a second, at least four of them after a slow start (as
# under the sanitizers on a busy machine) and the last one.
{ printf abc; sleep 3; printf def; } | "$SPCAT" --progress=numeric >/dev/null 2>err
ok "numbers at least twice a second while blocked" test "$(wc -l <err)" -ge 5
check_eq "the last number is the bytes copied" 6 "$(tail -n 1 err)"

run_cmd out err "$SPCAT" --progress=sometimes big
check_eq "a bad style: usage error" 1 "$RC"
check_eq "a bad style: message" "spcat: invalid argument 'sometimes' for '--progress'" \
	"$(head -n 1 err)"

# The bar, on a pseudo-terminal of COLS columns: sptee's output pipe is
# read only after a second, so that the bar is drawn with the copy half done.
# bar_on COLS: the bar lines, one a line, without the escape sequences.
bar_on() {
	script -qec "stty cols $1; '$SPTEE' --progress t3 <big | (sleep 1; cat >/dev/null)" \
		/dev/null >typescript 2>&1
	tr '\r' '\n' <typescript | sed 's/\x1b\[K//g' | grep -v '^$'
}
if command -v script >/dev/null 2>&1; then
	bar_on 120 >bar120
	ok "bar: percentage, elapsed time, rate and ETA" \
		grep -qE '[0-9.]+ [KMG]?i?B / 3\.8 MiB 0:00:0[0-9] \[.*/s\] +[0-9]+% ETA 0:' bar120
	ok "bar: drawn as [===>   ]" grep -qE ' \[=*>? *\]$' bar120
	ok "bar: fits in 120 columns" test "$(awk '{ if (length > m) m = length } END { print m }' bar120)" -le 119
	ok "bar: uses the terminal's width" test "$(awk '/\]$/ { print length; exit }' bar120)" -ge 110
	ok "bar: a summary line at the end" \
		grep -qE '^sptee: 3\.8 MiB in 0:00:0[0-9], [0-9.]+ [KMG]iB/s$' bar120
	bar_on 60 >bar60
	ok "bar: fits in 60 columns" test "$(awk '{ if (length > m) m = length } END { print m }' bar60)" -le 59
	# Narrower terminals: the figures that do not fit are left out, so
	# that the line never wraps (a wrapped line leaves one line per redraw).
	for cols in 40 24 10; do
		bar_on $cols | grep -v '^sptee: ' >bar$cols
		ok "bar: fits in $cols columns" \
			test "$(awk '{ if (length > m) m = length } END { print m + 0 }' bar$cols)" -le $((cols - 1))
		ok "bar: drawn in $cols columns" grep -q '%' bar$cols
	done
	ok "bar in 40 columns: bytes, total and percentage kept" \
		grep -qE '^[0-9.]+ [KMG]?i?B / 3\.8 MiB .* +[0-9]+%' bar40
	# spcat's bar names the file being copied.
	script -qec "stty cols 100; '$SPCAT' --progress big | (sleep 1; cat >/dev/null)" \
		/dev/null >typescript 2>&1
	tr '\r' '\n' <typescript | sed 's/\x1b\[K//g' | grep -v '^$' >spcat-bar
	ok "spcat's bar names the file" grep -qE '^big [0-9.]+ [KMG]?i?B / 3\.8 MiB' spcat-bar
fi
done_testing
