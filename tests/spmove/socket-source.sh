#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A socket read as data (spcp without -R, or with --copy-contents, and
# /dev/stdin connected to a socket) cannot be opened: "cannot open ... for
# reading: No such device or address", exit 1, nothing made -- as GNU cp
# 9.11; with -R a socket node is made (issue 35, item 6).
[ -n "${BASH_VERSION-}" ] || exec bash "$0" "$@"
. "$top_srcdir/tests/lib.sh"
LC_ALL=C
export LC_ALL
GNU_CP=$(gnu cp)
command -v python3 >/dev/null || skip "python3 makes the sockets"
python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("sock")' || skip "no socket"

# cases CP: prints the statuses, messages and what was made.
cases() {
	local cp=$1 err
	rm -rf out; mkdir out
	err=$("$cp" sock out/copy 2>&1); echo "plain: $? $err $(stat -c %F out/copy 2>&1 | sed 's/.*: //')"
	err=$("$cp" -R --copy-contents sock out/cc 2>&1); echo "copy-contents: $? $err"
	err=$("$cp" -R sock out/node 2>&1); echo "R: $? $err $(stat -c %F out/node)"
	err=$(python3 -c '
import socket, subprocess, sys
a, b = socket.socketpair()
a.sendall(b"data")
a.shutdown(socket.SHUT_WR)
sys.exit(subprocess.call([sys.argv[1], "/dev/stdin", "out/in"], stdin=b))' "$cp" 2>&1)
	echo "stdin socket: $? $err $(cat out/in 2>&1 | sed 's/.*: //')"
}
ours=$(cases "$SPCP" | as_cp spcp)
echo "$ours"
check_eq "a socket as data: GNU's error, nothing made" \
	"plain: 1 CP: cannot open 'sock' for reading: No such device or address No such file or directory" \
	"$(echo "$ours" | grep '^plain:')"
check_eq "--copy-contents: the same error" \
	"copy-contents: 1 CP: cannot open 'sock' for reading: No such device or address" \
	"$(echo "$ours" | grep '^copy-contents:')"
check_eq "-R: a socket node" "R: 0  socket" "$(echo "$ours" | grep '^R:')"
check_eq "/dev/stdin a connected socket: GNU's error" \
	"stdin socket: 1 CP: cannot open '/dev/stdin' for reading: No such device or address No such file or directory" \
	"$(echo "$ours" | grep '^stdin socket:')"
if [ -x "$GNU_CP" ]; then
	gnu=$(cases "$GNU_CP" | as_cp cp)
	check_eq "as GNU cp" "$gnu" "$ours"
fi
done_testing
