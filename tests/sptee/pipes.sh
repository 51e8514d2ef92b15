#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Readers that go away, under every --output-error mode, side by side with
# GNU tee; non-blocking outputs are polled, never spun on.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sptee/common.sh"

make_random big 4194311

# closing_reader CMD [ARG...]: CMD's stdout is a pipe whose reader leaves
# after 10 bytes; records err, rc and f's size.
closing_reader() {
	{ "$@" f <"$T_DIR/big" 2>err; echo $? >rc; } | head -c 10 >/dev/null
}

for sigpipe in default ignored; do
	for mode in "" -p --output-error --output-error=warn --output-error=warn-nopipe \
		    --output-error=exit --output-error=exit-nopipe; do
		what="reader leaves, SIGPIPE $sigpipe${mode:+, $mode}"
		for dir in gnu sp; do
			rm -rf "$dir" && mkdir "$dir"
			cmd=$GNU_TEE
			[ "$dir" = sp ] && cmd=$SPTEE
			if [ $sigpipe = default ]; then
				(cd "$dir" && closing_reader "$cmd" $mode)
			else
				(cd "$dir" && trap '' PIPE && closing_reader "$cmd" $mode)
			fi
		done
		sed -i 's/^sptee: /tee: /' sp/err
		check_eq "$what: exit status as GNU tee" "$(cat gnu/rc)" "$(cat sp/rc)"
		ok "$what: messages as GNU tee" cmp gnu/err sp/err
		case "$(cat sp/rc):$mode" in
		141:*|*:--output-error=exit)
			ok "$what: f holds the start of the input" \
				cmp -s sp/f big -n "$(wc -c <sp/f)" ;;
		*)
			same_files "$what: f holds all the input" big sp/f ;;
		esac
	done
done

# A FILE operand that is a FIFO whose reader leaves.
for mode in --output-error=warn -p; do
	for dir in gnu sp; do
		rm -rf "$dir" && mkdir "$dir" && mkfifo "$dir/p"
		cmd=$GNU_TEE
		[ "$dir" = sp ] && cmd=$SPTEE
		(cd "$dir" && { head -c 10 <p >/dev/null & } &&
		 "$cmd" $mode p f <"$T_DIR/big" >out 2>err; echo $? >rc; rm p)
	done
	sed -i 's/^sptee: /tee: /' sp/err
	same_as_gnu "a FIFO operand whose reader leaves, $mode: as GNU tee"
	same_files "a FIFO operand whose reader leaves, $mode: f holds all the input" big sp/f
done

# Non-blocking outputs (GNU tee fails on EAGAIN; sptee polls): a slow
# reader on a non-blocking stdout pipe gets everything, and every EAGAIN
# is followed by a poll, not by a retry.
require_strace
# perl -e "$nonblocking" CMD ARG...: run CMD with a non-blocking stdout.
nonblocking='use Fcntl; fcntl(STDOUT, F_SETFL, O_NONBLOCK) or die; exec @ARGV or die'
slow_reader() {
	: >out.slow
	while :; do
		dd bs=65536 count=1 iflag=fullblock status=none >chunk 2>/dev/null
		[ -s chunk ] || break
		cat chunk >>out.slow
		sleep 0.01
	done
}
for opts in "" -a; do
	rm -f out.slow f
	cat big | traced perl -e "$nonblocking" "$STRACE" -qq -f -o trace \
		-e trace=tee,splice,write,poll "$SPTEE" $opts f | slow_reader
	same_files "non-blocking stdout${opts:+, $opts}: the reader gets everything" big out.slow
	same_files "non-blocking stdout${opts:+, $opts}: f gets everything" big f
	ok "non-blocking stdout${opts:+, $opts}: the output was full at times" grep -q EAGAIN trace
	ok "non-blocking stdout${opts:+, $opts}: each EAGAIN is followed by a poll" \
		awk '/EAGAIN/ { if (eagain) exit 1; eagain = 1; next }
		     /poll\(/ { eagain = 0 } END { exit eagain }' trace
done

done_testing
