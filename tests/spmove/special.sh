# SPDX-License-Identifier: GPL-2.0-or-later
# spmove: a sparse file copied onto something that cannot seek -- a
# character device, a FIFO, a pipe -- is written whole, holes as zeros, as
# cp does; the destination stays what it was (never replaced by a file).
. "$top_srcdir/tests/lib.sh"

# A file that begins and ends with a hole, with data in the middle, and
# another with data at both ends.
truncate -s 3M sparse
printf 'middle' | dd of=sparse bs=1 seek=1500000 conv=notrunc status=none
truncate -s 2M ends
printf 'start' | dd of=ends conv=notrunc status=none
printf 'end' | dd of=ends bs=1 seek=2097149 conv=notrunc status=none

no_temp_left() { [ -z "$(find . -name '.spmove-*' | head -1)" ]; }

for sparse in "" --sparse=always --sparse=never; do
	for f in sparse ends; do
		what="$f${sparse:+ $sparse}"
		# A character device: /dev/null itself for a user, a node of our
		# own as root (a wrong rename can then not replace /dev/null).
		if [ "$(id -u)" = 0 ]; then
			rm -f nul; mknod nul c 1 3; null=nul
		else
			null=/dev/null
		fi
		run_cmd out err "$SPMOVE" $sparse "$f" "$null"
		check_eq "$what onto a character device: exit 0" 0 "$RC"
		check_eq "$what onto a character device: silent" "" "$(cat out err)"
		check_eq "$what: the device is still the device" "character special file 1,3" \
			"$(stat -c '%F %t,%T' "$null")"

		# A FIFO with a reader: every byte arrives, holes as zeros.
		rm -f fifo got; mkfifo fifo
		timeout 30 cat fifo >got &
		reader=$!
		run_cmd out err timeout 30 "$SPMOVE" $sparse "$f" fifo
		check_eq "$what into a FIFO: exit 0" 0 "$RC"
		check_eq "$what into a FIFO: silent" "" "$(cat out err)"
		wait "$reader"
		same_files "$what into a FIFO: the whole file, holes as zeros" "$f" got
		ok "$what: the FIFO is still a FIFO" test -p fifo

		# A pipe, through /dev/stdout.
		timeout 30 "$SPMOVE" $sparse "$f" /dev/stdout 2>err | cat >got
		check_eq "$what into a pipe: silent" "" "$(cat err)"
		same_files "$what into a pipe: the whole file, holes as zeros" "$f" got
	done
done
ok "nothing temporary left" no_temp_left

done_testing
