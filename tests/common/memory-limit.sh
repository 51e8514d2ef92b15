#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Under a tight address-space limit (ulimit -v), swept from below where the
# tools can start to well above: memory the copy cannot have is said as GNU
# says it ("memory exhausted"), never blamed on the input or an output;
# and sptee -a, whose files splice refuses, writes them with a smaller
# buffer rather than dropping them (GNU tee writes them through 8 KiB).
. "$top_srcdir/tests/lib.sh"

command -v prlimit >/dev/null 2>&1 || skip "prlimit is not installed"
# A sanitizer build reserves terabytes of address space: no limit fits it.
prlimit --as=$((256 * 1024 * 1024)) "$SPCAT" --version >/dev/null 2>&1 ||
	skip "the tools do not run under a 256 MiB address-space limit (sanitizers?)"

make_random in 3000000
TEE=$(gnu tee)

# limited KIB CMD...: CMD under an address-space limit of KIB KiB.
limited() {
	local kib=$1; shift
	prlimit --as=$((kib * 1024)) "$@"
}

blamed=0 exhausted=0 dropped=0 tee_written=0 tee_whole=0 gnu_whole=0 sptee_exhausted=0
kib=1024
while [ $kib -le 8192 ]; do
	# spcat: the read/write path, whose buffer the library allocates.
	limited $kib "$SPCAT" --no-splice in >out 2>err
	grep -q "^spcat: in: Cannot allocate memory" err && blamed=$((blamed + 1))
	grep -qx "spcat: memory exhausted" err && exhausted=$((exhausted + 1))

	# sptee -a: the file is O_APPEND, so it is written from a buffer.
	rm -f t1 g1
	limited $kib "$SPTEE" -a t1 <in >tout 2>terr
	if [ -e t1 ]; then
		tee_written=$((tee_written + 1))
		if cmp -s in t1; then
			tee_whole=$((tee_whole + 1))
		elif [ "$(cat terr)" = "sptee: memory exhausted" ]; then
			sptee_exhausted=$((sptee_exhausted + 1))
		else
			dropped=$((dropped + 1))
			echo "# at $kib KiB sptee -a left t1 short: $(cat terr)"
		fi
	fi
	limited $kib "$TEE" -a g1 <in >/dev/null 2>/dev/null && cmp -s in g1 &&
		gnu_whole=$((gnu_whole + 1))
	kib=$((kib + 64))
done
echo "# spcat: $exhausted runs said memory exhausted, $blamed blamed the input"
echo "# sptee -a: opened its file in $tee_written runs, wrote it whole in $tee_whole," \
	"dropped it in $dropped; GNU tee wrote it whole in $gnu_whole"

check_eq "spcat: a memory failure never blamed on the input" 0 "$blamed"
ok "spcat: the sweep reached a memory failure, said as cat says it" test "$exhausted" -gt 0
check_eq "sptee -a: a file it opened is never dropped for want of memory" 0 "$dropped"
ok "sptee -a: the sweep reached limits where it writes the file" test "$tee_whole" -gt 0
ok "sptee -a: it writes the file under every limit GNU tee does, but a few near the start" \
	test "$tee_whole" -ge $((gnu_whole - 4))
done_testing
