# SPDX-License-Identifier: GPL-2.0-or-later
# The host part of make kernel-truth, small: the guest script's measurements
# (spmove --probe --json on a tmpfs and two runs of each timed move; not
# acctpin, whose accounting file is system-wide and tests/acctpin's) on the
# running kernel, assembled: the JSON follows the schema and every verdict
# agrees with its raw measurement.
. "$top_srcdir/tests/lib.sh"

require_root
python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema is not installed"
REPORT="$top_srcdir/contrib/kernel-truth/kt-report.py"
mkdir fs
mount -t tmpfs -o size=64m none fs || skip "cannot mount a tmpfs"
at_exit "umount '$T_DIR/fs'"
max=$(cat /proc/sys/fs/pipe-max-size)
PATH="$top_builddir/contrib/kernel-truth:$top_builddir/src/spmove:$top_builddir/src/acctpin:$PATH" \
	sh "$top_srcdir/contrib/stealfs/tests/kt-guest.sh" probe 2 4 tmpfs="$T_DIR/fs" > host.1.rec 2> err
ok "the measurements ran without errors" test ! -s err
ok "the probe's record is there" grep -q '^probe tmpfs {' host.1.rec
ok "two runs of each side of each comparison" test "$(grep -c '^bench ' host.1.rec)" = 8
ok "assembled" python3 "$REPORT" assemble kt.json host.1.rec
ok "the JSON follows the schema" \
	python3 "$REPORT" validate kt.json "$top_srcdir/contrib/kernel-truth/kernel-truth.schema.json"
ok "every verdict agrees with its raw measurement" python3 "$REPORT" check kt.json
check_eq "frame numbers read as root: file -> pipe -> tmpfs answered by frames" "16" \
	"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["kernels"][0]["questions"]["pipe_to_file"]["tmpfs"]["page_cache_with_move"]["raw"]["frames_checked"])' kt.json)"
check_eq "pipe-max-size is put back" "$max" "$(cat /proc/sys/fs/pipe-max-size)"

done_testing
