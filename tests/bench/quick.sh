#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/bench/bench --quick: one run of every default case with tiny
# inputs; the CSV has one row per case and contender with the documented
# columns, the JSON parses and holds the machine header and the same rows,
# each case has exactly one of our tools, and the Markdown table and (with
# gnuplot) the picture are written.  Times are not checked.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
command -v python3 >/dev/null || skip "no python3"
command -v jq >/dev/null || skip "no jq"

BENCH="$top_srcdir/contrib/bench/bench"
ok "the quick run succeeds" python3 "$BENCH" --quick --warm-mib 16 --out "$T_DIR/out"
cd "$T_DIR/out" || exit 99

check_eq "CSV header" "case,title,fs,tool,ours,runs,median_s,min_s,max_s,peak_rss_kib,speedup,mib_s,ws_resident_pct,ws_resident_min,ws_resident_max,files,us_per_file" \
	"$(head -n 1 bench.csv)"
cases="cat-splice cat-read cat-small cat-file cat-socket cat-n cat-A tee-files tee-null cat-start tee-start cp-start cp-r-start cp-big-tmpfs cp-tree20-tmpfs cp-tree50-tmpfs cp-files100-tmpfs cp-files1000-tmpfs cp-overwrite-tmpfs cp-overwrite-changed-tmpfs"
check_eq "CSV cases, in order" "$(echo $cases)" \
	"$(tail -n +2 bench.csv | cut -d, -f1 | uniq | tr '\n' ' ' | sed 's/ $//')"
check_eq "JSON and CSV have the same rows" "$(($(wc -l <bench.csv) - 1))" \
	"$(jq '.results | length' bench.json)"
ok "JSON header: kernel, CPUs, pipe-max-size, Meltdown's mitigation, every tool's version" \
	jq -e '.machine | (.kernel | length > 0) and .cpus >= 1 and (.pipe_max_size | type == "number")
		and (.meltdown | length > 0)
		and (.tools.spcat | length > 0) and (.tools.sptee | length > 0)
		and (.tools.spmove | length > 0)' bench.json
ok "JSON rows: median within the spread, a peak RSS, runs" \
	jq -e 'all(.results[]; .min_s <= .median_s and .median_s <= .max_s
		and .peak_rss_kib > 0 and .runs == 1)' bench.json
ok "JSON: exactly one of ours per case, its ratio 1" \
	jq -e '([.results[].case] | unique | length) as $cases
		| [.results[] | select(.ours)] | length == $cases and all(.[]; .speedup == 1)' bench.json
ok "JSON: every peer has a ratio" \
	jq -e 'all(.results[] | select(.ours | not); .speedup > 0)' bench.json
# GNU cat, never built with the sanitizers, is a few MiB; the benchmark
# itself (python) is larger.
ok "peak RSS is the tool's, not the benchmark's (under 8 MiB for GNU cat)" \
	jq -e '[.results[] | select(.tool | startswith("GNU cat"))]
		| length > 0 and all(.[]; .peak_rss_kib < 8192)' bench.json
ok "the ceilings run beside the tools: the raw splice loop in the three cases into pipes, its relay into the large file's two, the raw tree copiers in the tree, trees by size and overwrite cases" \
	jq -e '[.results[] | select(.tool == "raw splice loop") | .case] == ["cat-splice", "cat-read", "cat-small"]
		and [.results[] | select(.tool == "raw splice relay") | .case] == ["cat-splice", "cat-read"]
		and [.results[] | select(.tool | startswith("raw tree copier")) | .case]
			== ["cp-tree20-tmpfs", "cp-tree20-tmpfs", "cp-tree50-tmpfs", "cp-tree50-tmpfs",
			    "cp-files100-tmpfs", "cp-files100-tmpfs", "cp-files1000-tmpfs",
			    "cp-files1000-tmpfs", "cp-overwrite-tmpfs", "cp-overwrite-tmpfs",
			    "cp-overwrite-changed-tmpfs", "cp-overwrite-changed-tmpfs"]' bench.json
# The ceilings are yardsticks only if they do the whole job.
# A tree: files at the top, in a subdirectory, two levels down, and an
# empty directory.
mkdir -p "$T_DIR/tree/sub/deeper" "$T_DIR/tree/empty" &&
	for i in 1 2 3 4 5 6 7 8 9; do
		head -c $((i * 1000)) /dev/urandom > "$T_DIR/tree/f$i"
		head -c $((i * 700)) /dev/urandom > "$T_DIR/tree/sub/g$i"
	done && echo deep > "$T_DIR/tree/sub/deeper/h"
for how in "" -n -u; do
	ok "rawtree ${how:-alone} copies every file of a tree, intact" sh -c \
		'"$1/contrib/bench/rawtree" -r $3 "$2/tree" "$2/copy$3" 2 && diff -r "$2/tree" "$2/copy$3"' \
		- "$top_builddir" "$T_DIR" "$how"
done
ok "rawtree leaves no temporary directory" test ! -e "$T_DIR/.rawtree-top"
# Over an existing tree (-T): replaced through temporaries, with -s after
# a syncfs, or written in place with -n; nothing else left there.
for how in "" -s -n; do
	cp -r "$T_DIR/tree" "$T_DIR/over$how" &&
		find "$T_DIR/over$how" -type f -exec sh -c 'echo old > "$1"' - {} \;
	ok "rawtree -T ${how:-alone} replaces every file of a tree, intact" sh -c \
		'"$1/contrib/bench/rawtree" -rT $3 "$2/tree" "$2/over$3" 2 && diff -r "$2/tree" "$2/over$3"' \
		- "$top_builddir" "$T_DIR" "$how"
done
# A top that holds directories only: the syncfs of -s is made through
# the top's descriptor all the same.
mkdir "$T_DIR/dirsonly" && cp -r "$T_DIR/tree/sub" "$T_DIR/dirsonly/" &&
	cp -r "$T_DIR/dirsonly" "$T_DIR/overdirs" && echo old > "$T_DIR/overdirs/sub/g1"
ok "rawtree -T -s replaces a tree with no file at its top" sh -c \
	'"$1/contrib/bench/rawtree" -rT -s "$2/dirsonly" "$2/overdirs" 2 && diff -r "$2/dirsonly" "$2/overdirs"' \
	- "$top_builddir" "$T_DIR"
cat "$T_DIR"/tree/f* > "$T_DIR/all"
for how in "" -r; do
	ok "rawsplice ${how:-without -r} splices every file given, in order" sh -c \
		'"$1/contrib/bench/rawsplice" $3 "$2"/tree/f* | cmp - "$2/all"' - "$top_builddir" "$T_DIR" "$how"
done
ok "the trees by size give the time per file" \
	jq -e '[.results[] | select(.files)] | ([.[].case] | unique) == ["cp-files100-tmpfs", "cp-files1000-tmpfs"]
		and all(.[]; .us_per_file > 0 and .files >= 100)' bench.json
ok "the Markdown tables have a row per result" \
	test "$(($(grep -c '^| ' bench.md) - $(grep -c '^| \(case\|tree\|tool\) |' bench.md)))" \
		-eq "$(jq '.results | length' bench.json)"
# The memory warm-up: what was asked at most, recorded in both headers;
# warmmem stops at the size, the time or the memory reserve it is given.
ok "the warm-up touched at most what was asked (16 MiB) and says why it stopped" \
	jq -e '.machine.warm | .asked_mib == 16 and .mib <= 16 and (.stopped == "done") == (.mib == 16)
		and (.stopped == "done" or .stopped == "memory")' bench.json
ok "bench.md says what the warm-up did" grep -q "Memory warm-up before the first round: [0-9]* MiB touched and freed" bench.md
WARMMEM="$top_builddir/contrib/bench/warmmem"
check_eq "warmmem: all of a small size" "8 done" "$("$WARMMEM" 8 600 0 | cut -d' ' -f1,3)"
check_eq "warmmem: nothing with no time" "0 time" "$("$WARMMEM" 8 0 0 | cut -d' ' -f1,3)"
check_eq "warmmem: nothing below its memory reserve" "0 memory" \
	"$("$WARMMEM" 8 600 999999999 | cut -d' ' -f1,3)"

# rsync, a peer in the tree and overwrite cases (with --fsync where it has
# it), and nowhere else; each row keeps its command, which is replayed
# here to see that it does the whole job.
if command -v rsync >/dev/null; then
	tree_cases='["cp-tree20-tmpfs","cp-tree50-tmpfs","cp-files100-tmpfs","cp-files1000-tmpfs","cp-overwrite-tmpfs","cp-overwrite-changed-tmpfs"]'
	ok "rsync runs in the tree, trees-by-size and overwrite cases, and only there" \
		jq -e --argjson want "$tree_cases" '[.results[] | select(.tool == "rsync") | .case] == $want' bench.json
	if rsync --help | grep -q -e --fsync; then
		ok "rsync --fsync too" \
			jq -e --argjson want "$tree_cases" \
			'[.results[] | select(.tool == "rsync --fsync") | .case] == $want' bench.json
	fi
	# The command of a row without its last two operands (source, target).
	options() {
		jq -r --arg c "$1" --arg t "$2" \
			'.results[] | select(.case == $c and .tool == $t) | .argv[:-2][]' bench.json
	}
	mkdir src && for i in 1 2 3 4 5; do head -c $((i * 700)) /dev/urandom > src/f$i; done
	mkdir src/sub && head -c 3000 /dev/urandom > src/sub/g
	# What the overwrite finds: the same names, sizes and times as the
	# source, other bytes (rsync's quick check calls such a file up to date).
	cp -a src old
	for f in f1 f2 f3 f4 f5 sub/g; do
		head -c "$(wc -c < src/$f)" /dev/zero > old/$f && touch -r src/$f old/$f
	done
	cp -a old dst
	find dst -type f -printf '%P %i\n' | sort > inodes.before
	# shellcheck disable=SC2046 # the options are words
	ok "the rsync overwrite command writes every file anew, same size and time or not" sh -c \
		'"$@" src/ dst && diff -r src dst' - $(options cp-overwrite-tmpfs rsync)
	find dst -type f -printf '%P %i\n' | sort > inodes.after
	check_eq "... each under a temporary renamed over the old file (every inode new)" "" \
		"$(join inodes.before inodes.after | awk '$2 == $3')"
	if rsync --help | grep -q -e --fsync; then
		rm -rf dst && cp -a old dst
		# shellcheck disable=SC2046
		ok "the rsync --fsync overwrite command writes every file anew" sh -c \
			'"$@" src/ dst && diff -r src dst' - $(options cp-overwrite-tmpfs "rsync --fsync")
	fi
	# The flushes, counted with strace: one a file (6) with --fsync, none
	# without.
	if [ -n "$STRACE" ] && "$STRACE" -qq -o /dev/null -e trace=none true 2>/dev/null; then
		if rsync --help | grep -q -e --fsync; then
			# shellcheck disable=SC2046
			ok "the rsync --fsync tree command copies the tree, a flush a file" sh -c \
				's=$1; shift; "$s" -f -qq -e trace=fsync -o fsyncs "$@" src/ new &&
				diff -r src new && test "$(grep -c "^[0-9]* *fsync(" fsyncs)" -ge 6' \
				- "$STRACE" $(options cp-tree20-tmpfs "rsync --fsync")
			rm -rf new
		fi
		# shellcheck disable=SC2046
		ok "the rsync tree command copies the tree, no flush" sh -c \
			's=$1; shift; "$s" -f -qq -e trace=fsync -o fsyncs "$@" src/ new &&
			diff -r src new && ! grep -q "fsync(" fsyncs' \
			- "$STRACE" $(options cp-tree20-tmpfs rsync)
	fi
fi

if command -v gnuplot >/dev/null; then
	ok "the PNG chart is written" sh -c 'head -c 8 bench.png | od -An -c | grep -q "P   N   G"'
fi
done_testing
