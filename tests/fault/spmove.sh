#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The fault-injection matrix for spmove (see tests/fault/matrix.sh): a copy
# over an old destination by every method, from standard input, several
# sources into a directory, --fsync, and --remove-source on one filesystem
# (rename) and across two (copy, fsync, unlink).  After a failure the old
# destination is intact (or the new one complete), the source is whole, and
# no temporary file is left.
. "$top_srcdir/tests/fault/matrix.sh"
BIN=$(real_bin spmove)

make_random "$T_DIR/src" 300000
make_random "$T_DIR/src2" 70000
printf 'the old destination\n' >"$T_DIR/old"

# only FILE...: the directory holds exactly these names (no temporary file).
only() {
	local have want
	have=$(ls -A | grep -vx -e err -e want -e rc | sort | tr '\n' ' ')
	want=$( [ $# -eq 0 ] || printf '%s\n' "$@" | sort | tr '\n' ' ')
	[ "$have" = "$want" ] && return 0
	echo "the directory holds [$have], expected [$want]"
	return 1
}
# old_or_new DST NEW: DST is the old destination or the whole new one.
old_or_new() {
	cmp -s "$T_DIR/old" "$1" || cmp -s "$2" "$1" && return 0
	echo "$1 is neither the old destination nor the new one"
	return 1
}

# A copy over an old destination, with each method in turn.
copy_setup() { cp "$T_DIR/src" "$T_DIR/old" .; mv old dst; }
copy_ok() { fm_same src dst && fm_same "$T_DIR/src" src && only src dst; }
copy_failed() { fm_same "$T_DIR/src" src && old_or_new dst src && only src dst; }
for method in auto splice vmsplice gift sendfile copy_file_range rw; do
	eval "copy_${method}_setup() { copy_setup; }
	copy_${method}_run() { \$FM_RUN \"\$BIN\" --method=$method src dst 2>err; FM_RC=\$?; }
	copy_${method}_ok() { copy_ok; }
	copy_${method}_failed() { copy_failed; }"
	case $method in
	sendfile) copy_sendfile_reaches=sendfile ;;
	vmsplice | gift) eval "copy_${method}_reaches=vmsplice" ;;
	esac
	fm_matrix spmove "copy_$method" "'?src'? -> '?dst'?|src|dst"
done

# --sparse=always from a file with a hole and a run of written zeros: the
# hole is found with lseek (SEEK_DATA, SEEK_HOLE), the zeros are punched out
# of the copy with fallocate.
sparse_setup() {
	head -c 100000 "$T_DIR/src" >src && head -c 1048576 /dev/zero >>src &&
		truncate -s +1M src && tail -c 100000 "$T_DIR/src" >>src &&
		cp src "$T_DIR/sparse" && cp "$T_DIR/old" dst
}
sparse_run() { $FM_RUN "$BIN" --sparse=always src dst 2>err; FM_RC=$?; }
sparse_ok() { fm_same "$T_DIR/sparse" dst && fm_same "$T_DIR/sparse" src && only src dst; }
sparse_failed() { fm_same "$T_DIR/sparse" src && old_or_new dst src && only src dst; }
sparse_reaches="lseek fallocate"
fm_matrix spmove sparse "'?src'? -> '?dst'?|src|dst"

# --fsync: the data and the rename are made durable.
fsync_setup() { copy_setup; }
fsync_run() { $FM_RUN "$BIN" --fsync src dst 2>err; FM_RC=$?; }
fsync_ok() { copy_ok; }
fsync_failed() { copy_failed; }
fm_matrix spmove fsync "'?src'? -> '?dst'?|src|dst"

# From a pipe on standard input.
stdin_setup() { copy_setup; }
stdin_run() { cat src | $FM_RUN "$BIN" - dst 2>err; FM_RC=$?; }
stdin_ok() { copy_ok; }
stdin_failed() { copy_failed; }
fm_matrix spmove stdin "'?-'? -> '?dst'?|-|standard input|dst"

# Two sources into a directory: each destination is old or new, whatever
# happened to the other.
many_setup() {
	cp "$T_DIR/src" "$T_DIR/src2" . && mkdir d && cp "$T_DIR/old" d/src &&
		cp "$T_DIR/old" d/src2
}
many_run() { $FM_RUN "$BIN" src src2 d 2>err; FM_RC=$?; }
many_ok() { fm_same src d/src && fm_same src2 d/src2 && (cd d && only src src2); }
many_failed() {
	old_or_new d/src src && old_or_new d/src2 src2 && (cd d && only src src2) &&
		fm_same "$T_DIR/src" src && fm_same "$T_DIR/src2" src2
}
fm_matrix spmove many "'?src2?'? -> '?d/src2?'?|src2?|d/src2?|d"

# --remove-source on one filesystem: a rename.
rename_setup() { copy_setup; }
rename_run() { $FM_RUN "$BIN" --remove-source src dst 2>err; FM_RC=$?; }
rename_ok() { fm_same "$T_DIR/src" dst && only dst; }
rename_failed() {
	if [ -e src ]; then
		fm_same "$T_DIR/src" src && old_or_new dst src && only src dst
	else
		fm_same "$T_DIR/src" dst && only dst
	fi
}
fm_matrix spmove rename "'?src'? -> '?dst'?|src|dst"

# --remove-source across filesystems: copy, fsync, unlink.  The second
# filesystem is /dev/shm when it is another one than the test directory's.
OTHER=
if [ -d /dev/shm ] && [ -w /dev/shm ] &&
	[ "$(stat -c %d /dev/shm)" != "$(stat -c %d "$T_DIR")" ]; then
	OTHER=$(mktemp -d /dev/shm/splice-utils-fault.XXXXXX) || exit 99
	at_exit 'rm -rf "$OTHER"'
fi
crossfs_setup() { cp "$T_DIR/src" .; rm -rf "$OTHER/d"; mkdir "$OTHER/d"; cp "$T_DIR/old" "$OTHER/d/dst"; }
crossfs_run() { $FM_RUN "$BIN" --remove-source src "$OTHER/d/dst" 2>err; FM_RC=$?; }
crossfs_ok() { fm_same "$T_DIR/src" "$OTHER/d/dst" && only && (cd "$OTHER/d" && only dst); }
crossfs_failed() {
	(cd "$OTHER/d" && only dst) || return 1
	if [ -e src ]; then
		fm_same "$T_DIR/src" src && old_or_new "$OTHER/d/dst" src
	else
		fm_same "$T_DIR/src" "$OTHER/d/dst"
	fi
}
if [ -n "$OTHER" ]; then
	fm_matrix spmove crossfs "'?src'? -> .*dst'?|src|$OTHER/d/dst|$OTHER/d"
else
	echo "# no second filesystem at /dev/shm: the cross-filesystem move is not played"
fi

fm_done
