#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# spcat --offset on a socket that keeps message boundaries (SOCK_SEQPACKET,
# SOCK_DGRAM): a read takes one datagram and drops what does not fit, so
# skipping to the offset must read each datagram whole and keep the bytes
# past the offset of the one it falls in -- the stream's bytes from N on,
# as tail -c +N+1 gives them -- on the splice path and the text path alike.
. "$top_srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"

# on_socket KIND ARGS...: run spcat ARGS with standard input a KIND socket
# (SEQPACKET or DGRAM) of a socketpair down which the datagrams 0123456789,
# abcdef and XYZ were sent (and, for SEQPACKET, the sending end closed);
# spcat's output goes to out, its status to rc.
on_socket() {
	local kind=$1; shift
	python3 - "$kind" "$@" <<'PY'
import socket, subprocess, sys
kind = getattr(socket, "SOCK_" + sys.argv[1])
a, b = socket.socketpair(socket.AF_UNIX, kind)
for d in (b"0123456789", b"abcdef", b"XYZ"):
    a.send(d)
a.close()
with open("out", "wb") as out:
    try:
        rc = subprocess.run(sys.argv[2:], stdin=b, stdout=out, timeout=20).returncode
    except subprocess.TimeoutExpired:
        rc = "timeout"
open("rc", "w").write(str(rc))
PY
}

STREAM=0123456789abcdefXYZ
# expect DESCRIPTION EXPECTED: spcat's output and status.
expect() {
	check_eq "$1: output" "$2" "$(cat out)"
	check_eq "$1: status" 0 "$(cat rc)"
}

for path in "" "-A" "--no-splice"; do
	for n in 0 3 9 10 12 16 18 40; do
		on_socket SEQPACKET "$SPCAT" ${path:+"$path"} --offset "$n"
		want=$(printf %s "$STREAM" | tail -c +$((n + 1)))
		[ -n "$path" ] && [ "$path" = -A ] && want=$(printf %s "$want" | cat -A)
		expect "SEQPACKET ${path:+$path }--offset $n" "$want"
	done
	# With --length the copy ends inside a datagram.
	on_socket SEQPACKET "$SPCAT" ${path:+"$path"} --offset 3 --length 9
	expect "SEQPACKET ${path:+$path }--offset 3 --length 9" 3456789ab
	# A datagram socket of a pair sees no end: --length ends the copy.
	on_socket DGRAM "$SPCAT" ${path:+"$path"} --offset 12 --length 7
	expect "DGRAM ${path:+$path }--offset 12 --length 7" cdefXYZ
done

# The reference: Debian's tail reads the socket the same way.
on_socket SEQPACKET tail -c +4
check_eq "tail -c +4 reads the stream's bytes from 3 on" 3456789abcdefXYZ "$(cat out)"
done_testing
