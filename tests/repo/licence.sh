#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every source file names its licence in an SPDX-License-Identifier line:
# LGPL-2.1-or-later in lib/ (libsplice) and include/stealfs-abi.h, which
# lib/ includes; what the stealfs module declares (MODULE_LICENSE) in its
# sources; GPL-2.0-or-later everywhere else.  The line is the first, or the
# second after a "#!" line, in the comment style of the file's kind.
# contrib/add-spdx says which files and which licence (--list) and writes
# the lines; this test reads the files itself, checks that add-spdx leaves
# out no C, shell, Python, Automake or man page file, and checks the
# licence texts.  Then add-spdx runs on a small tree, twice (the second run
# changes nothing), which must then pass, and fail with one line taken out.
. "$top_srcdir/tests/lib.sh"
ADD=$top_srcdir/contrib/add-spdx
# A release tree unpacked inside some other checkout (distcheck in a clone)
# is not a checkout of its own: only the checkout's top counts.
top_git=$(git -C "$top_srcdir" rev-parse --show-toplevel 2>/dev/null)
if [ "$(cd "$top_srcdir" && pwd -P)" != "$(cd "${top_git:-/nonexistent}" 2>/dev/null && pwd -P)" ] &&
	[ -e "$top_srcdir/configure" ]; then
	skip "not a git checkout: the source files cannot be told from generated ones"
fi

# problems TOP: one line for each source file of TOP whose SPDX line is
# missing, out of place, in the wrong comment style or for another licence.
problems() {
	sh "$ADD" --list "$1" >list || { echo "add-spdx --list failed"; return; }
	while read -r id style f; do
		case $style in
		c) want="/* SPDX-License-Identifier: $id */" ;;
		kernel) want="// SPDX-License-Identifier: $id" ;;
		hash) want="# SPDX-License-Identifier: $id" ;;
		dnl) want="dnl SPDX-License-Identifier: $id" ;;
		roff) want=".\\\" SPDX-License-Identifier: $id" ;;
		*) echo "$f: unknown style $style"; continue ;;
		esac
		at=1
		[ "$(head -c 2 "$1/$f")" != '#!' ] || at=2
		[ "$(sed -n "${at}p" "$1/$f")" = "$want" ] || echo "$f: line $at is not: $want"
		n=$(grep -c -e '^\(/\*\|//\|#\|dnl\|\.\\"\) SPDX-License-Identifier:' "$1/$f")
		[ "$n" -le 1 ] || echo "$f: $n SPDX lines"
	done <list
}

cd "$top_srcdir" || exit 99
sh "$ADD" --list >"$T_DIR/all" || exit 99
cd "$T_DIR" || exit 99
ok "add-spdx lists source files" test -s all

# Nothing of these kinds is left out (the data under tests/fuzz and the
# recorded results are not sources; link pages are one .so line).
if git -C "$top_srcdir" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git -C "$top_srcdir" ls-files >tracked
else
	(cd "$top_srcdir" && find . -type f | sed 's|^\./||') >tracked
fi
grep -E '\.(c|h|sh|py|am|[1-8])$|^configure\.ac$' tracked |
	grep -vE '^tests/fuzz/(corpus|regressions)/|/results/|^tests/kernel-truth/recorded/' |
	while read -r f; do
		case $f in man/*.[1-8]) head -n 1 "$top_srcdir/$f" | grep -q '^\.so ' && continue ;; esac
		[ -L "$top_srcdir/$f" ] || echo "$f"
	done | sort >kinds
awk '{ print $3 }' all | sort >listed
check_eq "add-spdx leaves out no C, shell, Python, Automake or man page file" "" \
	"$(comm -23 kinds listed)"

# The licence of each place.
check_eq "lib/ is LGPL-2.1-or-later" "" \
	"$(awk '$3 ~ /^lib\// && $1 != "LGPL-2.1-or-later"' all)"
check_eq "lib/libsplice.h is LGPL-2.1-or-later" "LGPL-2.1-or-later" \
	"$(awk '$3 == "lib/libsplice.h" { print $1 }' all)"
check_eq "the stealfs ABI header, included by lib/, is LGPL-2.1-or-later" "LGPL-2.1-or-later" \
	"$(awk '$3 == "include/stealfs-abi.h" { print $1 }' all)"
module=$(sed -n 's/^MODULE_LICENSE("\(.*\)");/\1/p' "$top_srcdir/contrib/stealfs/super.c")
case $module in
GPL) allowed="GPL-2.0 GPL-2.0-or-later" ;;     # "GPL": version 2, only or later not said
"GPL v2") allowed="GPL-2.0" ;;
*) allowed="(MODULE_LICENSE(\"$module\") unknown)" ;;
esac
for f in contrib/stealfs/super.c contrib/stealfs/splice.c contrib/stealfs/stealfs.h; do
	id=$(awk -v f="$f" '$3 == f { print $1 }' all)
	ok "$f: $id, as MODULE_LICENSE(\"$module\") allows" \
		sh -c 'for a in $2; do [ "$a" = "$1" ] && exit 0; done; exit 1' sh "$id" "$allowed"
done
check_eq "the module's own tests (user space) are GPL-2.0-or-later" "GPL-2.0-or-later" \
	"$(awk '$3 == "contrib/stealfs/tests/stealprobe.c" { print $1 }' all)"
check_eq "everything else is GPL-2.0-or-later" "" \
	"$(awk '$3 !~ /^lib\// && $3 != "include/stealfs-abi.h" && $1 != "GPL-2.0-or-later" &&
		!($1 == "GPL-2.0" && ($3 ~ /^contrib\/stealfs\/[^\/]*$/ || $3 ~ /^contrib\/stealfs\/tests\/.*\.c$/))' all)"

# The licence texts, shipped in the tarball.
check_eq "COPYING is the GPL, version 2" "GNU GENERAL PUBLIC LICENSE Version 2, June 1991" \
	"$(head -n 2 "$top_srcdir/COPYING" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')"
check_eq "COPYING.LIB is the LGPL, version 2.1" \
	"GNU LESSER GENERAL PUBLIC LICENSE Version 2.1, February 1999" \
	"$(head -n 2 "$top_srcdir/COPYING.LIB" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')"
ok "COPYING and COPYING.LIB are in EXTRA_DIST" \
	grep -q '^EXTRA_DIST += COPYING COPYING.LIB$' "$top_srcdir/Makefile.am"

# Every file of the tree.
check_eq "every source file has its SPDX line" "" "$(problems "$top_srcdir")"

# add-spdx on a small clean tree: each kind, a file with the wrong licence,
# one with the line already; then idempotent, then one line taken out.
mkdir -p t/lib t/src t/man t/contrib/stealfs t/contrib/completion
printf '/* a */\nint a;\n' >t/lib/a.c
printf '/* b */\nint b;\n' >t/src/b.c
printf '/* SPDX-License-Identifier: GPL-2.0-or-later */\nint c;\n' >t/lib/c.c
printf '// SPDX-License-Identifier: GPL-2.0\nint d;\n' >t/contrib/stealfs/d.c
printf '#!/bin/sh\necho e\n' >t/src/e && chmod 755 t/src/e
printf 'echo f\n' >t/src/f.sh
printf '# g\n' >t/src/Makemodule.am
printf 'dnl h\nAC_INIT([h], [1])\n' >t/configure.ac
printf '.TH I 1\n.SH NAME\n' >t/man/i.1
printf '.so man3/i.3\n' >t/man/j.3
printf 'complete -F _k k\n' >t/contrib/completion/k
printf '#!/usr/bin/env python3\nprint(1)\n' >t/src/l.py
printf 'data\n' >t/src/data.txt
sh "$ADD" t >add.out 2>add.err
check_eq "add-spdx on a small tree: what it changed" "add-spdx: 10 files changed" "$(cat add.out)"
check_eq "add-spdx on a small tree: the licence it corrected" \
	"add-spdx: lib/c.c: GPL-2.0-or-later -> LGPL-2.1-or-later" "$(cat add.err)"
check_eq "the small tree passes" "" "$(problems t)"
check_eq "a C file in lib/" "/* SPDX-License-Identifier: LGPL-2.1-or-later */|/* a */" \
	"$(head -n 2 t/lib/a.c | paste -sd '|')"
check_eq "a script: after its #! line, still executable" \
	"#!/bin/sh|# SPDX-License-Identifier: GPL-2.0-or-later|echo e|755" \
	"$(paste -sd '|' t/src/e)|$(stat -c %a t/src/e)"
check_eq "a man page: a roff comment" '.\" SPDX-License-Identifier: GPL-2.0-or-later' \
	"$(head -n 1 t/man/i.1)"
check_eq "configure.ac: a dnl line" "dnl SPDX-License-Identifier: GPL-2.0-or-later" \
	"$(head -n 1 t/configure.ac)"
check_eq "a link page and a data file are left alone" ".so man3/i.3|data" \
	"$(cat t/man/j.3 t/src/data.txt | paste -sd '|')"
tar -cf before.tar t
sh "$ADD" t >add.out 2>&1
check_eq "a second run changes nothing" "add-spdx: 0 files changed" "$(cat add.out)"
ok "a second run leaves every byte" sh -c 'tar -cf after.tar t && cmp -s before.tar after.tar'
sed -i 1d t/src/b.c
check_eq "a file without its line is caught" \
	"src/b.c: line 1 is not: /* SPDX-License-Identifier: GPL-2.0-or-later */" "$(problems t)"
done_testing
