#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every global symbol libsplice defines is sp_ (public) or lsp_ (internal):
# a program linking the static library that defines a function of its own
# (a now_ns, say) must never meet, and silently replace, one of the
# library's.  Checked with nm over the static libraries (libsplice.a, and
# libsplice-core.a, which the tools link) and the shared one, whose
# globals are only sp_ (the lsp_ ones are hidden: internal.h, clock.h).
. "$top_srcdir/tests/lib.sh"
libs="$top_builddir/lib/.libs"
command -v nm >/dev/null || skip "nm is missing"
[ -e "$libs/libsplice-core.a" ] || skip "no static library built"

# strays PREFIXES FILE...: each defined global symbol of FILE (nm's output
# of an archive or a shared object) whose name starts with none of
# PREFIXES (an extended regular expression); the version nodes (absolute
# symbols of the shared object) are no code.
strays() {
	local prefixes=$1; shift
	nm -g --defined-only "$@" 2>/dev/null | awk -v p="^($prefixes)" \
		'NF == 3 && $2 != "A" && $3 !~ p { print $3 }' | sort -u
}

for a in libsplice.a libsplice-core.a; do
	[ -e "$libs/$a" ] || continue
	check_eq "every global of $a is sp_ or lsp_" "" "$(strays 'sp_|lsp_' "$libs/$a")"
	ok "$a defines sp_copy and lsp_now_ns" sh -c \
		"nm -g --defined-only '$libs/$a' | grep -q ' T sp_copy\$' &&
		 nm -g --defined-only '$libs/$a' | grep -q ' T lsp_now_ns\$'"
done
if [ -e "$libs/libsplice.so" ]; then
	check_eq "every global of libsplice.so is sp_" "" "$(strays 'sp_' "$libs/libsplice.so")"
fi

# The check can fail: an object defining now_ns and an lsp_ one is caught
# for the first only.
command -v cc >/dev/null || { done_testing; }
printf 'int now_ns(void) { return 1; }\nint lsp_ok(void) { return 0; }\n' >bad.c
if cc -c bad.c -o bad.o 2>/dev/null && ar rc bad.a bad.o 2>/dev/null; then
	check_eq "a stray global is caught" "now_ns" "$(strays 'sp_|lsp_' bad.a)"
fi
done_testing
