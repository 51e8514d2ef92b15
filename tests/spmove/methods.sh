# SPDX-License-Identifier: GPL-2.0-or-later
# spmove --method, -M and --probe.
. "$top_srcdir/tests/lib.sh"

# note_verdict KEY PATH: what --probe must report for the method of the copy
# just made (RC, stats in err): "works" when it ran on PATH (any path for
# auto) without a fallback, "falls back" when it copied another way, "fails"
# when it failed; and whether any of its bytes went through the kernel.
note_verdict() {
	if [ "$RC" != 0 ]; then
		echo fails
	elif grep -q "method [^ ]* ($2)" err && grep -q " 0 fallbacks," err; then
		echo works
	else
		echo "falls back"
	fi > "verdict.$1"
	if grep -q " 0\.0% in kernel" err; then echo "0%"; else echo "[1-9][0-9]*%"; fi > "spliced.$1"
}

make_random a 2500001
for m in auto splice vmsplice gift rw copy_file_range sendfile; do
	run_cmd out err "$SPMOVE" --stats --method="$m" a "b.$m"
	check_eq "--method=$m: exit 0" 0 "$RC"
	same_files "--method=$m: same bytes" a "b.$m"
	[ "$m" = auto ] && want=copy_file_range || want=$m
	ok "--method=$m: took its path" grep -q "method $m ($want)" err
	[ "$m" = auto ] && path='[a-z_]*' || path=$m
	note_verdict "$m" "$path"
	cp err "err.$m"
	run_cmd out err "$SPMOVE" -M --stats --method="$m" a "c.$m"
	same_files "--method=$m -M: same bytes" a "c.$m"
	note_verdict "$m-M" "$path"
	cat a | "$SPMOVE" -M --stats --method="$m" - "d.$m" 2>err
	same_files "--method=$m from a pipe: same bytes" a "d.$m"
	[ "$m" = rw ] && want=rw || want=splice
	ok "--method=$m from a pipe: $want" grep -q "($want)" err
done
run_cmd out err "$SPMOVE" --stats --method=gift a g
ok "gift: counted as copied" grep -q "0.0% in kernel" err

# --probe measures and reports every method.
run_cmd out err "$SPMOVE" --probe .
check_eq "--probe: exit 0" 0 "$RC"
# Each verdict is what a real copy with that method did above, not what the
# probe's own evidence says.
for m in auto splice vmsplice gift rw copy_file_range sendfile "splice -M" "gift -M"; do
	key=$(printf "%s" "$m" | tr -d " ")
	want=$(cat "verdict.$key") spliced=$(cat "spliced.$key")
	ok "--probe reports $m as a copy with it did: $want, $spliced spliced" \
		grep -Eq "^$m +$want( .*)? +$spliced\$" out
done
ok "--probe: auto names the path a copy took" \
	grep -Eq "^auto +works \(uses $(sed -n 's/.*method auto (\([a-z_]*\)).*/\1/p' err.auto)\)" out
ok "--probe: vmsplice measured" grep -Eq "vmsplice of user memory +(shared|copied)" out
ok "--probe: gift measured" grep -Eq "SPLICE_F_GIFT +(shared|copied|refused)" out
ok "--probe: page-cache move measured" grep -Eq "page-cache pages with -M +(copied|moved)" out
if [ -d /sys/fs/stealfs/stats ]; then
	ok "--probe: anonymous pages counted" grep -Eq "write\(2\) pipe pages with -M .*stealfs: [0-9]+ of [0-9]+ moved" out
else
	ok "--probe: anonymous pages cannot be told" grep -Eq "write\(2\) pipe pages with -M +cannot tell \(" out
fi
ok "--probe: a SPLICED percent for each method, no \"zero-copy\" for a count of calls" \
	sh -c 'grep -Eq "^auto +works.* [0-9]+%\$" out && ! grep -q zero-copy out' 
run_cmd json err "$SPMOVE" --probe --json .
ok "--probe --json: valid JSON" python3 -m json.tool json
ok "--probe leaves nothing behind" test -z "$(find . -name '.spmove-probe-*')"
run_cmd out err "$SPMOVE" --probe nowhere
check_eq "--probe of a missing directory: exit 1" 1 "$RC"
check_eq "--probe of a missing directory: message" \
	"spmove: 'nowhere': No such file or directory" "$(cat err)"

done_testing
