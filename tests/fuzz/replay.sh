#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Replay each fuzz target's seed corpus and kept crash inputs.
. "$top_srcdir/tests/lib.sh"
for replay in "$top_builddir"/tests/fuzz/replay-*; do
	[ -x "$replay" ] || continue
	name=$(basename "$replay" | sed 's/^replay-//')
	set -- "$top_srcdir/tests/fuzz/corpus/$name"
	[ -d "$top_srcdir/tests/fuzz/regressions/$name" ] && set -- "$@" "$top_srcdir/tests/fuzz/regressions/$name"
	ok "fuzz inputs of $name replay cleanly" "$replay" "$@"
done
done_testing
