#!/bin/sh
# Every manual page is lint-clean for groff (and mandoc when installed).
. "$top_srcdir/tests/lib.sh"
[ -n "${GROFF:-}" ] || GROFF=$(command -v groff) || skip "groff is not installed"
for page in "$top_srcdir"/man/*.[1-8]; do
	name=$(basename "$page")
	out=$(LC_ALL=C.UTF-8 "$GROFF" -ww -z -man -Tutf8 "$page" 2>&1)
	check_eq "groff -ww -z $name" "" "$out"
	if command -v mandoc >/dev/null; then
		out=$(mandoc -Tlint -Wwarning "$page" 2>&1)
		check_eq "mandoc -Tlint $name" "" "$out"
	fi
done
done_testing
