#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every Debian package the harnesses need to build kernel trees and modules
# is installed by contrib/deps.txt, the one list a fresh machine (and CI)
# gets: vm-lib.sh's kbuild_packages and debug-kernel.sh's DK_BUILD_DEPS are
# only checked there, never installed.  Then the same check against a list
# with one package dropped, which must be caught.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
tests=$top_srcdir/contrib/stealfs/tests

# needed: the package names the harnesses name, one a line.
needed() {
	sed -n 's/^kbuild_packages="\(.*\)"$/\1/p' "$tests/vm-lib.sh"
	sed -n 's/^DK_BUILD_DEPS="\(.*\)"$/\1/p' "$tests/debug-kernel.sh"
}
needed | tr ' ' '\n' | sed '/^$/d' | sort -u >needed
ok "the harnesses name their kernel build packages" \
	grep -qx flex needed

# missing DEPS: the needed packages DEPS does not list.
missing() { grep -v '^#' "$1" | sed '/^$/d' | sort -u | comm -23 needed -; }

check_eq "contrib/deps.txt lists every kernel build package" "" \
	"$(missing "$top_srcdir/contrib/deps.txt" | tr '\n' ' ')"
grep -vx flex "$top_srcdir/contrib/deps.txt" >short.txt
check_eq "a list without flex is caught" "flex " "$(missing short.txt | tr '\n' ' ')"
done_testing
