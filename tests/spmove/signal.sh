# SPDX-License-Identifier: GPL-2.0-or-later
# spmove: every fatal signal that can be caught -- SIGINT, SIGTERM, SIGHUP,
# SIGALRM, SIGUSR1, SIGUSR2, SIGQUIT, SIGPIPE -- in the middle of a copy from
# a slow pipe leaves the old DST intact and no temporary file; the process
# dies of the signal as cp does.  So does SIGXFSZ from a file size limit
# (ulimit -f).  (Root only so that it runs where the others run.)
. "$top_srcdir/tests/lib.sh"
require_root

no_temp_left() { [ -z "$(find . -name '.spmove-*' | head -1)" ]; }

# Wait (up to 10 s) until the temporary file has some bytes in it.
wait_for_temp() {
	local i=0
	while [ $i -lt 100 ]; do
		[ -n "$(find . -name '.spmove-*' -size +0 | head -1)" ] && return 0
		sleep 0.1; i=$((i + 1))
	done
	return 1
}

ulimit -c 0 # SIGQUIT dumps no core here
set -m # background jobs keep SIGINT (job control)
for sig in INT TERM HUP ALRM USR1 USR2 QUIT PIPE; do
	printf 'old contents' >d
	rm -f slow .spmove-*; mkfifo slow
	( head -c 100000 /dev/urandom; exec sleep 30 ) >slow &
	producer=$!
	# A test started with the signal ignored (nohup, a background job of a
	# script) would pass the SIG_IGN on: spmove keeps what its parent ignored.
	env --default-signal=INT,TERM,HUP,ALRM,USR1,USR2,QUIT,PIPE,XFSZ "$SPMOVE" - d <slow &
	job=$!
	ok "SIG$sig: copy under way" wait_for_temp
	kill -s "$sig" "$job"
	wait "$job"
	rc=$?
	kill "$producer"
	wait "$producer" 2>/dev/null
	check_eq "SIG$sig: died of the signal" "$((128 + $(kill -l "$sig")))" "$rc"
	check_eq "SIG$sig: old DST intact" "old contents" "$(cat d)"
	ok "SIG$sig: no temporary file" no_temp_left
done
set +m

# SIGXFSZ: a file size limit of 1000 KiB, a source of 3 MB.
make_random big 3000000
printf 'old contents' >d
sh -c 'ulimit -f 1000 && exec env --default-signal=XFSZ "$@"' sh "$SPMOVE" big d 2>err
rc=$?
check_eq "SIGXFSZ (ulimit -f): died of the signal" "$((128 + $(kill -l XFSZ)))" "$rc"
check_eq "SIGXFSZ: old DST intact" "old contents" "$(cat d)"
ok "SIGXFSZ: no temporary file" no_temp_left
# The same in the middle of a tree (-r).
rm -f .spmove-*
mkdir tree; cp big tree/f
sh -c 'ulimit -f 1000 && exec env --default-signal=XFSZ "$@"' sh "$SPMOVE" -r tree tree2 2>err
rc=$?
check_eq "SIGXFSZ during -r: died of the signal" "$((128 + $(kill -l XFSZ)))" "$rc"
ok "SIGXFSZ during -r: no temporary file" no_temp_left
same_files "SIGXFSZ during -r: the source intact" big tree/f

# SIGPIPE for real: the reader of the FIFO written to goes away.
rm -f fifo; mkfifo fifo
head -c 1 fifo >/dev/null &
env --default-signal=PIPE "$SPMOVE" big fifo 2>err
rc=$?
wait
check_eq "SIGPIPE from a closed pipe: died of the signal" "$((128 + $(kill -l PIPE)))" "$rc"
check_eq "SIGPIPE: nothing on stderr" "" "$(cat err)"


# Waiting to open a FIFO (for writing into it, or reading one copied as
# data): a fatal signal ends the run silently, as with GNU cp, not with
# "Interrupted system call".
mkfifo fifo-out fifo-in
for case in "big fifo-out" "fifo-in fifo-copy"; do
	set -- $case
	"$SPMOVE" "$1" "$2" 2>err &
	pid=$!
	sleep 0.3
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	check_eq "SIGTERM waiting to open $1 -> $2: died of the signal" \
		"$((128 + $(kill -l TERM)))" "$rc"
	check_eq "SIGTERM waiting to open $1 -> $2: nothing on stderr" "" "$(cat err)"
done
ok "the FIFO copies left nothing" test ! -e fifo-copy

done_testing
