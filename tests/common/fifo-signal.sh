#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A signal while spcat or sptee is blocked opening a FIFO (issue 30):
# silent, as GNU cat and tee.  Without a handler the kernel makes the open
# again (stopped and continued, or a signal ignored by default); after a
# handler that returns, open(2) fails with EINTR, which the tools take as
# "open again", not as an error of the operand (strace stands in for that
# signal).
. "$top_srcdir/tests/lib.sh"
CAT=$(gnu cat) TEE=$(gnu tee)
seq 10000 >data
mkfifo fifo

# blocked_open WHAT SIGNALS CMD...: run CMD (which opens fifo; its stdin
# data), send it SIGNALS (kill's names) while it waits for the other end,
# then open the other end; CMD must exit 0 and print nothing on stderr.
blocked_open() {
	local what=$1 signals=$2 sig; shift 2
	"$@" <data >/dev/null 2>err &
	local pid=$! n=0
	while [ "$(cat "/proc/$pid/wchan" 2>/dev/null)" != wait_for_partner ] && [ $n -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	for sig in $signals; do
		kill -s "$sig" $pid
		sleep 0.1
	done
	case $what in
	*reads*) cat data >fifo ;;
	*) cat fifo >got ;;
	esac
	wait $pid
	check_eq "$what, $signals: status and messages" "0 " "$? $(cat err)"
}
for sig in "STOP CONT" WINCH URG; do
	blocked_open "spcat reads a FIFO" "$sig" "$SPCAT" fifo
	blocked_open "GNU cat reads a FIFO" "$sig" "$CAT" fifo
	blocked_open "sptee writes a FIFO" "$sig" "$SPTEE" fifo
	same_files "sptee writes a FIFO, $sig: the data" data got
	blocked_open "GNU tee writes a FIFO" "$sig" "$TEE" fifo
done

# open(2) of the FIFO interrupted (EINTR) once, then again.
if "$STRACE" -qq -o /dev/null -e trace=none true 2>/dev/null; then
	use_built_library
	for when in 1 1..3; do
		cat data >fifo &
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			"$STRACE" -qq -o /dev/null -P "$T_DIR/fifo" -e trace=openat \
			-e inject=openat:error=EINTR:when=$when \
			"$(real_bin spcat)" fifo >out 2>err
		check_eq "spcat, open interrupted ($when): status and messages" "0 " "$? $(cat err)"
		same_files "spcat, open interrupted ($when): the data" data out
		wait
		cat fifo >got &
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			"$STRACE" -qq -o /dev/null -P "$T_DIR/fifo" -e trace=openat \
			-e inject=openat:error=EINTR:when=$when \
			"$(real_bin sptee)" fifo <data >out 2>err
		check_eq "sptee, open interrupted ($when): status and messages" "0 " "$? $(cat err)"
		wait
		same_files "sptee, open interrupted ($when): the data" data got
	done
else
	echo "# no usable strace: the interrupted open is left out"
fi
done_testing
