#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every manual page is lint-clean for groff (and mandoc when installed),
# link pages included.  A link page is one ".so man3/PAGE.3" line (Debian's
# convention); groff and mandoc resolve it against the working directory,
# so the pages are linted from a directory where manN/ is the source's man/,
# as they are installed.  mandoc then lints the page linked to as well.
. "$top_srcdir/tests/lib.sh"
[ -n "${GROFF:-}" ] || GROFF=$(command -v groff) || skip "groff is not installed"
for page in "$top_srcdir"/man/*.[1-8]; do
	name=$(basename "$page")
	dir=man${name##*.}
	[ -e "$dir" ] || ln -s "$top_srcdir/man" "$dir"
	out=$(LC_ALL=C.UTF-8 "$GROFF" -ww -z -man -Tutf8 "$dir/$name" 2>&1)
	check_eq "groff -ww -z $name" "" "$out"
	if command -v mandoc >/dev/null; then
		# The one warning a link page must give: mandoc prefers ln(1).
		so=$(sed -n '1s/^\.so //p' "$page")
		fragile="mandoc: $dir/$name:1:2: WARNING: .so is fragile, better use ln(1): so $so"
		out=$(mandoc -Tlint -Wwarning "$dir/$name" 2>&1 | grep -vxF "$fragile")
		check_eq "mandoc -Tlint $name" "" "$out"
	fi
done
done_testing
