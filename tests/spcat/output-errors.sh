#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# An output error ends spcat's run with one "write error", as GNU cat's:
# never blamed on the input file, never followed by the next operand
# (issue 30: into a socket, a sendfile(2) error was reported as the input
# file's and spcat went on with the next file).  Side by side with GNU cat
# (gnu cat: $PEER_COREUTILS's or the system's), with several operands.
. "$top_srcdir/tests/lib.sh"
CAT=$(gnu cat)

make_random a 200000
seq 1000 >b

# Older GNU cats (Debian 12's 9.1) blamed the input for some of these
# too; the comparisons run against GNU cat 9.11 or later only.
case $("$CAT" --version | sed -n '1s/.* \([0-9][0-9]*\)\.\([0-9][0-9]*\).*/\1 \2/p') in
9\ 1[1-9]* | 9\ [2-9][0-9] | [1-9][0-9]*\ *) new_cat=yes ;;
*) new_cat=no; echo "# $CAT is older than 9.11: spcat is checked alone" ;;
esac

# same_as_cat WHAT MESSAGE SETUP OPERANDS...: spcat, after SETUP (a shell
# command run in the subshell, whose stdout is the output), says MESSAGE
# alone (GNU cat 9.11's words) and exits 1; and so does GNU cat 9.11.
same_as_cat() {
	local what=$1 message=$2 setup=$3; shift 3
	( eval "$setup"; exec "$SPCAT" "$@" ) 2>sp.err
	check_eq "$what: one message, status 1" "1 spcat: $message" "$? $(cat sp.err)"
	[ $new_cat = yes ] || return 0
	( eval "$setup"; exec "$CAT" "$@" ) 2>cat.err
	check_eq "$what: GNU cat alike" "1 cat: $message" "$? $(sed 's/^[^:]*: /cat: /' cat.err)"
}

same_as_cat "/dev/full, a large file first" "write error: No space left on device" \
	"exec >/dev/full" a b
same_as_cat "/dev/full, a small file first" "write error: No space left on device" \
	"exec >/dev/full" b a b
same_as_cat "file too large (ulimit -f)" "write error: File too large" \
	"ulimit -f 10; trap '' XFSZ; exec >out" b a b

# A reader that goes away, SIGPIPE ignored: one "Broken pipe", nothing
# more (big: more than any pipe holds, so that the reader is gone first).
make_random big 4000000
same_as_cat "closed pipe" "write error: Broken pipe" \
	"trap '' PIPE; exec > >(head -c 10 >/dev/null)" big b big

if [ "$(id -u)" = 0 ] && mkdir full && mount -t tmpfs -o size=64k sptest "$T_DIR/full"; then
	at_exit "umount '$T_DIR/full'"
	same_as_cat "a full file system" "write error: No space left on device" \
		"exec >full/out" a b
	rm -f full/out
	"$SPCAT" a b >full/out 2>/dev/null
	head -c "$(wc -c <full/out)" a >want
	same_files "a full file system: what fitted of a, nothing of b" want full/out
else
	echo "# not root: the full file system is left out"
fi

# Into a TCP socket whose peer resets the connection: spcat's sendfile(2)
# and cat's write(2) made to fail with ECONNRESET (strace).
if [ -n "${BASH_VERSION:-}" ] && command -v socat >/dev/null 2>&1 &&
	"$STRACE" -qq -o /dev/null -e trace=none true 2>/dev/null; then
	use_built_library
	PORT=$((20000 + $$ % 20000))
	# reset_run OUT BINARY SYSCALL: run BINARY b b into a TCP socket
	# whose first SYSCALL fails with ECONNRESET; OUT gets what arrived.
	reset_run() {
		socat -u -T 2 "TCP-LISTEN:$PORT,bind=127.0.0.1,reuseaddr" "OPEN:$1,creat,trunc" &
		local receiver=$! n=0
		while ! ss -Hltn "sport = :$PORT" 2>/dev/null | grep -q . && [ $n -lt 50 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			"$STRACE" -qq -o /dev/null -e trace="$3" -e inject="$3:error=ECONNRESET:when=1" \
			"$2" b b >"/dev/tcp/127.0.0.1/$PORT"
		RC=$?
		wait $receiver
	}
	reset_run sp.out "$(real_bin spcat)" sendfile 2>sp.err
	sp_rc=$RC
	reset_run cat.out "$CAT" write 2>cat.err
	check_eq "connection reset: one message, status 1" \
		"1 spcat: write error: Connection reset by peer" "$sp_rc $(cat sp.err)"
	check_eq "connection reset: GNU cat alike" "cat: write error: Connection reset by peer" \
		"$(sed 's/^[^:]*: /cat: /' cat.err)"
	check_eq "connection reset: the next operand not sent" 0 "$(wc -c <sp.out)"
else
	echo "# no bash, socat or strace: the connection reset is left out"
fi
done_testing
