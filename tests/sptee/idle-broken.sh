#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -p (warn-nopipe) and --output-error=exit-nopipe end as soon as every
# output left is a pipe without readers, even while standard input is idle
# (as GNU tee, which polls its outputs while it waits for input); an output
# that is no pipe keeps them waiting, and so do the other modes.
. "$top_srcdir/tests/lib.sh"

# idle_run ARG...: run sptee ARGs with an idle input for 3 s and stdout a
# pipe whose reader has gone; leave in ended "STATUS SECONDS".
idle_run() {
	rm -f ended err
	local start
	start=$(date +%s%N)
	(sleep 3) | { "$SPTEE" "$@" 2>err; echo "$? $((($(date +%s%N) - start) / 1000000))" >ended; } | :
}

for opt in -p --output-error=exit-nopipe --output-error=exit-n; do
	idle_run $opt
	check_eq "$opt: exit status 0" 0 "$(cut -d' ' -f1 ended)"
	ok "$opt: ends while the input is idle (in $(cut -d' ' -f2 ended) ms)" \
		test "$(cut -d' ' -f2 ended)" -lt 2000
	ok "$opt: no message" test ! -s err
done

# Two pipes, the FILE's reader leaving after half a second.
mkfifo p
idle_run -p p &
sleep 0.5 <p
wait
check_eq "-p, two pipes: exit status 0" 0 "$(cut -d' ' -f1 ended)"
ok "-p, two pipes: ends once both readers left" test "$(cut -d' ' -f2 ended)" -lt 2000

# A FILE that is no pipe still wants the input: sptee waits for its end.
idle_run -p f
check_eq "-p and a file: exit status 0" 0 "$(cut -d' ' -f1 ended)"
ok "-p and a file: waits for the end of the input" test "$(cut -d' ' -f2 ended)" -ge 2500

# Without a nopipe mode the closed pipe is found at the next write only.
idle_run --output-error=warn
ok "warn: waits for the end of the input" test "$(cut -d' ' -f2 ended)" -ge 2500

done_testing
