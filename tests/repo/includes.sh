#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Nothing under lib/ or src/ reaches into contrib/: no #include names a path
# under contrib/, no Makemodule.am of lib/ or src/ puts a contrib/ folder on
# the include path, and every quoted #include of lib/ and src/ is found in
# the folders their include path has (the file's own, lib/, src/common/,
# include/, config.h in the build tree), never only under contrib/.  The
# stealfs ABI header lives in include/ for that reason.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
cd "$top_srcdir" || exit 99

# the files to check; a file of names is given as $1 in the self-check below
sources() { find lib src -name '*.[ch]' | sort; }

# reach FILE...: prints each "FILE: include" that reaches into contrib/.
reach() {
	for f in "$@"; do
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
			while IFS= read -r inc; do
				case $inc in
				*contrib/*) echo "$f: $inc"; continue ;;
				config.h) continue ;;
				esac
				found=
				for d in "$(dirname "$f")" lib src/common include; do
					[ -e "$d/$inc" ] && { found=$d; break; }
				done
				[ -n "$found" ] || echo "$f: $inc (not in its folder, lib/, src/common/ or include/)"
			done
	done
}

check_eq "no #include of lib/ or src/ reaches into contrib/" "" "$(reach $(sources))"
check_eq "no Makemodule.am of lib/ or src/ adds contrib/ to the include path" "" \
	"$(find lib src -name Makemodule.am | sort | xargs grep -n -e '-I[^ ]*contrib' /dev/null)"

# The check can fail: a source including the header from contrib/, and one
# including a header that exists only there.
mkdir -p "$T_DIR/lib"
printf '#include "../contrib/stealfs/stealfs.h"\n' > "$T_DIR/lib/a.c"
printf '#include "compat.h"\n' > "$T_DIR/lib/b.c"
check_eq "a path into contrib/ is caught" "$T_DIR/lib/a.c: ../contrib/stealfs/stealfs.h" \
	"$(reach "$T_DIR/lib/a.c")"
check_eq "a header found only under contrib/ is caught" \
	"$T_DIR/lib/b.c: compat.h (not in its folder, lib/, src/common/ or include/)" \
	"$(reach "$T_DIR/lib/b.c")"
done_testing
