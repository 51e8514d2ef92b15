# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by tests/spmove/opt-*.sh (spmove's cp/mv options, issue 13): the
# expected results were settled by running GNU cp 9.11 (and for moves by
# reading mv 9.11's sources); the tests do not need GNU's tools.
. "$top_srcdir/tests/lib.sh"
LC_ALL=C
export LC_ALL
umask 022

# fresh NAME: an empty directory NAME under the scratch directory, made the
# current directory; every scenario starts in one.
fresh() {
	cd "$T_DIR" && rm -rf "$1" && mkdir "$1" && cd "$1" || exit 99
}

# expect DESCRIPTION STATUS STDOUT STDERR ARG...: spmove ARG... exits with
# STATUS and prints exactly STDOUT and STDERR (three checks). The output goes
# to the scratch directory, out of the way of the files under test.
expect() {
	local what=$1 status=$2 out=$3 err=$4
	shift 4
	"$SPMOVE" "$@" >"$T_DIR/stdout" 2>"$T_DIR/stderr"
	RC=$?
	check_eq "$what: status" "$status" "$RC"
	check_eq "$what: stdout" "$out" "$(cat "$T_DIR/stdout")"
	check_eq "$what: stderr" "$err" "$(cat "$T_DIR/stderr")"
}

# usage_expect DESCRIPTION MESSAGE ARG...: spmove ARG... is a usage error:
# status 1, nothing on stdout, "spmove: MESSAGE" and the hint to --help.
usage_expect() {
	local what=$1 message=$2
	shift 2
	expect "$what" 1 "" "spmove: $message
Try 'spmove --help' for more information." "$@"
}

# no_temp_left DESCRIPTION [DIR]: no .spmove-* temporary file under DIR (.).
no_temp_left() {
	ok "$1: no temporary file left" test -z "$(find "${2:-.}" -name '.spmove-*' | head -1)"
}

# content FILE: FILE's bytes, or "<missing>" when it does not exist.
content() {
	if [ -e "$1" ] || [ -L "$1" ]; then cat "$1" 2>&1; else echo "<missing>"; fi
}

# listing: the names under the current directory, sorted, one a line.
listing() { find . -mindepth 1 | LC_ALL=C sort; }
