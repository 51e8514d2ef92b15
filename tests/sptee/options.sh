#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# sptee's options, operands and error messages, side by side with GNU tee.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sptee/common.sh"

make_random in 200000
IN=$T_DIR/in

# -a / --append and abbreviations of long options.
for opt in -a --append --app; do
	PRESEED="old contents
" side_by_side pipe-file "$IN" 3 "$opt"
	same_as_gnu "$opt appends: as GNU tee"
done
PRESEED="old" side_by_side file-file "$IN" 2
same_as_gnu "without -a, files are truncated: as GNU tee"

# "-" is a file like any other, as POSIX says.
side_by_side pipe-file "$IN" 0 -
same_as_gnu "- is a file named -: as GNU tee"
same_files "- is a file named -: it holds the input" in sp/-

# Outputs that cannot be opened: reported, the others get everything, exit 1.
side_by_side pipe-file "$IN" 2 / no/such/dir/f "name with spaces/x"
same_as_gnu "unopenable outputs: as GNU tee"
check_eq "unopenable outputs: exit status 1" 1 "$(cat sp/rc)"
same_files "unopenable outputs: the other files get everything" in sp/f2

# An output that fails on write: reported, the others get everything.
# (Input within one GNU tee buffer: in the exit modes, outputs before the
# failing one got the chunk, the ones after it did not.)
make_random small 5000
SMALL=$T_DIR/small
for mode in "" -p --output-error --output-error=warn --output-error=warn-nopipe \
	    --output-error=exit --output-error=exit-nopipe; do
	side_by_side pipe-file "$SMALL" 2 $mode /dev/full
	same_as_gnu "/dev/full${mode:+ with $mode}: as GNU tee"
done

# The last -p or --output-error counts; MODE may be abbreviated as argmatch allows.
for args in "-p --output-error=exit" "--output-error=exit -p" "--output-error=exit-" \
	    "--output-error=warn-n" "--output-error=ex" "--output-error=w" "--output-error=" \
	    "--output-error=bogus" "--output-error warn" "--output-err=exit"; do
	# shellcheck disable=SC2086 # args is a list of words
	side_by_side pipe-file "$SMALL" 1 $args /dev/full
	same_as_gnu "$args: as GNU tee"
done

# Unknown options: exit status 1, like GNU tee (popt words the message).
for opt in -x --bogus; do
	"$SPTEE" "$opt" </dev/null >/dev/null 2>err
	check_eq "$opt: exit status" 1 $?
	ok "$opt: the message points to --help" grep -q "Try 'sptee --help'" err
done

# Closed standard input, standard output; a directory as standard input.
(cd sp && "$SPTEE" f <&- >out 2>err; echo $? >rc)
(cd gnu && "$GNU_TEE" f <&- >out 2>err; echo $? >rc)
sed -i 's/^sptee: /tee: /' sp/err
same_as_gnu "closed stdin: as GNU tee"
for input in "$IN" /dev/null; do
	rm -rf gnu sp && mkdir gnu sp
	(cd gnu && "$GNU_TEE" f <"$input" >&- 2>err; echo $? >rc)
	(cd sp && "$SPTEE" f <"$input" >&- 2>err; echo $? >rc)
	sed -i 's/^sptee: /tee: /' sp/err
	same_as_gnu "closed stdout, input $(basename "$input"): as GNU tee"
done
side_by_side file-file / 1
same_as_gnu "a directory as stdin: as GNU tee"

# -i: SIGINT is ignored; without it, SIGINT ends the copy as it ends tee.
# (env --default-signal undoes the shell's SIG_IGN for background jobs.)
sigint_run() {
	local cmd=$1; shift
	rm -f fifo out && mkfifo fifo
	env --default-signal=INT "$cmd" "$@" out <fifo >/dev/null 2>/dev/null &
	local pid=$!
	exec 3>fifo
	trap '' PIPE
	printf 'one\n' >&3
	local tries=0
	until [ -s out ] || [ $tries -ge 100 ]; do sleep 0.05; tries=$((tries + 1)); done
	kill -INT "$pid"
	sleep 0.2
	printf 'two\n' >&3 2>/dev/null
	exec 3>&-
	wait "$pid"
	echo "$?:$(cat out 2>/dev/null | tr '\n' ' ')"
}
check_eq "-i ignores SIGINT, as GNU tee" "$(sigint_run "$GNU_TEE" -i)" "$(sigint_run "$SPTEE" -i)"
check_eq "--ignore-interrupts, as GNU tee" "$(sigint_run "$GNU_TEE" --ignore-interrupts)" \
	"$(sigint_run "$SPTEE" --ignore-interrupts)"
check_eq "without -i SIGINT ends it, as GNU tee" "$(sigint_run "$GNU_TEE")" "$(sigint_run "$SPTEE")"

# A terminal as stdout (script(1) provides one): written with write(2),
# while f is still spliced.
if command -v script >/dev/null; then
	rm -f f err
	script -qec "'$SPTEE' --stats f <in 2>err" /dev/null >/dev/null 2>&1
	check_eq "a terminal as stdout: exit status" 0 $?
	same_files "a terminal as stdout: f holds the input" in f
	ok "a terminal as stdout: it alone fell back to write(2)" \
		grep -q ' 50.0% in kernel, .* 1 fallbacks' err
fi

# --stats, --help, --version.
"$SPTEE" --stats f <"$IN" >/dev/null 2>err
check_eq "--stats: exit status" 0 $?
ok "--stats: one summary line with the bytes of both outputs" grep -q '^sptee: 400000 bytes, ' err
"$SPTEE" --help >out 2>err
check_eq "--help: exit status" 0 $?
ok "--help: lists --output-error" grep -q -- '--output-error' out
"$SPTEE" --version >out
check_eq "--version: exit status" 0 $?
ok "--version: names the program" grep -q '^sptee (splice-utils)' out

done_testing
