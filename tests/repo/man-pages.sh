#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every function libsplice.h declares has its manual page, "man FUNCTION":
# man/FUNCTION.3, the page itself or a link page (".so man3/PAGE.3") to
# the page whose NAME lists it; every page's SYNOPSIS declares the functions
# its NAME lists exactly as the header does; libsplice(3) lists them all;
# no page is left for a function the header does not declare; every page is
# installed; the EXAMPLES compile.  LIBSPLICE_H names another header to
# check the pages against (such as the next release's, before it lands).
. "$top_srcdir/tests/lib.sh"
H=${LIBSPLICE_H:-$top_srcdir/lib/libsplice.h}
MAN=$top_srcdir/man
[ -r "$H" ] || skip "cannot read $H"

# The function declarations of the C text on standard input, one a line as
# NAME<TAB>DECLARATION, white space normalised: one blank between words,
# none next to punctuation.  Comments, preprocessor lines and typedefs are
# left out.
declarations() {
	awk '
	function normalise(s) {
		gsub(/[ \t]+/, " ", s)
		gsub(/ *\( */, "(", s); gsub(/ *\) */, ")", s)
		gsub(/ *, */, ",", s); gsub(/ *\* */, "*", s)
		gsub(/ *\[ */, "[", s); gsub(/ *\] */, "]", s)
		sub(/^ /, "", s); sub(/ $/, "", s)
		return s
	}
	{
		line = $0; out = ""
		while (line != "") {
			if (incomment) {
				i = index(line, "*/")
				if (!i) break
				line = substr(line, i + 2); incomment = 0
			} else {
				i = index(line, "/*")
				if (!i) { out = out line; break }
				out = out substr(line, 1, i - 1) " "
				line = substr(line, i + 2); incomment = 1
			}
		}
		if (out !~ /^[ \t]*#/) text = text " " out
	}
	END {
		n = split(text, stmt, /[;{}]/)
		for (k = 1; k <= n; k++) {
			s = normalise(stmt[k])
			if (s ~ /^typedef / || !match(s, /[A-Za-z_0-9]+\(/))
				continue
			print substr(s, RSTART, RLENGTH - 1) "\t" s
		}
	}'
}

# The plain text of the roff lines on standard input: the font macros'
# arguments (those of the alternating ones run together), text lines as
# they are, roff escapes resolved; other requests and comments give nothing.
roff_text() {
	awk '
	function args(s, spaced,   n, a, c, q, joined) {
		n = 0
		for (;;) {
			sub(/^[ \t]+/, "", s)
			if (s == "") break
			if (substr(s, 1, 1) == "\"") {
				s = substr(s, 2); q = index(s, "\"")
				if (!q) q = length(s) + 1
				a[++n] = substr(s, 1, q - 1); s = substr(s, q + 1)
			} else {
				c = match(s, /[ \t]/) ? RSTART - 1 : length(s)
				a[++n] = substr(s, 1, c); s = substr(s, c + 1)
			}
		}
		joined = ""
		for (c = 1; c <= n; c++) joined = joined (c > 1 && spaced ? " " : "") a[c]
		return joined
	}
	{
		line = $0
		if (line ~ /^[.\047]/) {
			macro = line; sub(/^[.\047][ \t]*/, "", macro); sub(/[ \t].*/, "", macro)
			rest = line; sub(/^[.\047][ \t]*[^ \t]*/, "", rest)
			if (macro ~ /^(B|I|SM|SB)$/) line = args(rest, 1)
			else if (macro ~ /^(BI|BR|IB|IR|RB|RI)$/) line = args(rest, 0)
			else next
		}
		gsub(/\\f(\[[A-Z]*\]|\(..|.)/, "", line)
		gsub(/\\[&%|^]/, "", line)
		gsub(/\\\(aq/, "\047", line); gsub(/\\\(dq/, "\"", line)
		gsub(/\\[~ ]/, " ", line); gsub(/\\-/, "-", line)
		gsub(/\\e/, "\\\\", line)
		print line
	}'
}

# The roff lines of the section called $1 of the page $2.
section() {
	awk -v want="$1" '
	/^\.SH/ { name = $0; sub(/^\.SH[ \t]+/, "", name); gsub(/"/, "", name)
		  inside = name == want; next }
	inside' "$2"
}

# The names the NAME section of the page $1 lists, one a line.
page_names() {
	section NAME "$1" | roff_text | tr '\n' ' ' | sed 's/ - .*//' | tr ',' '\n' |
		sed 's/^ *//; s/ *$//' | grep -v '^$'
}

# The page that man/$1 shows: itself, or the page its ".so" names.
resolve() {
	target=$(sed -n '1s|^\.so man3/||p' "$MAN/$1")
	echo "${target:-$1}"
}

declarations <"$H" | sort -u >header.decl
cut -f1 header.decl | sort -u >declared
ok "the header declares functions" test -s declared

# Every function has a page, whose NAME (after a .so link) lists it.
while read -r fn; do
	ok "$fn has man/$fn.3" test -f "$MAN/$fn.3"
	[ -f "$MAN/$fn.3" ] || continue
	page=$(resolve "$fn.3")
	check_eq "$fn.3 shows $page, whose NAME lists $fn" "$fn" \
		"$(page_names "$MAN/$page" 2>/dev/null | grep -x "$fn")"
done <declared

for path in "$MAN"/*.3; do
	page=$(basename "$path")
	name=${page%.3}
	if head -n 1 "$path" | grep -q '^\.so '; then
		# A link page: one line, naming a page that lists the link's name.
		target=$(resolve "$page")
		check_eq "$page is one .so line" "1 .so man3/$target" \
			"$(wc -l <"$path" | tr -d ' ') $(cat "$path")"
		check_eq "$page links to a page whose NAME lists $name" "$name" \
			"$(page_names "$MAN/$target" 2>/dev/null | grep -x "$name")"
		continue
	fi
	# A page: its SYNOPSIS declares each function its NAME lists once, as
	# the header does (libsplice(3), the overview, lists none).
	section SYNOPSIS "$path" | roff_text | declarations >synopsis.decl
	for fn in $(page_names "$path" | grep '^sp_'); do
		check_eq "$page declares $fn as the header does" \
			"$(awk -F '\t' -v f="$fn" '$1 == f { print $2 }' header.decl)" \
			"$(awk -F '\t' -v f="$fn" '$1 == f { print $2 }' synopsis.decl)"
	done
done

# The overview, libsplice(3), lists every function, each on a line of its own.
section DESCRIPTION "$MAN/libsplice.3" | sed -n 's/^\.BR \(sp_[a-z_0-9]*\) (3)$/\1/p' |
	sort -u >listed
check_eq "libsplice.3 lists every function" "$(cat declared)" "$(cat listed)"

# No page is left for a function the header does not declare (renamed away).
ls "$MAN" | sed -n 's/^\(sp_.*\)\.3$/\1/p' | sort >paged
check_eq "no page for an undeclared function" "" "$(comm -13 declared paged)"

# Every page is installed: a Makemodule.am lists it in dist_man_MANS.
find "$top_srcdir" -name Makemodule.am -exec cat {} + |
	grep -o 'man/[A-Za-z0-9_.-]*\.[1-8]' | sort -u >installed
ls "$MAN" | grep '\.[1-8]$' | sed 's|^|man/|' | sort >pages
check_eq "every page is installed" "" "$(comm -23 pages installed)"

# The EXAMPLES that are whole programs compile against the header.
CC=${CC:-cc}
if command -v "$CC" >/dev/null; then
	mkdir include && ln -s "$H" include/libsplice.h
	for path in "$MAN"/*.3; do
		page=$(basename "$path" .3)
		section EXAMPLES "$path" | sed -n '/^\.EX/,/^\.EE/p' | roff_text >"$page.c"
		grep -q '^#include' "$page.c" || continue
		ok "the EXAMPLES of $page.3 compile" "$CC" -std=gnu11 -Wall -Wextra -Werror \
			-Iinclude -c "$page.c" -o "$page.o"
	done
fi
done_testing
