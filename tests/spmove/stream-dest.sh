#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A stream (a FIFO, a character device) read as data into a free name is
# made under that name at once, private (0600) until complete, as cp makes
# it: whoever feeds the FIFO may wait for the name (coreutils'
# cp/file-perm-race.sh).  An existing destination is still replaced
# through a temporary: it keeps its old data until the new data is
# complete, also when the copy is stopped half way.
. "$top_srcdir/tests/spmove/opt-lib.sh"
command -v mkfifo >/dev/null || skip "no mkfifo"

# wait_until CMD...: poll CMD until it succeeds, for at most about 30 s
# (the copy runs in the background); the status of the last try.
wait_until() {
	local n=0
	while ! "$@"; do
		n=$((n + 1))
		[ "$n" -lt 300 ] || return 1
		sleep 0.1
	done
}

# size_is FILE BYTES: FILE exists with BYTES bytes.
size_is() { [ -f "$1" ] && [ "$(stat -c %s "$1")" = "$2" ]; }

# temp_of_size BYTES: one .spmove-* temporary of BYTES bytes in . exists.
temp_of_size() {
	local f
	for f in .spmove-*; do
		size_is "$f" "$1" && return 0
	done
	return 1
}

# A new name: there while the FIFO is read, 0600, no temporary beside it;
# complete with its final mode (-p: the FIFO's) once the writer closes.
fresh new
mkfifo -m 644 fifo || skip "cannot make a FIFO here"
"$SPCP" -p --copy-contents fifo copy &
pid=$!
exec 3>fifo
printf 'first\n' >&3
ok "new name: there while the FIFO is read" wait_until size_is copy 6
check_eq "new name: private while the copy runs" 600 "$(stat -c %a copy 2>&1)"
no_temp_left "new name"
printf 'second\n' >&3
exec 3>&-
wait "$pid"
check_eq "new name: status" 0 "$?"
check_eq "new name: the data" "first
second" "$(cat copy)"
check_eq "new name: the FIFO's mode once complete (-p)" 644 "$(stat -c %a copy)"

# Without -p: a new file's mode (the umask's cut of the source's).
fresh plain
mkfifo -m 666 fifo
"$SPCP" --copy-contents fifo copy &
pid=$!
printf 'data\n' >fifo
wait "$pid"
check_eq "without -p: status" 0 "$?"
check_eq "without -p: the mode" 644 "$(stat -c %a copy)"
check_eq "without -p: the data" data "$(cat copy)"

# Stopped half way: a new name is removed again.
fresh stopped
mkfifo fifo
"$SPCP" --copy-contents fifo copy &
pid=$!
exec 3>fifo
printf 'part\n' >&3
ok "stopped: the copy began" wait_until size_is copy 5
kill -TERM "$pid"
wait "$pid"
exec 3>&-
ok "stopped: the partial new file is gone" test ! -e copy

# An existing destination: untouched until the data is complete, replaced
# through a temporary; untouched for good when the copy is stopped.
fresh existing
mkfifo fifo
printf 'old data\n' >dest
chmod 640 dest
"$SPCP" --copy-contents fifo dest &
pid=$!
exec 3>fifo
printf 'new\n' >&3
ok "existing: the data goes to a temporary" wait_until temp_of_size 4
check_eq "existing: not truncated while the copy runs" "old data" "$(cat dest)"
printf 'data\n' >&3
exec 3>&-
wait "$pid"
check_eq "existing: status" 0 "$?"
check_eq "existing: replaced when complete" "new
data" "$(cat dest)"
check_eq "existing: keeps its mode" 640 "$(stat -c %a dest)"
no_temp_left "existing"

fresh existing-stopped
mkfifo fifo
printf 'old data\n' >dest
"$SPCP" --copy-contents fifo dest &
pid=$!
exec 3>fifo
printf 'new\n' >&3
ok "existing, stopped: the copy began" wait_until temp_of_size 4
kill -TERM "$pid"
wait "$pid"
exec 3>&-
check_eq "existing, stopped: the old data stays" "old data" "$(cat dest)"
no_temp_left "existing, stopped"

# A character device into a free name: a regular file with its data.
fresh device
"$SPCP" /dev/null copy
check_eq "a device: status" 0 "$?"
ok "a device: a regular file" test -f copy
check_eq "a device: its data (none)" 0 "$(stat -c %s copy)"
check_eq "a device: a new file's mode" 644 "$(stat -c %a copy)"

done_testing
