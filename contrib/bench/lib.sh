# Shared helpers for the benchmark scripts (not tests: they only print).
# BENCH_DIR: scratch directory (default: a new one under $TMPDIR or /tmp).
# BENCH_RUNS: repetitions per measurement, the best one counts (default 5).
set -u
: "${top_builddir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# Run the real binaries, not libtool's wrapper scripts (a shell start per run).
# tool_bin TOOL: the path of TOOL's real binary in the build tree.
tool_bin() {
	if [ -x "$top_builddir/src/$1/.libs/$1" ]; then
		echo "$top_builddir/src/$1/.libs/$1"
	else
		echo "$top_builddir/src/$1/$1"
	fi
}
export LD_LIBRARY_PATH="$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
BENCH="$top_builddir/contrib/bench"
BENCH_RUNS=${BENCH_RUNS:-5}
if [ -z "${BENCH_DIR:-}" ]; then
	BENCH_DIR=$(mktemp -d "${TMPDIR:-/tmp}/splice-utils-bench.XXXXXX")
	trap 'rm -rf "$BENCH_DIR"' EXIT
fi

# best_time CMD: run the shell command CMD BENCH_RUNS times, print the
# shortest wall time in seconds.
best_time() {
	local best= i t0 t1 t
	for i in $(seq "$BENCH_RUNS"); do
		t0=$(date +%s%N)
		sh -c "$1" || { echo "benchmark command failed: $1" >&2; return 1; }
		t1=$(date +%s%N)
		t=$((t1 - t0))
		if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
	done
	awk -v ns="$best" 'BEGIN { printf "%.4f\n", ns / 1e9 }'
}

# row NAME BYTES SECONDS REF-SECONDS: one table row with throughput and
# the ratio of speeds against the reference (REF / SECONDS).
row() {
	awk -v n="$1" -v b="$2" -v s="$3" -v r="$4" 'BEGIN {
		printf "| %-34s | %9.3f s | %9.1f MiB/s | %6.2fx |\n", n, s, b / s / 1048576, r / s }'
}

header() {
	printf '\n%s\n\n' "$1"
	printf '| %-34s | %11s | %15s | %7s |\n' command time throughput "vs $2"
	printf '|%s|%s|%s|%s|\n' ------------------------------------ ------------- ----------------- ---------
}
