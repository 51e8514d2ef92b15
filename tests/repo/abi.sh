#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# libsplice's ABI is the one recorded in lib/libsplice.abi: the functions
# it exports and the layout of every type they take or return (abidiff
# from Debian's abigail-tools).  A change is deliberate only when the
# record changes with it:
#   abidw --no-corpus-path --headers-dir lib --drop-private-types --drop-undefined-syms \
#         --suppressions lib/libsplice.abignore lib/.libs/libsplice.so >lib/libsplice.abi
# (the opaque struct sp_mover is left out: lib/libsplice.abignore)
# (from a build with debug information, the default -g).  Once released,
# the record only grows: fields at the end of the structs that carry their
# size, new functions in a new node of lib/libsplice.sym.
. "$top_srcdir/tests/lib.sh"
so="$top_builddir/lib/.libs/libsplice.so"
abi="$top_srcdir/lib/libsplice.abi"
[ -e "$so" ] || skip "no shared library built"
command -v abidiff >/dev/null || skip "abidiff is missing (abigail-tools)"
command -v readelf >/dev/null || skip "readelf is missing"
readelf -S "$so" | grep -q '\.debug_info' || skip "the library has no debug information"

abidiff --headers-dir2 "$top_srcdir/lib" --drop-private-types \
	--suppressions "$top_srcdir/lib/libsplice.abignore" "$abi" "$so" >diff 2>&1
rc=$?
[ $rc -eq 0 ] || cat diff
check_eq "the library's ABI is the recorded one (abidiff's status)" 0 "$rc"
done_testing
