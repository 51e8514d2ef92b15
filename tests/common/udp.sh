#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# spcat and sptee into a UDP socket (issue 30): splice and sendfile send a
# whole chunk as one datagram, which UDP refuses over 64 KiB (EMSGSIZE,
# nothing sent).  Into a socket that keeps message boundaries the tools
# write datagrams of 8 KiB, as GNU tee does (GNU cat 9.11 falls back to
# read/write after EMSGSIZE: from a file it gets all through, from a pipe
# its first write of 64 KiB is refused again).  A receiver on the loopback
# gets every byte, in order.
. "$top_srcdir/tests/lib.sh"
command -v socat >/dev/null 2>&1 || skip "no socat"
[ -n "${BASH_VERSION:-}" ] || skip "the shell has no /dev/udp (bash's)"

# More than a datagram can hold, and few enough 8 KiB datagrams (13) that
# the receiver's default buffer holds them all even before it reads.
make_random data 100000
PORT=$((20000 + $$ % 20000))

# receive FILE: start a receiver on 127.0.0.1:$PORT that writes what it
# gets to FILE and ends 2 s after the last datagram; wait until it listens.
# It reads each datagram into 8 KiB (socat's default): a larger one would
# lose its end.
receive() {
	rm -f "$1"
	socat -u -T 2 "UDP-RECV:$PORT,bind=127.0.0.1" "OPEN:$1,creat,trunc" &
	RECEIVER=$!
	n=0
	while ! ss -Hlun "sport = :$PORT" 2>/dev/null | grep -q . && [ $n -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}

# send WHAT FILE CMD...: run CMD (its stdout the socket) and check that it
# said nothing, exited 0, and that FILE got every byte.
send() {
	local what=$1 got=$2; shift 2
	receive "$got"
	"$@" >/dev/udp/127.0.0.1/$PORT 2>err
	check_eq "$what: exit status and messages" "0 " "$? $(cat err)"
	wait $RECEIVER
	same_files "$what: every byte received" data "$got"
}

send "spcat FILE" r1 "$SPCAT" data
send "spcat < FILE" r2 "$SPCAT" <data
send "spcat from a pipe" r3 sh -c "cat data | '$SPCAT'"
send "spcat --no-splice" r4 "$SPCAT" --no-splice data
send "sptee < FILE" r5 "$SPTEE" <data
send "sptee from a pipe" r6 sh -c "cat data | '$SPTEE'"
send "sptee with a file too" r7 "$SPTEE" copy <data
same_files "sptee with a file too: the file" data copy
send "sptee from a pipe with a file too" r8 sh -c "cat data | '$SPTEE' copy2"
same_files "sptee from a pipe with a file too: the file" data copy2
TEE=$(gnu tee)
send "GNU tee, for comparison" r9 "$TEE" <data

done_testing
