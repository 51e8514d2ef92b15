#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The manual pages name the release configure.ac declares (AC_INIT) in
# their .TH line; a "since X.Y" in them names a release NEWS lists; and no
# page has a section heading twice.  Then the same checks on pages with a
# fault of each kind, which must be caught.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

# The version configure.ac declares: the second argument of AC_INIT.
declared=$(sed -n 's/^AC_INIT(\[[^]]*\], *\[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")
ok "configure.ac declares a version" test -n "$declared"
if [ -n "${PACKAGE_VERSION:-}" ]; then
	check_eq "configure's version is configure.ac's" "$declared" "$PACKAGE_VERSION"
fi

# problems MANDIR NEWS: one line for each page of MANDIR that names another
# version in .TH, says "since" a release NEWS does not list, or repeats a
# section heading.
problems() {
	releases=$(sed -n 's/^\* Noteworthy changes in release \([0-9.]*\).*/\1/p' "$2")
	for page in "$1"/*.[1-8]; do
		name=$(basename "$page")
		head -n 1 "$page" | grep -q '^\.so ' && continue
		th=$(sed -n '/^\.TH /{p;q;}' "$page")
		case $th in
		*"\"splice-utils $declared\""*) ;;
		*) echo "$name: .TH names another version: $th" ;;
		esac
		grep -io 'since \(release \)\{0,1\}[0-9][0-9.]*[0-9]' "$page" | while read -r since; do
			v=$(echo "$since" | sed 's/.* //')
			echo "$releases" | grep -qx -e "$v" -e "$v\.0" ||
				echo "$name: \"$since\", a release NEWS does not list"
		done
		sed -n 's/^\.SH[ \t]*//p' "$page" | tr -d '"' | sort | uniq -d |
			sed "s/^/$name: section twice: /"
	done
}

check_eq "every page: the declared version, releases NEWS lists, each section once" "" \
	"$(problems "$top_srcdir/man" "$top_srcdir/NEWS")"

# The checks catch each fault.
mkdir faults
printf '.TH A 1 2026-01-01 "splice-utils %s" "User Commands"\n.SH NAME\n' "$declared" >faults/good.1
printf '.TH B 1 2026-01-01 "splice-utils 0.0.9" "User Commands"\n.SH NAME\n' >faults/old.1
printf '.TH C 3 2026-01-01 "splice-utils %s" "Library"\n.SH NAME\n(Since 0.7.)\n' "$declared" >faults/since.3
printf '.TH D 1 2026-01-01 "splice-utils %s" "User Commands"\n.SH EXIT STATUS\n.SH EXIT STATUS\n' "$declared" >faults/twice.1
printf '.so man3/since.3\n' >faults/link.3
got=$(problems faults "$top_srcdir/NEWS" | cut -d: -f1 | sort | tr '\n' ' ')
check_eq "a wrong version, an unknown release and a repeated section are caught" \
	"old.1 since.3 twice.1 " "$got"
done_testing
