# SPDX-License-Identifier: GPL-2.0-or-later
# A new tree (spmove -r SRC NEW) is made under a temporary name beside NEW
# and shown by one rename(2) once complete: while the copy runs NEW does
# not exist; after it, nothing temporary is left; a signal shows what is
# complete; SIGKILL leaves NEW absent; a name taken meanwhile fails the
# copy as cp's mkdir(2) would and removes the hidden copy; a copy into
# itself says what cp says.  The run is held by strace on entry to a
# copy_file_range(2) (a pause of HIDDEN_HOLD seconds, default 5, in
# which the checks are made; they take milliseconds).  With
# --copy-contents, which may wait for a FIFO's writer, the tree is made
# under its name (coreutils' cp/parent-perm-race.sh feeds a FIFO and
# looks at the tree meanwhile).
. "$top_srcdir/tests/lib.sh"
require_strace
SPMOVE=$(real_bin spmove)
use_built_library
GNU_CP=$(gnu cp)

# The source: files of several sizes, a subdirectory, a hard link.
mkdir src src/sub
i=0
while [ $i -lt 60 ]; do
	make_random "src/f$i" $((i * 1031 % 40000))
	i=$((i + 1))
done
make_random src/sub/deep 100000
ln src/f7 src/sub/hard
chmod 0750 src/sub

no_temp_left() { [ -z "$(find . -maxdepth 3 -name '.spmove-*' | head -1)" ]; }
# complete_in A B: every regular file under B is the one of that name under A.
complete_in() {
	[ -z "$(cd "$2" && find . -type f ! -exec cmp -s "$1/{}" {} \; -print)" ]
}
# hold NEW LABEL: spmove -r src NEW started under strace (tracer: its
# pid), checked to be held: a thread of it stopped on entry to its third
# copy_file_range(2), for HIDDEN_HOLD seconds.
hold() {
	traced -f -o /dev/null -e trace=copy_file_range \
		-e inject=copy_file_range:delay_enter=$((${HIDDEN_HOLD:-5} * 1000000)):when=3 \
		"$SPMOVE" -r src "$1" >out 2>err &
	tracer=$!
	pid=$(held_pid $tracer 326)
	ok "$2: held in a copy" test -n "$pid"
}
# finish LABEL STATUS: the held run's end, with that exit status (the
# tracer's: strace ends as spmove did).
finish() {
	local rc
	wait $tracer
	rc=$?
	check_eq "$1: exit $2" "$2" "$rc"
}
# stop_with SIGNAL LABEL: the held run sent SIGNAL, checked to die of it.
stop_with() {
	kill -"$1" $pid
	finish "$2" $((128 + $(kill -l "$1")))
}

# The whole copy, as cp -r's.
run_cmd out err "$SPMOVE" -r src dst
check_eq "copy: exit 0" 0 "$RC"
check_eq "copy: silent" "" "$(cat out err)"
"$GNU_CP" -r src ref
ok "copy: the tree is cp -r's" sh -c \
	'[ "$(cd ref && find . -printf "%P %y %m %s\n" | sort)" = "$(cd dst && find . -printf "%P %y %m %s\n" | sort)" ]'
ok "copy: every file complete" complete_in "$T_DIR/src" dst
ok "copy: nothing temporary left" no_temp_left

# The calls: a temporary directory, every file made under its name (no
# unnamed file, no link), one rename that replaces nothing.
run_cmd out err traced -f -o trace -e trace=mkdirat,openat,linkat,renameat,renameat2 \
	"$SPMOVE" -r src dst2
check_eq "calls: exit 0" 0 "$RC"
check_eq "calls: the top made under a temporary name" 1 \
	"$(grep -c 'mkdirat(AT_FDCWD, "\.spmove-[0-9a-f]*"' trace)"
check_eq "calls: no unnamed file" 0 "$(grep -c O_TMPFILE trace)"
check_eq "calls: no link" 0 "$(grep -c 'linkat(' trace)"
check_eq "calls: one rename, which replaces nothing" 1 \
	"$(grep -c 'renameat2(AT_FDCWD, "\.spmove-[0-9a-f]*", AT_FDCWD, "dst2", RENAME_NOREPLACE) = 0' trace)"
# Into a directory that is there, and with --fsync, the files are unnamed
# until complete, as before.
mkdir there
run_cmd out err traced -f -o trace -e trace=openat,renameat2 "$SPMOVE" -rT src there
check_eq "into a directory that is there: exit 0" 0 "$RC"
ok "into a directory that is there: unnamed files" grep -q O_TMPFILE trace
check_eq "into a directory that is there: no rename" 0 "$(grep -c RENAME_NOREPLACE trace)"
run_cmd out err traced -f -o trace -e trace=openat,renameat2 "$SPMOVE" -r --fsync src synced
check_eq "--fsync: exit 0" 0 "$RC"
ok "--fsync: unnamed files" grep -q O_TMPFILE trace
check_eq "--fsync: no rename" 0 "$(grep -c RENAME_NOREPLACE trace)"

# -a: the hard link inside the new tree is made to the earlier copy,
# named under the temporary name until the tree is shown.
run_cmd out err "$SPMOVE" -a src dst-a
check_eq "-a: exit 0" 0 "$RC"
check_eq "-a: the hard link is kept" "$(stat -c %i dst-a/f7)" "$(stat -c %i dst-a/sub/hard)"
check_eq "-a: the directory's mode" 750 "$(stat -c %a dst-a/sub)"

# Held: NEW is not there, the hidden tree is; once let go the copy ends,
# shown whole.
hold held held
ok "held: the new tree is not shown" test ! -e held
ok "held: a temporary directory stands in for it" sh -c 'ls -d .spmove-* >/dev/null 2>&1'
finish held 0
ok "held: every name there" sh -c \
	'[ "$(cd src && find . | sort)" = "$(cd held && find . | sort)" ]'
ok "held: every file complete" complete_in "$T_DIR/src" held
ok "held: nothing temporary left" no_temp_left

# SIGTERM while held (SIGINT: a background job of a script ignores it):
# the run stops, and the tree shows what is complete, as cp leaves what it
# copied; nothing temporary is left.
hold term SIGTERM
stop_with TERM SIGTERM
ok "SIGTERM: the tree is shown" test -d term
ok "SIGTERM: every file there is complete" complete_in "$T_DIR/src" term
ok "SIGTERM: nothing temporary left" no_temp_left

# SIGKILL while held: nothing can be done then; NEW is never a partial
# tree (its temporary directory is left beside it).
hold killed SIGKILL
stop_with KILL SIGKILL
ok "SIGKILL: no tree under the name" test ! -e killed
rm -rf .spmove-*

# The name taken by another process while held: the copy fails as cp's
# mkdir would have, the other directory is left as it is, and the hidden
# copy is removed.
hold taken taken
mkdir taken
finish taken 1
check_eq "taken: cp's message" "spmove: cannot create directory 'taken': File exists" "$(cat err)"
check_eq "taken: the other directory left empty" "" "$(ls -A taken)"
ok "taken: nothing temporary left" no_temp_left

# --copy-contents: the tree is made under its name (a FIFO's writer may
# be waiting to see it), each file unnamed until complete.
mkfifo src/sub/zfifo
"$SPMOVE" -r --copy-contents src fed >out 2>err &
pid=$!
n=0
while [ ! -d fed/sub ] && [ $n -lt 400 ]; do sleep 0.05; n=$((n + 1)); done
ok "--copy-contents: the tree is there while the FIFO is read" test -d fed/sub
echo fifo-data >src/sub/zfifo
wait $pid
check_eq "--copy-contents: exit 0" 0 "$?"
check_eq "--copy-contents: the FIFO's data copied" fifo-data "$(cat fed/sub/zfifo)"
ok "--copy-contents: nothing temporary left" no_temp_left
rm src/sub/zfifo

# A copy into itself: what GNU cp says, and nothing temporary left (each
# on a tree of its own; how much is copied before the copy meets itself
# follows the directory's order, for both).
mkdir -p gself/a self/a
make_random self/a/x 1000
cp self/a/x gself/a/x
run_cmd gout gerr "$GNU_CP" -r gself gself/a/in
grc=$RC
run_cmd out err "$SPMOVE" -r self self/a/in
check_eq "into itself: GNU's status" "$grc" "$RC"
check_eq "into itself: GNU's message" "$(sed "s#'gself#'self#g" gerr | as_cp cp)" \
	"$(as_cp spmove <err)"
ok "into itself: the copy is shown" test -d self/a/in
ok "into itself: nothing temporary left" sh -c '[ -z "$(find self -name ".spmove-*")" ]'

# A file whose copy fails inside the new tree: no partial file under its
# name once the tree is shown, the others complete.
rm -rf failed
run_cmd out err inject "copy_file_range:error=EIO:when=5" "$SPMOVE" -r src failed
check_eq "a failed file: exit 1" 1 "$RC"
ok "a failed file: reported" grep -q 'Input/output error' err
ok "a failed file: every file there is complete" complete_in "$T_DIR/src" failed
ok "a failed file: some left out" test "$(find failed -type f | wc -l)" -lt "$(find src -type f | wc -l)"
ok "a failed file: nothing temporary left" no_temp_left

done_testing
