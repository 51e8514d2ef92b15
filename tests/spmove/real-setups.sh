#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# spcp and spmv in the setups real machines have, side by side with GNU cp
# 9.11 and the system's mv: a tree holding a setgid project directory, a
# sticky /tmp-like directory, a directory with a default ACL, a hard-linked
# config file and a file owned by another user, copied with -r and -a into
# new directories and over an existing tree (whose hosts file is bind
# mounted, whose config has a second link, whose files belong to another
# user), and moved within and across file systems.  Every resulting name
# must have the same type, mode, owner, group, link count, size, data and
# ACL as GNU's (and with -a, mtime) (issue 35).  Root: owners and mounts.
[ -n "${BASH_VERSION-}" ] || exec bash "$0" "$@"
. "$top_srcdir/tests/lib.sh"
require_root
LC_ALL=C
export LC_ALL
GNU_CP=$(gnu cp)
GNU_MV=$(command -v mv)
[ -x "$GNU_CP" ] || skip "no GNU cp to compare with"
command -v getfacl >/dev/null && command -v setfacl >/dev/null || skip "no getfacl/setfacl"
chmod 755 "$T_DIR"
umask 022
other=nobody group=nogroup

# make_source DIR: the tree of setups.
make_source() {
	mkdir -p "$1" && cd "$1" || return 1
	mkdir -m 2775 project && chgrp "$group" project
	mkdir project/src && echo 'int main;' >project/src/main.c
	mkdir -m 1777 tmp && echo scratch >tmp/scratch && chown "$other" tmp/scratch
	mkdir shared && setfacl -m d:o::---,d:g::rwx shared && mkdir shared/sub &&
		echo doc >shared/doc && setfacl -m u:"$other":r shared/doc
	mkdir etc && echo 'key=new' >etc/app.conf && ln etc/app.conf etc/app.conf.bak
	echo hosts-new >etc/hosts
	echo theirs >etc/theirs && chown "$other:$group" etc/theirs && chmod 640 etc/theirs
	# One time for all, so that the trees of two runs compare.
	find . -depth -exec touch -h -d @1700000000 {} +
	cd - >/dev/null
}

# make_existing DIR: a tree the copy goes over: its etc/hosts bind mounted
# from DIR.hosts (docker's way), etc/app.conf linked from DIR.link, files
# of another user.
make_existing() {
	mkdir -p "$1/etc" "$1/project" || return 1
	echo 'key=old' >"$1/etc/app.conf" && ln "$1/etc/app.conf" "$1.link"
	echo hosts-old >"$1/etc/hosts" && echo mounted-old >"$1.hosts"
	mount --bind "$1.hosts" "$1/etc/hosts" || return 1
	echo old-theirs >"$1/etc/theirs" && chown "$other:$group" "$1/etc/theirs" &&
		chmod 666 "$1/etc/theirs"
	chmod 2775 "$1/project" && chgrp "$group" "$1/project"
}

# listing DIR [times]: one line per name below DIR.
listing() {
	(cd "$1" && find . -mindepth 1 | sort | while read -r f; do
		printf '%s %s\n' "$(stat -c "%n %F %a %U %G %h %s${2:+ %Y}" "$f")" \
			"$( [ -f "$f" ] && md5sum <"$f" | cut -c1-8) $(getfacl -cpE "$f" 2>/dev/null |
			grep -v '^$' | tr '\n' ' ')"
	done)
}

# run TOOL-CP TOOL-CP-A TOOL-MV WHERE: every case in WHERE (cp -a by
# TOOL-CP-A); prints the listings.
run() {
	local cp=$1 cpa=$2 mv=$3 w=$4
	make_source "$w/src" || return 1
	"$cp" -r "$w/src" "$w/r" || echo "cp -r: $?"
	"$cpa" -a "$w/src" "$w/a" || echo "cp -a: $?"
	echo "== cp -r"; listing "$w/r"
	echo "== cp -a"; listing "$w/a" times
	make_existing "$w/over" || return 1
	"$cp" -r "$w/src/." "$w/over" || echo "cp -r over: $?"
	echo "== cp -r over an existing tree"; listing "$w/over"
	echo "bind source: $(cat "$w/over.hosts"); other link: $(cat "$w/over.link")"
	umount "$w/over/etc/hosts"
	make_existing "$w/over-a" || return 1
	"$cpa" -a "$w/src/." "$w/over-a" || echo "cp -a over: $?"
	echo "== cp -a over an existing tree"; listing "$w/over-a"
	echo "bind source: $(cat "$w/over-a.hosts"); other link: $(cat "$w/over-a.link")"
	umount "$w/over-a/etc/hosts"
	cp -a "$w/src" "$w/m1"
	"$mv" "$w/m1" "$w/moved" || echo "mv: $?"
	echo "== mv"; listing "$w/moved" times
	cp -a "$w/src" "$w/m2"
	"$mv" "$w/m2" "$w/fs/moved" || echo "mv across: $?"
	echo "== mv across file systems"; listing "$w/fs/moved" times
}

prepare() {
	mkdir -p "$1/fs" && mount -t tmpfs -o mode=755 setups "$1/fs" || skip "no tmpfs mount"
	at_exit "umount '$T_DIR/$1/fs'"
}
# A GNU cp built without ACL support keeps none with -a: then the system's
# cp (with it) is the one -a is compared with.
GNU_CP_A=$GNU_CP
: >acl-probe
setfacl -m u:"$other":r acl-probe || skip "no ACLs here"
"$GNU_CP" -a acl-probe acl-copy
if ! getfacl -cp acl-copy 2>/dev/null | grep -q "user:$other:"; then
	GNU_CP_A=$(command -v cp)
	echo "# $GNU_CP keeps no ACL: cp -a compared with $GNU_CP_A ($("$GNU_CP_A" --version | head -n 1))"
fi
mkdir ours theirs
prepare ours/w && prepare theirs/w

# Both trees have the same names, so that the listings compare.
ours=$(cd ours && run "$SPCP" "$SPCP" "$SPMV" w 2>&1)
theirs=$(cd theirs && run "$GNU_CP" "$GNU_CP_A" "$GNU_MV" w 2>&1)
echo "$ours"
check_eq "every case listed" 6 "$(echo "$ours" | grep -c '^\./etc/app.conf ')"
for part in "cp -r" "cp -a" "cp -r over an existing tree" "cp -a over an existing tree" \
	"mv" "mv across file systems"; do
	check_eq "$part: as GNU" "$(echo "$theirs" | sed -n "/^== $part\$/,/^== /p")" \
		"$(echo "$ours" | sed -n "/^== $part\$/,/^== /p")"
done
check_eq "everything as GNU (statuses, the bind mount's file, the other link)" "$theirs" "$ours"
done_testing
