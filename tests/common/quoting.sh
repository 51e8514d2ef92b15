#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Names in every tool's messages, shell-escaped as coreutils quotes them:
# never a raw newline, escape byte or invalid UTF-8 on the terminal, and
# the same text from every tool (cat and tee quote only when needed, cp and
# mv always).
. "$top_srcdir/tests/lib.sh"

# The hostile name and how coreutils writes it.
name=$(printf 'a\nb\033[1mc\377')
want="'a'\$'\\n''b'\$'\\033''[1mc'\$'\\377'"
esc=$(printf '\033')

# no_raw_bytes FILE: FILE holds no escape byte and one line.
no_raw_bytes() { [ "$(wc -l <"$1")" = 1 ] && ! grep -q "$esc" "$1"; }

run_cmd out err "$SPCAT" "$name"
check_eq "spcat: a missing file" "spcat: $want: No such file or directory" "$(cat err)"
ok "spcat: nothing raw" no_raw_bytes err

run_cmd out err "$SPTEE" "nodir/$name" </dev/null
check_eq "sptee: an output it cannot open" \
	"sptee: 'nodir/a'\$'\\n''b'\$'\\033''[1mc'\$'\\377': No such file or directory" "$(cat err)"
ok "sptee: nothing raw" no_raw_bytes err

run_cmd out err "$SPMOVE" "$name" x
check_eq "spmove: a missing source" "spmove: cannot stat $want: No such file or directory" \
	"$(cat err)"
ok "spmove: nothing raw" no_raw_bytes err

: >plain
run_cmd out err "$SPMOVE" -v plain "$name"
check_eq "spmove -v: the destination" "'plain' -> $want" "$(cat out)"

run_cmd out err "$ACCTPIN" dump "nodir/$name"
check_eq "acctpin dump: a missing file" \
	"acctpin: 'nodir/a'\$'\\n''b'\$'\\033''[1mc'\$'\\377': No such file or directory" "$(cat err)"

# A single quote alone is written in double quotes, as coreutils 9.11 does.
run_cmd out err "$SPCAT" "it's"
check_eq "spcat: a name with a single quote" "spcat: \"it's\": No such file or directory" \
	"$(cat err)"
run_cmd out err "$SPMOVE" "it's" x
check_eq "spmove: a name with a single quote" \
	"spmove: cannot stat \"it's\": No such file or directory" "$(cat err)"

# Side by side with GNU cat and cp where they are installed.
if command -v cat >/dev/null && cat --version 2>/dev/null | grep -q GNU; then
	cat "$name" 2>err.gnu
	run_cmd out err "$SPCAT" "$name"
	check_eq "spcat quotes as GNU cat" "$(sed 's/^cat:/spcat:/' err.gnu)" "$(cat err)"
	cp "$name" x 2>err.gnu
	run_cmd out err "$SPMOVE" "$name" x
	check_eq "spmove quotes as GNU cp" "$(sed 's/^cp:/spmove:/' err.gnu)" "$(cat err)"
fi
done_testing
