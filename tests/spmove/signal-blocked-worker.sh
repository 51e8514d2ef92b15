#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A caught SIGTERM ends the run while a copy worker is blocked: regular
# files that block when read (/proc/kmsg, bind-mounted into the tree, as a
# hung network file system would), one read by the walker and one by a
# worker, each waiting in poll(2).  The signal reaches the main thread;
# the worker must be woken too, its partial copy removed, and the process
# must die of SIGTERM as GNU cp does -- before, it waited for the worker
# for good (issue 35, item 11).  Root: bind mounts and /proc/kmsg.
[ -n "${BASH_VERSION-}" ] || exec bash "$0" "$@"
. "$top_srcdir/tests/lib.sh"
require_root
SPMOVE_BIN=$(real_bin spmove)
use_built_library
[ "$(nproc)" -ge 2 ] || skip "one CPU: no copy worker"
timeout 1 head -c 1 /proc/kmsg >/dev/null 2>&1
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 124 ] || skip "/proc/kmsg cannot be read"

mkdir tree
for i in 1 2 3; do
	: >tree/k$i
	mount --bind /proc/kmsg tree/k$i || skip "no bind mount"
	at_exit "umount '$T_DIR/tree/k$i'"
done
# What the kernel logged so far is read now: the copies then wait.
timeout 2 cat /proc/kmsg >/dev/null

"$SPMOVE_BIN" -r --parallel=2 tree out &
pid=$!
# in_poll: how many of its threads wait in poll(2) (system call 7).
in_poll() { cat /proc/$pid/task/*/syscall 2>/dev/null | grep -c '^7 '; }
n=0
while [ "$(in_poll)" -lt 2 ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
check_eq "the walker and a worker wait for data" 2 "$(in_poll)"
kill -TERM $pid
n=0
while kill -0 $pid 2>/dev/null && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
if kill -0 $pid 2>/dev/null; then
	echo "# still running 30 s after SIGTERM: $(cat /proc/$pid/task/*/wchan | tr '\n' ' ')"
	kill -KILL $pid
fi
wait $pid
check_eq "ended by SIGTERM" 143 "$?"
check_eq "the partial copies removed" "" "$(ls -A out 2>&1)"
done_testing
