#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# spmove under its own name takes every option spcp takes from cp (besides
# its own): -l, -s, -x, --parents, --attributes-only, --copy-contents,
# --keep-directory-symlink, --debug, --strip-trailing-slashes, each doing
# what it does in spcp (issue 35, item 10).
[ -n "${BASH_VERSION-}" ] || exec bash "$0" "$@"
. "$top_srcdir/tests/lib.sh"
LC_ALL=C
export LC_ALL

mkdir -p src/sub && echo data >src/sub/f && mkfifo src/fifo
# each TOOL DIR: every option with TOOL into DIR; prints what results.
each() {
	local t=$1 d=$2
	mkdir "$d"
	"$t" -l src/sub/f "$d/hard"; echo "l: $? $([ "$d/hard" -ef src/sub/f ] && echo same)"
	"$t" -s "$T_DIR/src/sub/f" "$d/sym"; echo "s: $? $(readlink "$d/sym")"
	"$t" -rx src "$d/x"; echo "x: $? $(cat "$d/x/sub/f")"
	"$t" --parents src/sub/f "$d"; echo "parents: $? $(cat "$d/src/sub/f")"
	echo old >"$d/ao"; "$t" --attributes-only src/sub/f "$d/ao"; echo "attributes-only: $? $(cat "$d/ao")"
	(sleep 1; echo fifo >src/fifo) & "$t" -r --copy-contents src/fifo "$d/cc"; wait
	echo "copy-contents: $? $(cat "$d/cc")"
	mkdir "$d/real"; ln -s real "$d/link"; mkdir -p kds/link; echo k >kds/link/k
	"$t" -r --keep-directory-symlink kds/. "$d"; echo "keep-directory-symlink: $? $(cat "$d/real/k")"
	"$t" --debug src/sub/f "$d/dbg" | head -n 1; echo "debug: ${PIPESTATUS[0]}"
	"$t" -r --strip-trailing-slashes src/sub/ "$d/sts"; echo "strip-trailing-slashes: $? $(cat "$d/sts/f")"
}
ours=$(each "$SPMOVE" a 2>&1)
echo "$ours"
theirs=$(each "$SPCP" b 2>&1 | sed "s#'b/#'a/#")
check_eq "spmove takes each: none refused" "" "$(echo "$ours" | grep -i 'unrecognized\|invalid')"
check_eq "each does what it does in spcp" "$theirs" "$ours"
ok "spmove --help lists them" sh -c "'$SPMOVE' --help | grep -q -- '--one-file-system'"
done_testing
