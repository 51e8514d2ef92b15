# spmove: SIGINT, SIGTERM and SIGHUP in the middle of a copy from a slow
# pipe leave the old DST intact and no temporary file; the process dies of
# the signal as cp does.  (Root only so that it runs where the others run.)
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

set -m # background jobs keep SIGINT (job control)
for sig in INT TERM HUP; do
	printf 'old contents' >d
	rm -f slow; mkfifo slow
	( head -c 100000 /dev/urandom; exec sleep 30 ) >slow &
	producer=$!
	# A test started with the signal ignored (nohup, a background job of a
	# script) would pass the SIG_IGN on: spmove keeps what its parent ignored.
	env --default-signal=INT,TERM,HUP "$SPMOVE" - d <slow &
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

done_testing
