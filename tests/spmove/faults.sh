# SPDX-License-Identifier: GPL-2.0-or-later
# spmove: failures injected with strace never lose data: the old DST stays,
# no temporary file remains, the exit status is 1; refusals fall back.
. "$top_srcdir/tests/lib.sh"
require_strace
# LeakSanitizer cannot run under ptrace: in a sanitizer build, leave leak
# checking to the other tests.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS

no_temp_left() { [ -z "$(find . -name '.spmove-*' | head -1)" ]; }

make_random a 3000000
printf 'old contents' >keep

# expect_failure DESC SPEC MESSAGE SPMOVE-ARGS...: injecting SPEC makes the
# copy of a onto d fail with "spmove: MESSAGE" (cp's words), leaving d's
# old contents.
expect_failure() {
	local desc=$1 spec=$2 msg=$3; shift 3
	cp keep d
	run_cmd out err inject "$spec" "$SPMOVE" "$@" a d
	check_eq "$desc: exit 1" 1 "$RC"
	check_eq "$desc: message" "spmove: $msg" "$(cat err)"
	same_files "$desc: old DST intact" keep d
	ok "$desc: no temporary file" no_temp_left
}

expect_failure "splice EIO on input" splice:error=EIO:when=3 "error reading 'a': Input/output error" --method=splice
expect_failure "splice EIO on output" splice:error=EIO:when=2 "error writing 'd': Input/output error" --method=splice
expect_failure "write ENOSPC" write:error=ENOSPC:when=3 \
	"error writing 'd': No space left on device" --method=rw
expect_failure "copy_file_range EIO" copy_file_range:error=EIO:when=1 \
	"error reading 'a': Input/output error"
expect_failure "vmsplice EFAULT" vmsplice:error=EFAULT:when=2 \
	"error reading 'a': Bad address" --method=vmsplice
expect_failure "fsync EIO" fsync:error=EIO:when=1 "cannot sync 'd': Input/output error" --fsync
expect_failure "rename EACCES" renameat:error=EACCES "cannot create regular file 'd': Permission denied"
# An attribute that cannot be kept fails the copy but, as in cp, the
# complete copy stays.
if [ "$(id -u)" = 0 ]; then
	cp keep d
	run_cmd out err inject fchown:error=EPERM "$SPMOVE" -p a d
	check_eq "fchown EPERM under -p (root): exit 1" 1 "$RC"
	check_eq "fchown EPERM under -p (root): message" \
		"spmove: failed to preserve ownership for 'd': Operation not permitted" "$(cat err)"
	same_files "fchown EPERM under -p (root): the complete copy" a d
	ok "fchown EPERM under -p (root): no temporary file" no_temp_left
fi

# A failed move never removes its source.
cp a src; cp keep d
run_cmd out err inject fsync:error=EIO:when=1 "$SPMOVE" --remove-source src "$PWD/d"
ok "moving: fsync failure keeps the source (same fs renames, so no fsync)" test -e d
cp a src; cp keep d
run_cmd out err inject renameat:error=EXDEV:when=1 "$STRACE" -qq -o /dev/null \
	-e trace=fsync -e inject=fsync:error=EIO:when=1 "$SPMOVE" --remove-source src d
check_eq "moving across (EXDEV) with fsync failing: exit 1" 1 "$RC"
same_files "moving across with fsync failing: source kept" a src
same_files "moving across with fsync failing: DST intact" keep d
cp keep d
run_cmd out err inject renameat:error=EXDEV:when=1 "$SPMOVE" --remove-source src d
check_eq "moving across (EXDEV): exit 0" 0 "$RC"
same_files "moving across (EXDEV): copied" a d
ok "moving across (EXDEV): source removed after the copy" test ! -e src

# Refusals before any byte moved fall back and still copy.
run_cmd out err inject copy_file_range:error=EXDEV:when=1 "$SPMOVE" --stats a f1
check_eq "copy_file_range EXDEV: exit 0" 0 "$RC"
same_files "copy_file_range EXDEV: copied" a f1
ok "copy_file_range EXDEV: took splice" grep -q "method auto (splice)" err
run_cmd out err inject splice:error=EINVAL:when=1 "$SPMOVE" --stats -M a f2
check_eq "splice EINVAL: exit 0" 0 "$RC"
same_files "splice EINVAL: copied" a f2
ok "splice EINVAL: fell back to read/write" grep -q "1 fallbacks.*(rw)" err
run_cmd out err inject vmsplice:error=EINVAL:when=1 "$SPMOVE" --stats --method=gift a f3
check_eq "gift refused (EINVAL): exit 0" 0 "$RC"
same_files "gift refused: copied" a f3
ok "gift refused: took splice" grep -q "method gift (splice)" err
run_cmd out err inject sendfile:error=ENOSYS:when=1 "$SPMOVE" --method=sendfile a f4
same_files "sendfile refused: copied" a f4
ok "no temporary file after all this" no_temp_left

done_testing
