#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# spcp and spmv print nothing unasked, as cp and mv: no progress bar and
# no summary line on a terminal even for a copy of 64 MiB or more (spmove
# under its own name shows one there); and they accept --no-progress,
# spelled out in full, without changing any abbreviation of GNU's options
# (issue 35, item 8).
[ -n "${BASH_VERSION-}" ] || exec bash "$0" "$@"
. "$top_srcdir/tests/lib.sh"
LC_ALL=C
export LC_ALL
command -v script >/dev/null || skip "no script(1) for a terminal"
head -c 70000000 /dev/zero >big
mkdir -p "${TMPDIR:-/tmp}" other
# on_tty CMD...: what CMD writes on a terminal (stdout and stderr).
on_tty() { script -qec "$*" /dev/null </dev/null; }

check_eq "spcp on a terminal, 70 MB: silent" "" "$(on_tty "$SPCP" big c1)"
same_files "spcp: the copy" big c1
check_eq "spcp -r on a terminal: silent" "" "$(mkdir t && cp big t/ && on_tty "$SPCP" -r t t2)"
if mount -t tmpfs -o size=100m quiet other 2>/dev/null; then
	at_exit "umount '$T_DIR/other'"
	check_eq "spmv across file systems on a terminal: silent" "" "$(on_tty "$SPMV" c1 other/m)"
fi
ok "spmove on a terminal shows its progress" test -n "$(on_tty "$SPMOVE" big c2)"
run_cmd out err "$SPCP" --no-progress big c3
check_eq "spcp --no-progress: accepted" "0" "$RC$(cat out err)"
run_cmd out err "$SPMV" --no-progress c3 c4
check_eq "spmv --no-progress: accepted" "0" "$RC$(cat out err)"
run_cmd out err "$SPCP" --no-p big c5
check_eq "spcp --no-p: still --no-preserve, as GNU cp's" \
	"spcp: invalid argument 'big' for '--no-preserve'" "$(head -n 1 err)"
done_testing
