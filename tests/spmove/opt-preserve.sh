# SPDX-License-Identifier: GPL-2.0-or-later
# spmove --preserve=mode,ownership,timestamps,links,xattr,all and
# --no-preserve=LIST, as GNU cp 9.11: ACLs go with mode; bad words; context
# refused. Ownership and trusted.* as root; as a user (nobody, through
# setpriv): the group kept when the user is in it, set-user-ID and
# set-group-ID cleared when ownership is not kept.
. "$top_srcdir/tests/spmove/opt-lib.sh"
require_root
OLD=981173106 # 2001-02-03 04:05:06 UTC

# Unlike GNU cp, a copy whose owner is not the source's never keeps the
# set-user-ID bit (issue 34): root's --preserve=mode copy of nobody's 4751
# file is 0751, as chown(2) would leave it, and -v says so.
# setup NAME: s ("S", nobody:nogroup, mode 4751, old times) in a fresh
# directory NAME.
setup() {
	fresh "$1"
	echo S >s
	chown nobody:nogroup s
	chmod 4751 s
	touch -d @$OLD s
}

# attrs FILE: mode, owner, group and mtime of FILE.
attrs() { stat -c '%a %U:%G %Y' "$1"; }

NOW="[0-9]*"
for case in \
	"|751 root:root NOW" \
	"--preserve=mode|751 root:root NOW" \
	"--preserve=ownership|751 nobody:nogroup NOW" \
	"--preserve=timestamps|751 root:root $OLD" \
	"--preserve=mode,ownership|4751 nobody:nogroup NOW" \
	"--preserve=mode,timestamps,ownership|4751 nobody:nogroup $OLD" \
	"--preserve=all|4751 nobody:nogroup $OLD" \
	"--preserve|4751 nobody:nogroup $OLD" \
	"-p|4751 nobody:nogroup $OLD" \
	"-a|4751 nobody:nogroup $OLD" \
	"-a --no-preserve=mode|644 nobody:nogroup $OLD" \
	"-a --no-preserve=ownership|751 root:root $OLD" \
	"-a --no-preserve=timestamps|4751 nobody:nogroup NOW" \
	"-p --no-preserve=mode,ownership|644 root:root $OLD" \
	"--preserve=all --no-preserve=all|644 root:root NOW" \
	"--preserve=mode --no-preserve=mode|644 root:root NOW" \
	"--no-preserve=mode --preserve=mode|751 root:root NOW" \
	"--pres=m,t|751 root:root $OLD"; do
	opts=${case%%|*} want=${case#*|}
	setup preserve
	# shellcheck disable=SC2086 # opts is a list of words
	expect "'$opts'" 0 "" "" $opts s c
	got=$(attrs c)
	case $want in
	*NOW) ok "'$opts': mode, owner (got $got, want $want)" \
		test "${got% *}" = "${want% *}" -a "${got##* }" != $OLD ;;
	*) check_eq "'$opts': mode, owner, time" "$want" "$got" ;;
	esac
	check_eq "'$opts': the data" S "$(content c)"
done
setup setid
expect "--preserve=mode -v: the set-ID bits cleared, said" 0 \
	"'s' -> 'c'
cleared the set-ID bits of 'c': its owner is not the source's" "" --preserve=mode -v s c
check_eq "--preserve=mode -v: mode" 751 "$(stat -c %a c)"
setup setid-owner
expect "-a -v: the owner kept, the set-ID bits too" 0 "'s' -> 'c'" "" -a -v s c
check_eq "-a -v: mode" 4751 "$(stat -c %a c)"
setup atime
touch -a -d @1000000000 s
expect "--preserve=timestamps: atime too" 0 "" "" --preserve=timestamps s c
check_eq "--preserve=timestamps: atime" 1000000000 "$(stat -c %X c)"

# links: hard links within a tree kept with --preserve=links or -a only.
fresh links
mkdir t; echo x >t/a; ln t/a t/b
expect "-r --preserve=links" 0 "" "" -r --preserve=links t o1
ok "-r --preserve=links: one file" test o1/a -ef o1/b
expect "-a" 0 "" "" -a t o2
ok "-a: one file" test o2/a -ef o2/b
expect "-r" 0 "" "" -r t o3
ok "-r: two files" test ! o3/a -ef o3/b
expect "-a --no-preserve=links" 0 "" "" -a --no-preserve=links t o4
ok "-a --no-preserve=links: two files" test ! o4/a -ef o4/b

# xattr: user.* and (root) trusted.*; ACLs go with mode.
fresh xattr
echo X >x
if setfattr -n user.foo -v bar x 2>/dev/null && setfattr -n trusted.t -v tv x &&
	setfacl -m u:nobody:rw x 2>/dev/null; then
	xattrs() { getfattr -d -m '^(user|trusted)\.' --absolute-names "$1" 2>/dev/null | grep -v '^#' | grep .; }
	acl() { getfacl -cp "$1" 2>/dev/null | grep '^user:nobody:' || echo none; }
	for case in "|none|" "--preserve=xattr|none|trusted.t=\"tv\" user.foo=\"bar\"" \
		"--preserve=mode|user:nobody:rw-|" "-p|user:nobody:rw-|" \
		"-a|user:nobody:rw-|trusted.t=\"tv\" user.foo=\"bar\"" \
		"-a --no-preserve=xattr|user:nobody:rw-|" \
		"-a --no-preserve=mode|none|trusted.t=\"tv\" user.foo=\"bar\""; do
		opts=${case%%|*} rest=${case#*|}
		rm -f c
		# shellcheck disable=SC2086 # opts is a list of words
		expect "'$opts' xattrs" 0 "" "" $opts x c
		check_eq "'$opts': extended attributes" "${rest#*|}" "$(xattrs c | sort | tr '\n' ' ' | sed 's/ $//')"
		check_eq "'$opts': ACL" "${rest%%|*}" "$(acl c)"
	done
	mkdir -p tree/sub; echo y >tree/sub/y; setfattr -n user.d -v dv tree/sub
	expect "-r --preserve=xattr a tree" 0 "" "" -r --preserve=xattr tree tcopy
	check_eq "-r --preserve=xattr: a directory's xattr" 'user.d="dv"' "$(xattrs tcopy/sub)"
	expect "move: xattrs and ACL kept without options" 0 "" "" --remove-source x m
	check_eq "move: xattrs" 'trusted.t="tv" user.foo="bar"' "$(xattrs m | sort | tr '\n' ' ' | sed 's/ $//')"
	check_eq "move: ACL" "user:nobody:rw-" "$(acl m)"
else
	echo "# no user xattrs or ACLs on $T_DIR: those checks skipped"
fi

# Bad words, and context refused.
fresh bad
echo B >s
for word in foo mode,foo "" m,,t; do
	bad=${word#mode,}
	case $word in "") kind=ambiguous ;; m,,t) kind=ambiguous bad= ;; *) kind=invalid ;; esac
	for opt in --preserve --no-preserve; do
		usage_expect "$opt=$word" "$kind argument '$bad' for '$opt'
Valid arguments are:
  - 'mode'
  - 'timestamps'
  - 'ownership'
  - 'links'
  - 'context'
  - 'xattr'
  - 'all'" $opt="$word" s c
		ok "$opt=$word: nothing made" test ! -e c
	done
done
run_cmd "$T_DIR/stdout" "$T_DIR/stderr" "$SPMOVE" --preserve=context s c
check_eq "--preserve=context: status 1" 1 "$RC"
ok "--preserve=context: a message naming context ($(head -1 "$T_DIR/stderr"))" \
	grep -q "^spmove: .*context" "$T_DIR/stderr"
ok "--preserve=context: nothing made" test ! -e c
ok "--preserve=context: spmove(1) says it is not supported" \
	grep -q "context" "$top_srcdir/man/spmove.1"
expect "--no-preserve=context: accepted" 0 "" "" --no-preserve=context s c

# As a user: ownership cannot be kept.
if nobody_runs "$SPMOVE"; then
	chmod 755 "$T_DIR"
	as_user() { setpriv --reuid=nobody --regid=nogroup --groups=users "$@"; }
	for case in \
		"root:users|-p|755 nobody:users $OLD" \
		"root:users|-a|755 nobody:users $OLD" \
		"root:users|--preserve=ownership|755 nobody:users NOW" \
		"root:users|--preserve=mode|755 nobody:nogroup NOW" \
		"root:users||755 nobody:nogroup NOW" \
		"nobody:root|-p|755 nobody:nogroup $OLD" \
		"nobody:users|-p|6755 nobody:users $OLD"; do
		owner=${case%%|*} rest=${case#*|}
		opts=${rest%%|*} want=${rest#*|}
		fresh user
		chown nobody .
		echo U >s; chown "$owner" s; chmod 6755 s; touch -d @$OLD s
		# shellcheck disable=SC2086 # opts is a list of words
		as_user "$SPMOVE" $opts s c >"$T_DIR/stdout" 2>"$T_DIR/stderr"
		check_eq "user, $owner '$opts': status 0" 0 $?
		check_eq "user, $owner '$opts': nothing said" "" "$(cat "$T_DIR/stderr")"
		got=$(attrs c 2>&1)
		case $want in
		*NOW) ok "user, $owner '$opts': mode, owner (got $got, want $want)" \
			test "${got% *}" = "${want% *}" -a "${got##* }" != $OLD ;;
		*) check_eq "user, $owner '$opts': mode, owner, time" "$want" "$got" ;;
		esac
	done
	fresh user-move
	chown nobody .
	echo U >s; chown nobody:users s; chmod 6755 s; touch -d @$OLD s
	as_user "$SPMOVE" --remove-source s m
	check_eq "user, move: all kept" "6755 nobody:users $OLD" "$(attrs m)"
else
	echo "# no setpriv, or nobody cannot reach the build tree: the checks as a user left out"
fi

done_testing
