#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# spcat --offset/--length, with offsets past 4 GiB in a sparse file, and --stats.
. "$top_srcdir/tests/lib.sh"

make_random a 1000000
"$SPCAT" --offset 4095 --length 70000 a >r.out
tail -c +4096 a | head -c 70000 >r.want
same_files "--offset 4095 --length 70000" r.out r.want
"$SPCAT" --offset 1K --length 1KB a >r.out
tail -c +1025 a | head -c 1000 >r.want
same_files "size suffixes K and KB" r.out r.want
"$SPCAT" --offset 999990 a a >r.out
tail -c 10 a >r.want
tail -c 10 a >>r.want
same_files "--offset applies to each FILE" r.out r.want
"$SPCAT" --offset 2M a >r.out
ok "--offset past the end copies nothing" test ! -s r.out
head -c 300000 a | "$SPCAT" --offset 100000 --length 5000 >r.out
tail -c +100001 a | head -c 5000 >r.want
same_files "--offset on a pipe skips" r.out r.want

# A sparse file larger than 4 GiB, read at offsets beyond 2^32.
truncate -s 5G sparse || skip "no sparse files here"
printf 'after four gibibytes' | dd of=sparse bs=1 seek=$((4 * 1024 * 1024 * 1024 + 4093)) conv=notrunc status=none
"$SPCAT" --offset $((4 * 1024 * 1024 * 1024 + 4093)) --length 20 sparse >s.out
printf 'after four gibibytes' >s.want
same_files "offset past 4 GiB" s.out s.want
"$SPCAT" --offset $((4 * 1024 * 1024 * 1024 - 100)) --length 300 sparse >s.out
tail -c +$((4 * 1024 * 1024 * 1024 - 99)) sparse | head -c 300 >s.want
same_files "range across the 4 GiB boundary" s.out s.want
"$SPCAT" --offset 4G sparse | wc -c >s.count
check_eq "tail of a 5 GiB file" 1073741824 "$(cat s.count)"

# --stats: one line on stderr with the bytes and the in-kernel share.
"$SPCAT" --stats a a 2>stats.err >/dev/null
check_eq "--stats: one line" 1 "$(wc -l <stats.err)"
ok "--stats: byte count" grep -q '^spcat: 2000000 bytes, 100.0% in kernel' stats.err
"$SPCAT" --stats --no-splice a 2>stats.err >/dev/null
ok "--stats with --no-splice: nothing in kernel" grep -q '^spcat: 1000000 bytes, 0.0% in kernel' stats.err
"$SPCAT" --stats a 2>stats.err >>appended
ok "--stats counts the O_APPEND fallback" grep -q ' 1 fallbacks' stats.err

done_testing
