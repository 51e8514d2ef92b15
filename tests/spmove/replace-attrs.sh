# SPDX-License-Identifier: GPL-2.0-or-later
# A copy over an existing file keeps that file's owner, mode and ACL, as
# GNU cp does when it writes into it -- spmove writes a new file and renames
# it into place, so it must give the new file all three: an ACL of the old
# file's, none when the old file had none (not even one the directory's
# default ACL would give a new file), the set-user-ID bit of a file root
# gives to another user.  Each case is run with GNU cp too and the results
# compared (getfacl's and stat's words), besides the expected values.
. "$top_srcdir/tests/spmove/opt-lib.sh"
require_root
command -v setfacl >/dev/null && command -v getfacl >/dev/null ||
	skip "setfacl/getfacl missing (package acl)"
CP=$(gnu cp)

# look FILE: owner, group, mode and the ACL of FILE, on one line.
look() {
	printf '%s %s\n' "$(stat -c '%U:%G %a' "$1")" \
		"$(getfacl -cp "$1" 2>/dev/null | grep . | LC_ALL=C sort | tr '\n' ' ')"
}

# case NAME SETUP EXPECT [OPTIONS]: in a fresh directory NAME, SETUP (shell
# code) makes dst; new is copied over it by spmove and, in a twin
# directory, by GNU cp, both given OPTIONS.  Both results must be EXPECT
# (a pattern for look's line), the data must be new's, and no temporary
# may be left.
case_() {
	local name=$1 setup=$2 expect=$3 opts=${4:-} tool dir
	for tool in spmove gnu; do
		dir=$name-$tool
		fresh "$dir"
		echo new >new
		echo old old old >dst
		eval "$setup" || { ok "$name: set-up" false; return; }
		# shellcheck disable=SC2086 # the options are words
		if [ $tool = spmove ]; then
			"$SPMOVE" $opts new dst
		else
			"$CP" $opts new dst
		fi
		ok "$name: $tool copied" test $? = 0
		same_files "$name: $tool's data" new dst
		got=$(look dst)
		case $got in
		$expect) ok "$name: $tool: $got" true ;;
		*) ok "$name: $tool: '$got' is not '$expect'" false ;;
		esac
		eval "got_$tool=\$got"
	done
	check_eq "$name: as GNU cp" "$got_gnu" "$got_spmove"
	check_eq "$name: nothing left" "dst new" "$(cd "$T_DIR/$name-spmove" && echo *)"
}

case_ plain 'chmod 640 dst' \
	'root:root 640 group::r-- other::--- user::rw- '
case_ acl 'chmod 640 dst && setfacl -m u:nobody:rw dst' \
	'root:root 660 group::r-- mask::rw- other::--- user::rw- user:nobody:rw- '
case_ default-acl-dir 'setfacl -d -m u:nobody:rwx . && setfacl -b dst && chmod 604 dst' \
	'root:root 604 group::--- other::r-- user::rw- '
case_ owner 'chown nobody:nogroup dst && chmod 4755 dst' \
	'nobody:nogroup 4755 group::r-x other::r-x user::rwx '
case_ acl-setgid 'chown nobody:nogroup dst && chmod 2770 dst && setfacl -m u:daemon:r dst' \
	'nobody:nogroup 2770 group::rwx mask::rwx other::--- user::rwx user:daemon:r-- '
# The source's owner kept (--preserve=ownership): the old file's mode
# stays, its owner goes; with -p the source's mode comes too.
case_ keep-owner 'chown nobody:nogroup dst && chmod 640 dst' \
	'root:root 640 group::r-- other::--- user::rw- ' --preserve=ownership
case_ keep-owner-mode 'chown nobody:nogroup dst && chmod 640 dst' \
	'root:root 644 group::r-- other::r-- user::rw- ' -p

# A tree copied over a tree: the files replaced by the worker threads
# (spmove -r hands replacements to them; --parallel starts them at once
# for a tree this small) keep the same as one file does.
fresh tree
mkdir s d
for i in $(seq 1 60); do
	echo "new $i" >s/f$i
	echo "old old $i" >d/f$i
	chown nobody:nogroup d/f$i
	chmod 4750 d/f$i
	setfacl -m u:daemon:r d/f$i
done
want=$(look d/f1)
"$SPMOVE" -rT --parallel=3 s d
ok "tree: copied" test $? = 0
bad=0
for i in $(seq 1 60); do
	cmp -s s/f$i d/f$i && [ "$(look d/f$i)" = "$want" ] || bad=$((bad + 1))
done
check_eq "tree: files with the new data and the old owner, mode and ACL" 0 $bad
check_eq "tree: nothing left" "" "$(ls -A d | grep -v '^f[0-9]*$')"

# Root's files in directories of a tree: a workers' copy that replaces a
# file of root's in root's directory needs no chown (a new file is born
# root's), but in a set-group-ID directory of another group, or one of
# another user, it does: each keeps its old owner and group.
fresh tree-own
mkdir -p s/own s/sgid s/other d/own d/sgid d/other
for sub in own sgid other; do
	for i in $(seq 1 20); do
		echo "new $i" >s/$sub/f$i
		echo "old $i" >d/$sub/f$i
	done
done
chgrp nogroup d/sgid
chmod 2777 d/sgid
chown nobody d/other
chmod 1777 d/other
"$SPMOVE" -rT --parallel=3 s d
ok "tree, root's files: copied" test $? = 0
for sub in own sgid other; do
	check_eq "tree, root's files in $sub: new data, root:root 644" \
		"$(for i in $(seq 1 20); do echo "new $i root:root 644"; done)" \
		"$(for i in $(seq 1 20); do echo "$(cat d/$sub/f$i) $(stat -c '%U:%G %a' d/$sub/f$i)"; done)"
done
done_testing
