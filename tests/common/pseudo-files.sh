#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Pseudo-files (/sys, /proc): a size that is a guess and no blocks.  spmove
# and spcat copy what reading them to the end gives, as cat does: never
# padded with zeros to st_size (issue 23: 23 bytes of a /sys file became
# 4096), never refused because SEEK_DATA is (most of /proc).
. "$top_srcdir/tests/lib.sh"

n=0
for f in /sys/kernel/mm/transparent_hugepage/enabled \
	/sys/kernel/mm/transparent_hugepage/defrag /sys/kernel/mm/transparent_hugepage/shmem_enabled \
	/proc/cmdline /proc/version /proc/filesystems /proc/config.gz; do
	[ -r "$f" ] && cat "$f" >want 2>/dev/null || continue
	n=$((n + 1))
	size=$(stat -c %s "$f") blocks=$(stat -c %b "$f")
	what="$f ($size bytes by stat, $blocks blocks, $(wc -c <want) read)"
	for sparse in auto always never; do
		rm -f copy
		"$SPMOVE" --sparse=$sparse "$f" copy 2>err
		check_eq "spmove --sparse=$sparse $what: exit status and messages" "0 " "$? $(cat err)"
		same_files "spmove --sparse=$sparse $what: what cat reads" want copy
	done
	"$SPCAT" "$f" >copy 2>err
	check_eq "spcat $what into a file: exit status" "0 " "$? $(cat err)"
	same_files "spcat $what into a file" want copy
	"$SPCAT" "$f" 2>err | cat >copy
	same_files "spcat $what into a pipe" want copy
	"$SPCAT" "$f" "$f" >copy 2>err
	cat want want >want2
	same_files "spcat $what twice" want2 copy
done
[ "$n" -gt 0 ] || skip "no readable pseudo-file with a size here"
done_testing
