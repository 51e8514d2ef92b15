#!/bin/sh
# libsplice exports exactly the functions its public header declares, all sp_*.
. "$top_srcdir/tests/lib.sh"
so="$top_builddir/lib/.libs/libsplice.so"
[ -e "$so" ] || skip "no shared library built"
command -v nm >/dev/null || skip "nm is missing"
nm -D --defined-only "$so" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort >exported
grep -o '\bsp_[a-z_]*(' "$top_srcdir/lib/libsplice.h" | tr -d '(' | sort -u >declared
check_eq "exported functions are the declared ones" "$(cat declared)" "$(cat exported)"
ok "at least sp_move is exported" grep -qx sp_move exported
nm -D --defined-only "$so" | awk '{ print $3 }' | grep -v '^LIBSPLICE_' | grep -v '^sp_' >others
check_eq "nothing but sp_* is exported" "" "$(cat others)"
done_testing
