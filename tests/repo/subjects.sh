#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every commit since the rule came in (issue 38) has a subject of at most
# 72 characters, so that `git log --oneline` stays readable; the why goes
# in the body.  The history before d588970 is left as it was published.
# Skipped outside a git checkout, and in a clone too shallow to hold the
# commit the rule counts from.
. "$top_srcdir/tests/lib.sh"
SINCE=d588970
top_git=$(git -C "$top_srcdir" rev-parse --show-toplevel 2>/dev/null)
[ "$(cd "$top_srcdir" && pwd -P)" = "$(cd "${top_git:-/nonexistent}" 2>/dev/null && pwd -P)" ] ||
	skip "not a git checkout"
git -C "$top_srcdir" cat-file -e "$SINCE^{commit}" 2>/dev/null ||
	skip "commit $SINCE is not in this clone"

# long_subjects REV: the commits after $SINCE up to REV whose subject is
# longer than 72 characters, "HASH LENGTH: SUBJECT" a line.
long_subjects() {
	git -C "$top_srcdir" log --format='%h %s' "$SINCE..$1" |
		awk '{ s = substr($0, index($0, " ") + 1) } length(s) > 72 { print $1, length(s) ": " s }'
}
long=$(long_subjects HEAD)
[ -z "$long" ] || echo "$long"
check_eq "subjects of at most 72 characters since $SINCE" "" "$long"

# The check itself: a commit with a 73-character subject, made on a
# scratch clone, is found.
git clone -q --no-checkout "$top_srcdir" clone 2>/dev/null || skip "cannot clone $top_srcdir"
subject=$(printf '%073d' 0)
git -C clone -c user.name=t -c user.email=t@t commit -q --allow-empty -m "$subject" ||
	skip "cannot commit in a scratch clone"
check_eq "a 73-character subject is found" "73: $subject" \
	"$(top_srcdir=$PWD/clone long_subjects HEAD | sed 's/^[^ ]* //')"
done_testing
