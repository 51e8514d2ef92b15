#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Closed standard fds (issue 30): every tool holds fds 0, 1 and 2 when they
# are closed at start, so that nothing it opens takes their numbers: a
# destination opened as fd 2 took spmove's progress lines into its data.
# Messages and statuses with a closed stdin or stdout stay GNU's.
. "$top_srcdir/tests/lib.sh"
use_built_library
CAT=$(gnu cat) TEE=$(gnu tee)

make_random in 8388608
# slow_writer: in, a MiB at a time over about 2 s, so that the progress
# display draws several times during the copy.
slow_writer() {
	for i in 0 1 2 3 4 5 6 7; do
		dd if=in bs=1048576 skip=$i count=1 2>/dev/null
		sleep 0.25
	done
}

slow_writer | "$SPMOVE" --method=rw --progress=numeric - d >&- 2>&-
check_eq "spmove, stdout and stderr closed: exit status" 0 "$?"
same_files "spmove, stdout and stderr closed: an identical copy" in d

slow_writer | "$SPTEE" --progress=numeric t >/dev/null 2>&-
check_eq "sptee, stderr closed: exit status" 0 "$?"
same_files "sptee, stderr closed: an identical copy" in t

# The tools hold a closed standard fd with an O_PATH descriptor of an
# eventfd's anonymous inode (which no name opens again).
HELD='anon_inode:[eventfd]'
# held PID FD: what fd FD of process PID is once it is $HELD, or after 5 s;
# the loader's libraries take a free fd for a moment at start.
held() {
	n=0
	while [ "$(readlink "/proc/$1/fd/$2")" != "$HELD" ] && [ $n -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	readlink "/proc/$1/fd/$2"
}

# Blocked opening a FIFO with stderr closed (and acctpin dump with stdout
# closed too), spcat and acctpin hold the fds: $HELD, not the FIFO.
mkfifo fifo
"$(real_bin spcat)" fifo >out 2>&- &
pid=$!
check_eq "spcat blocked opening a FIFO, stderr closed: fd 2 held" "$HELD" "$(held $pid 2)"
: >fifo
wait $pid
check_eq "spcat: then reads the FIFO" 0 "$?"
"$(real_bin acctpin)" dump fifo >&- 2>&- &
pid=$!
check_eq "acctpin dump blocked opening a FIFO: fd 1 held" "$HELD" "$(held $pid 1)"
check_eq "acctpin dump blocked opening a FIFO: fd 2 held" "$HELD" "$(held $pid 2)"
: >fifo
wait $pid

# same_as_gnu WHAT TOOL GNU-TOOL REDIRECTIONS ARGS...: the same output,
# messages and status as GNU's tool with the standard fds as REDIRECTIONS
# say (evaluated).
same_as_gnu() {
	local what=$1 tool=$2 peer=$3 redir=$4; shift 4
	eval "\"\$tool\" \"\$@\" 2>sp.err $redir" >sp.out; local sp_rc=$?
	eval "\"\$peer\" \"\$@\" 2>gnu.err $redir" >gnu.out; local gnu_rc=$?
	sed "s/^[^:]*: /$(basename "$tool"): /" gnu.err >gnu.err.renamed
	same_files "$what: same output" gnu.out sp.out
	ok "$what: same messages" cmp -s gnu.err.renamed sp.err
	check_eq "$what: same status" "$gnu_rc" "$sp_rc"
}
seq 5 >b
same_as_gnu "spcat, stdin closed" "$SPCAT" "$CAT" "<&-"
same_as_gnu "spcat -, stdin closed" "$SPCAT" "$CAT" "<&-" - b
same_as_gnu "spcat, stdout closed" "$SPCAT" "$CAT" ">&-" b
same_as_gnu "sptee, stdin closed" "$SPTEE" "$TEE" "<&-"
same_as_gnu "sptee, stdout closed" "$SPTEE" "$TEE" ">&- <b" x
done_testing
