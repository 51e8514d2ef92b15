#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --nocache of spcat, sptee and spmove: the copies are whole, and on a file system
# with a page cache of its own (not tmpfs) the files' pages the copy
# brought in are gone after it (fincore), while pages cached before stay.
. "$top_srcdir/tests/lib.sh"
command -v fincore >/dev/null || skip "no fincore (util-linux)"
command -v python3 >/dev/null || skip "no python3"

# resident FILE: how many of FILE's bytes are in the page cache.
resident() { fincore --bytes --noheadings --raw --output RES "$1"; }
# evict FILE: flush FILE and drop its pages from the cache.
evict() {
	python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY); os.fsync(fd)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$1"
}

size=$((8 * 1024 * 1024))
make_random src $size
"$SPCAT" --nocache src >out
same_files "spcat --nocache: file to file" src out
"$SPCAT" --nocache src | cat >piped
same_files "spcat --nocache: file to pipe" src piped
"$SPCAT" --nocache --no-splice src - <src >both
cat src src >two
same_files "spcat --nocache --no-splice: a file and standard input" two both
"$SPTEE" --nocache t1 t2 <src >t3
for f in t1 t2 t3; do same_files "sptee --nocache: $f" src $f; done
"$SPTEE" --nocache -a t1 <src >/dev/null
same_files "sptee --nocache -a appends" two t1
"$SPMOVE" --nocache src m1
same_files "spmove --nocache: file to file" src m1
mkdir -p tree/sub && cp src tree/sub/a && cp src tree/b
"$SPMOVE" --nocache -r tree copy
same_files "spmove --nocache -r: a tree" tree/sub/a copy/sub/a
same_files "spmove --nocache -r: a tree" tree/b copy/b
"$SPMOVE" --nocache --method=splice src m2
same_files "spmove --nocache --method=splice" src m2
# spmove's own option: cp and mv have none, so neither have spcp and spmv.
for p in spcp spmv; do
	"$top_builddir/src/spmove/$p" --nocache src m3 2>err
	check_eq "$p refuses --nocache: status" 1 $?
	check_eq "$p refuses --nocache: message" "$p: unrecognized option '--nocache'" "$(head -n 1 err)"
done

fs=$(stat -f -c %T .)
if [ "$fs" = tmpfs ] || [ "$fs" = ramfs ]; then
	echo "# $fs keeps its files in the page cache: the cache checks are left out"
	done_testing
fi
# At most a sixteenth of the file may stay: pages the kernel read ahead
# or had not finished writing back.
small=$((size / 16))
evict src
"$SPCAT" --nocache src >/dev/null
ok "spcat --nocache: the input's pages are gone after ($(resident src) bytes)" \
	test "$(resident src)" -le $small
"$SPCAT" src >/dev/null
ok "without --nocache they stay ($(resident src) bytes)" test "$(resident src)" -gt $small
"$SPCAT" --nocache src >/dev/null
ok "spcat --nocache keeps the pages cached before ($(resident src) bytes)" \
	test "$(resident src)" -eq $size
rm -f out
evict src
"$SPCAT" --nocache src >out
# RWF_DONTCACHE drops a written page when its writeback ends, which the
# kernel starts at the write but does not wait for: under load (CI's
# sanitizer run) some were still under writeback at exit.  Wait for it.
sync out
ok "spcat --nocache: the output's pages are gone after ($(resident out) bytes)" \
	test "$(resident out)" -le $small
rm -f t1 t2
"$SPTEE" --nocache t1 t2 <src >/dev/null
sync t1 t2
ok "sptee --nocache: its files' pages are gone after ($(resident t1), $(resident t2) bytes)" \
	test "$(resident t1)" -le $small -a "$(resident t2)" -le $small
same_files "sptee --nocache: t1 whole" src t1
rm -f m1
evict src
"$SPMOVE" --nocache src m1
ok "spmove --nocache: the source's and the copy's pages are gone after ($(resident src), $(resident m1) bytes)" \
	test "$(resident src)" -le $small -a "$(resident m1)" -le $small
same_files "spmove --nocache: m1 whole" src m1
cat src >/dev/null
rm -f m1
"$SPMOVE" --nocache src m1
ok "spmove --nocache keeps the pages cached before ($(resident src) bytes)" \
	test "$(resident src)" -eq $size

# Where RWF_DONTCACHE is refused (older kernels, some file systems): the
# pages are dropped behind the copy instead.
[ -n "$STRACE" ] || { echo "# no strace: the fallback is not checked"; done_testing; }
refuse() {
	"$STRACE" -f -o /dev/null -e trace=preadv2,pwritev2 \
		-e inject=preadv2,pwritev2:error=EOPNOTSUPP "$@"
}
rm -f out
evict src
# The first half of the input cached before the copy.
cat src >/dev/null
python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(fd, int(sys.argv[2]), 0, os.POSIX_FADV_DONTNEED)' src $((size / 2))
# What stays is compared with what was cached right before the copy, not
# with half the file: under memory pressure (CI runs the suite two at a
# time) the kernel may reclaim a few of those pages on its own.
before=$(resident src)
refuse "$(real_bin spcat)" --nocache src >out
ok "without RWF_DONTCACHE: the input's pages read are gone, those cached before stay ($before before, $(resident src) after)" \
	test "$(resident src)" -ge $((before - small)) -a "$(resident src)" -le $((before + small))
ok "without RWF_DONTCACHE: the output's pages are gone after ($(resident out) bytes)" \
	test "$(resident out)" -le $small
same_files "without RWF_DONTCACHE: the copy is whole" src out
rm -f t1
refuse "$(real_bin sptee)" --nocache t1 <src >/dev/null
ok "sptee without RWF_DONTCACHE: its file's pages are gone after ($(resident t1) bytes)" \
	test "$(resident t1)" -le $small
same_files "sptee without RWF_DONTCACHE: the copy is whole" src t1
rm -f m1
evict src
cat src >/dev/null
python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(fd, int(sys.argv[2]), 0, os.POSIX_FADV_DONTNEED)' src $((size / 2))
before=$(resident src)
refuse "$(real_bin spmove)" --nocache src m1
ok "spmove without RWF_DONTCACHE: the source's pages read are gone, those cached before stay ($before before, $(resident src) after)" \
	test "$(resident src)" -ge $((before - small)) -a "$(resident src)" -le $((before + small))
ok "spmove without RWF_DONTCACHE: the copy's pages are gone after ($(resident m1) bytes)" \
	test "$(resident m1)" -le $small
same_files "spmove without RWF_DONTCACHE: the copy is whole" src m1
done_testing
