#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The layers of the tree, each using only those below it:
#   the tools (src/spcat, src/sptee, src/spmove, src/acctpin)
#   src/common
#   lib/ (libsplice)
# checked by what the sources include and by what the objects call (nm):
#  - lib/ uses nothing of src/: every quoted #include of lib/ is found in
#    lib/ or include/, its Makemodule.am names nothing under src/, and no
#    symbol its objects need is defined by an object of src/; and no two
#    files of lib/ call each other, directly or round a circle;
#  - spmove's copying layer (copy.c, data.c, attrs.c, durable.c) calls
#    nothing of its walker (entry.c, tree.c, pool.c, operands.c), and
#    takes a struct copier, never the walker's struct spmove;
#  - no helper is defined twice: no global is defined by two objects
#    (main aside, one per tool), no static function of lib/ or src/ copies
#    a global of lib/ or src/common/ (its name, or its name without lsp_),
#    and no two files of lib/ define a static function of the same name.
# Each check is run once on a made-up case that breaks it, to show it can
# fail.
. "$top_srcdir/tests/lib.sh"
command -v nm >/dev/null || skip "nm is missing"
B=$top_builddir S=$top_srcdir
core="$B/lib/.libs/libsplice-core.a" common="$B/src/common/.libs/libcommon.a"
[ -e "$core" ] && [ -e "$common" ] || skip "the libraries are not built"
tool_objects() {
	for t in spcat sptee spmove acctpin; do
		ls "$B/src/$t/$t"-*.o 2>/dev/null
	done
}
[ -n "$(tool_objects)" ] || skip "the tools are not built"

# defined FILE...: the global symbols FILE... define, one a line.
defined() { nm -g --defined-only "$@" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u; }
# needed FILE...: the symbols FILE... use and do not define themselves.
needed() { nm -g --undefined-only "$@" 2>/dev/null | awk '{ print $NF }' | sort -u; }

# lib_includes FILE...: each "FILE: include" of lib/ found neither in lib/
# nor in include/ (config.h aside), or climbing out with "..".
lib_includes() {
	for f in "$@"; do
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
			while IFS= read -r inc; do
				[ "$inc" = config.h ] && continue
				case $inc in *..*) echo "$f: $inc"; continue ;; esac
				[ -e "$S/lib/$inc" ] || [ -e "$S/include/$inc" ] || echo "$f: $inc"
			done
	done
}
# uses LOWER UPPER: the symbols the objects LOWER (a file of names) need
# that the objects UPPER (a file of names) define.
uses() {
	needed $(cat "$1") >needed.txt
	defined $(cat "$2") >defined.txt
	comm -12 needed.txt defined.txt
}
# statics FILE...: "NAME FILE" for each static function FILE defines.
statics() {
	for f in "$@"; do
		sed -n 's/^static [^=;(]*[ *]\([A-Za-z_0-9]*\)(.*/\1/p' "$f" | sort -u |
			sed "s|\$| $f|"
	done
}
# copies GLOBALS FILE...: each "NAME FILE" of a static function of FILE
# named as one of GLOBALS (a file of names), or as one without lsp_.
copies() {
	local g=$1; shift
	sed 's/^lsp_//' "$g" | cat - "$g" | sort -u >"$T_DIR/globals.txt"
	statics "$@" | while read -r name file; do
		grep -qx "$name" "$T_DIR/globals.txt" && echo "$name $file"
	done
}
# file_edges ARCHIVE: "A B" for each object A of ARCHIVE that calls a
# global of another object B of it.
file_edges() {
	nm -A -g --defined-only "$1" 2>/dev/null |
		awk 'NF == 3 { split($1, p, ":"); print $3, p[2] }' | sort >defs.txt
	nm -A -g --undefined-only "$1" 2>/dev/null |
		awk '{ split($1, p, ":"); print $NF, p[2] }' | sort >undefs.txt
	join undefs.txt defs.txt | awk '$2 != $3 { print $2, $3 }' | sort -u
}
# circles: what tsort(1) says of the edges on standard input when they
# make a circle; nothing when they do not.
circles() { tsort 2>&1 >/dev/null; }
# twice FILE...: names of static functions defined in two of FILE...
twice() { statics "$@" | awk '{ print $1 }' | uniq -d; }

cd "$S" || exit 99
lib_sources=$(ls lib/*.c lib/*.h)
src_sources=$(find src -name '*.[ch]' | sort)
cd "$T_DIR" || exit 99

# lib/ below src/.
check_eq "lib/ includes nothing outside lib/ and include/" "" \
	"$(cd "$S" && lib_includes $lib_sources)"
check_eq "lib/Makemodule.am names nothing under src/" "" \
	"$(grep -v '^[[:space:]]*#' "$S/lib/Makemodule.am" | grep 'src/')"
echo "$core" >lib.txt
{ echo "$common"; tool_objects; } >src.txt
check_eq "lib/ calls nothing of src/" "" "$(uses lib.txt src.txt)"
ok "src/ calls lib/ (the check sees calls)" test -n "$(uses src.txt lib.txt)"

ok "lib/'s files call each other (the check sees calls)" test -n "$(file_edges "$core")"
check_eq "no circle of files in lib/ (each calls only those below it)" "" \
	"$(file_edges "$core" | circles)"

# spmove's copying layer below its walker.
for f in copy data attrs durable; do echo "$B/src/spmove/spmove-$f.o"; done >copying.txt
for f in entry tree pool operands; do echo "$B/src/spmove/spmove-$f.o"; done >walker.txt
check_eq "spmove's copy.c, data.c, attrs.c, durable.c call nothing of entry.c, tree.c, pool.c, operands.c" \
	"" "$(uses copying.txt walker.txt)"
ok "the walker calls the copying layer (the check sees calls)" test -n "$(uses walker.txt copying.txt)"
# walker_in FILE...: each "FILE:LINE" that names the walker (struct spmove).
walker_in() { grep -Hn 'struct spmove\([^_[:alnum:]]\|$\)' "$@" | cut -d: -f1,2; }
check_eq "spmove's copy.c, data.c, attrs.c, durable.c take a struct copier, never the walker" \
	"" "$(cd "$S/src/spmove" && walker_in copy.c data.c attrs.c durable.c)"

# No helper twice.
tool_objects >tools.txt
check_eq "no global is defined twice (main aside)" "" \
	"$(nm -A -g --defined-only "$core" "$common" $(cat tools.txt) 2>/dev/null |
		awk 'NF == 3 && $2 ~ /^[TDBR]$/ && $3 != "main" { print $3 }' | sort | uniq -d)"
defined "$core" "$common" >shared.txt
check_eq "no static function copies a helper of lib/ or src/common/" "" \
	"$(cd "$S" && copies "$T_DIR/shared.txt" $lib_sources $src_sources)"
check_eq "no two files of lib/ define a static function of the same name" "" \
	"$(cd "$S" && twice $lib_sources)"

# The checks can fail.
printf 'int f(struct spmove_options *o);\nint g(struct spmove *s);\n' >taker.c
check_eq "a copying function that takes the walker is caught" "taker.c:2" "$(walker_in taker.c)"
check_eq "a circle of two files is caught" "yes" \
	"$(printf 'a.o b.o\nb.o a.o\n' | circles | grep -q . && echo yes)"
mkdir -p lib
printf '#include "clock.h"\n#include "../src/common/quote.h"\n#include "options.h"\n' >lib/a.c
check_eq "an include of src/ from lib/ is caught" \
	"lib/a.c: ../src/common/quote.h
lib/a.c: options.h" "$(lib_includes lib/a.c)"
if command -v cc >/dev/null; then
	printf 'int cli_quote(void);\nint f(void) { return cli_quote(); }\n' >up.c
	printf 'static long now_ns(void) { return 0; }\nint g(void) { return (int)now_ns(); }\n' >copy.c
	printf 'static int page_size(void) { return 1; }\n' >one.c
	cp one.c two.c
	if cc -c up.c -o up.o; then
		echo "$T_DIR/up.o" >up.txt
		check_eq "a call from lib/ up into src/common is caught" "cli_quote" \
			"$(uses up.txt src.txt)"
	fi
	check_eq "a private copy of lsp_now_ns is caught" "now_ns copy.c" \
		"$(copies shared.txt copy.c)"
	check_eq "a static helper in two files of lib/ is caught" "page_size" "$(twice one.c two.c)"
fi
done_testing
