#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The guest scripts' count of pages that kept their frame across a move
# (same_frames in contrib/stealfs/tests/guest-suite.sh and kt-guest.sh):
# frames are hex words, and those that read as numbers to awk ("1e400",
# "2e5") must still be compared as text, equal only when they are the same
# word.  Run with the host's awk and, where there is one, busybox's (the
# guest's).
. "$top_srcdir/tests/lib.sh"

printf '%s\n' 11400 1e400 1e400 2e5 abc - 1e40 >before
printf '%s\n' 11400 1e400 1e401 200000 abc - 1e41 >after

for script in guest-suite.sh kt-guest.sh; do
	# The function as the script defines it, alone.
	sed -n '/^same_frames() {$/,/^}$/p' "$top_srcdir/contrib/stealfs/tests/$script" >fn.sh
	check_eq "$script defines same_frames" 3 "$(wc -l <fn.sh)"
	for awk in "$(command -v awk)" "$(command -v busybox) awk"; do
		case $awk in " awk") continue ;; esac # no busybox here
		mkdir -p bin
		printf '#!/bin/sh\nexec %s "$@"\n' "$awk" >bin/awk
		chmod +x bin/awk
		check_eq "$script with $awk: 11400, 1e400 and abc kept their frame, nothing else" 3 \
			"$(PATH="$PWD/bin:$PATH" sh -c '. ./fn.sh; same_frames before after')"
		check_eq "$script with $awk: a list against itself, all but the unread page" 6 \
			"$(PATH="$PWD/bin:$PATH" sh -c '. ./fn.sh; same_frames after after')"
	done
done
done_testing
