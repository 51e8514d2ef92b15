#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# libsplice exports exactly the functions its public header declares, each
# named in the version node of the release that added it (lib/libsplice.sym).
. "$top_srcdir/tests/lib.sh"
so="$top_builddir/lib/.libs/libsplice.so"
sym="$top_srcdir/lib/libsplice.sym"
[ -e "$so" ] || skip "no shared library built"
command -v nm >/dev/null || skip "nm is missing"

# NAME@@NODE for every function the library exports.
nm -D --defined-only "$so" | awk '$2 == "T" { print $3 }' | sort >exported_versioned
sed 's/@.*//' exported_versioned | sort >exported
grep -o '\bsp_[a-z_0-9]*(' "$top_srcdir/lib/libsplice.h" | tr -d '(' | sort -u >declared
# NAME@@NODE for every name the map lists, from the map's own text.
awk '/^LIBSPLICE_[0-9A-Z.]* *\{/ { node = $1 }
     /^[ \t]*sp_[a-z_0-9]*;/ { gsub(/[ \t;]/, ""); print $0 "@@" node }' "$sym" | sort >named_versioned
sed 's/@.*//' named_versioned | sort >named

check_eq "exported functions are the declared ones" "$(cat declared)" "$(cat exported)"
check_eq "every exported function is named in the map" "$(cat named)" "$(cat exported)"
check_eq "each is exported in the node that names it" "$(cat named_versioned)" "$(cat exported_versioned)"
ok "the map names no function twice" test -z "$(uniq -d named)"
ok "the map exports nothing by pattern" sh -c "! grep -Eq '^[[:space:]]*sp_[a-z_0-9]*\\*' '$sym'"
ok "at least sp_copy is exported" grep -qx sp_copy exported
nm -D --defined-only "$so" | awk '{ print $3 }' | grep -v '^LIBSPLICE_' | grep -v '^sp_' >others
check_eq "nothing but sp_* is exported" "" "$(cat others)"
# The measuring functions are in the experimental node, not a release's
# (libsplice.sym says why), and nothing else is.
check_eq "the experimental node holds sp_probe and sp_stealfs_read" \
	"sp_probe@@LIBSPLICE_EXPERIMENTAL sp_stealfs_read@@LIBSPLICE_EXPERIMENTAL" \
	"$(grep '@@LIBSPLICE_EXPERIMENTAL$' exported_versioned | tr '\n' ' ' | sed 's/ $//')"
# Each release's node inherits the one before it.
nodes=$(grep -o '^LIBSPLICE_[0-9][0-9.]*' "$sym")
prev=
for node in $nodes; do
	if [ -n "$prev" ]; then
		ok "$node inherits $prev" grep -Eq "^\} $prev;" "$sym"
	fi
	prev=$node
done
check_eq "the newest node is the package's version" \
	"LIBSPLICE_$(echo "$PACKAGE_VERSION" | cut -d. -f1,2)" "$prev"
done_testing
