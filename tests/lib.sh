# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers for the shell tests; sourced by every tests/*/*.sh.
# The harness sets top_srcdir and top_builddir (see tests/Makemodule.am).
set -u
: "${top_builddir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_srcdir:=$top_builddir}"
: "${STRACE:=$(command -v strace || true)}"

SPCAT="$top_builddir/src/spcat/spcat"
SPTEE="$top_builddir/src/sptee/sptee"
SPMOVE="$top_builddir/src/spmove/spmove"
# spmove under cp's and mv's names (the personalities of spmove(1)).
SPCP="$top_builddir/src/spmove/spcp"
SPMV="$top_builddir/src/spmove/spmv"
ACCTPIN="$top_builddir/src/acctpin/acctpin"

# real_bin TOOL: the path of TOOL's real binary, not libtool's wrapper script
# (which strace would trace too); callers that run it also export
# use_built_library.
real_bin() {
	# The tools link libsplice's objects and are real programs; a .libs
	# copy (a wrapper's program, from a build that linked them against the
	# shared library) counts only when the tool is not a program itself.
	if [ "$(head -c 4 "$top_builddir/src/$1/$1" 2>/dev/null | tail -c 3)" != ELF ] &&
		[ -x "$top_builddir/src/$1/.libs/$1" ]; then
		echo "$top_builddir/src/$1/.libs/$1"
	else
		echo "$top_builddir/src/$1/$1"
	fi
}

# use_built_library: make the real binaries find the libsplice just built.
use_built_library() {
	LD_LIBRARY_PATH="$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
}

# The name of this test, for messages.
T_NAME=$(basename "$0" .sh)
T_FAILS=0
T_COUNT=0

# A private scratch directory, removed on exit.
T_DIR=$(mktemp -d "${TMPDIR:-/tmp}/splice-utils-test.XXXXXX") || exit 99
T_CLEANUPS=""
t_cleanup() {
	eval "$T_CLEANUPS"
	rm -rf "$T_DIR"
}
trap t_cleanup EXIT
trap 'exit 130' INT TERM HUP
cd "$T_DIR" || exit 99

# at_exit CMD: run CMD (a string) when the test ends, before the scratch dir goes.
at_exit() { T_CLEANUPS="$1; $T_CLEANUPS"; }

# skip REASON: the whole test cannot run here (exit 77).
skip() { echo "SKIP: $T_NAME: $*"; exit 77; }

# nobody_runs TOOL: whether the user nobody can run TOOL, for the checks as
# an unprivileged user: setpriv must exist, and the build tree must be
# reachable (a clone below a directory only root may enter, as mktemp -d
# makes, is not).  Those checks say they are left out when it is false.
nobody_runs() {
	command -v setpriv >/dev/null &&
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$1" --version >/dev/null 2>&1
}

# require_root: privileged tests skip when not root.
require_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }

# require_strace: fault injection needs strace with -e inject.
require_strace() {
	[ -n "$STRACE" ] && "$STRACE" -qq -o /dev/null -e trace=none true 2>/dev/null ||
		skip "strace is not usable here"
}

# ok COND-DESCRIPTION CMD...: run CMD, count a pass or a failure.
ok() {
	local what=$1; shift
	T_COUNT=$((T_COUNT + 1))
	if "$@"; then
		echo "ok $T_COUNT - $what"
	else
		echo "not ok $T_COUNT - $what"
		T_FAILS=$((T_FAILS + 1))
	fi
}

# check_eq DESCRIPTION EXPECTED ACTUAL
check_eq() {
	T_COUNT=$((T_COUNT + 1))
	if [ "$2" = "$3" ]; then
		echo "ok $T_COUNT - $1"
	else
		echo "not ok $T_COUNT - $1: expected [$2], got [$3]"
		T_FAILS=$((T_FAILS + 1))
	fi
}

# same_files DESCRIPTION A B: A and B are byte-identical.
same_files() { ok "$1" cmp -s "$2" "$3"; }

# run_cmd OUT ERR CMD...: run CMD with stdout to OUT and stderr to ERR; sets RC.
run_cmd() {
	local out=$1 err=$2; shift 2
	"$@" >"$out" 2>"$err"
	RC=$?
}

# inject SPEC CMD...: run CMD under strace with fault injection SPEC
# (for example "splice:error=EINVAL:when=1"), following children.
# LeakSanitizer cannot work under ptrace: it is off for traced commands.
inject() {
	local spec=$1; shift
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		"$STRACE" -qq -f -o /dev/null -e trace="${spec%%:*}" -e inject="$spec" "$@"
}

# traced ARGS...: strace ARGS..., without LeakSanitizer (it cannot work
# under ptrace).  A test may define its own (race.sh, the spcat and sptee
# ones), which stands.
traced() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$STRACE" -qq "$@"; }

# held_pid JOB NR: the pid of the program that strace (with a delay_enter
# injection) runs in the background job JOB (strace itself, or a shell
# running it: traced), once a thread of it is held by the tracer on entry
# to system call NR (as /proc/PID/task/*/syscall numbers it: 326 is
# copy_file_range(2) on x86-64); nothing after 20 s without.
held_pid() {
	local n=0 p
	while [ $n -lt 400 ]; do
		for p in $(pgrep -P "$1") $(pgrep -P "$(pgrep -P "$1" | head -n 1)" 2>/dev/null); do
			if grep -qs "^$2 " /proc/"$p"/task/*/syscall &&
			   grep -qsx ptrace_stop /proc/"$p"/task/*/wchan; then
				echo "$p"
				return
			fi
		done
		sleep 0.05
		n=$((n + 1))
	done
}

# make_random FILE BYTES: BYTES of random data.
make_random() { head -c "$2" /dev/urandom >"$1"; }

# done_testing: exit 0 when every check passed, 1 otherwise.
done_testing() {
	echo "# $T_NAME: $((T_COUNT - T_FAILS)) of $T_COUNT checks passed"
	[ "$T_FAILS" -eq 0 ] && [ "$T_COUNT" -gt 0 ]
	exit $?
}

# The GNU coreutils the parity tests compare with: $PEER_COREUTILS when set,
# else a build of 9.11 (the release the tools follow) in the peers directory
# beside the main tree or beside a worktree (../shared/peers,
# ../../shared/peers), where there is one; else the system's.
if [ -z "${PEER_COREUTILS:-}" ]; then
	for p in "$top_srcdir"/../shared/peers/coreutils-9.11* \
		"$top_srcdir"/../../shared/peers/coreutils-9.11*; do
		if [ -x "$p/cp" ]; then
			PEER_COREUTILS=$(cd "$p" && pwd)
			break
		fi
	done
fi

# preload_cpus N: make the programs run from here see N CPUs (a preloaded
# sched_getaffinity(), built in the test's directory), so that spmove
# starts N - 1 copy workers whatever the machine has.  Sets CPUS to N, or
# to the machine's count when it cannot (no gcc, or under the sanitizers: a
# preloaded library does not mix with their runtime).
preload_cpus() {
	if command -v gcc >/dev/null && [ -z "${SANITIZERS:-}" ]; then
		cat >"$T_DIR/cpus.c" <<C
#define _GNU_SOURCE
#include <sched.h>
#include <string.h>
int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
	(void)pid;
	memset(set, 0, size);
	for (int cpu = 0; cpu < $1; cpu++)
		CPU_SET_S(cpu, size, set);
	return 0;
}
C
		if gcc -shared -fPIC -o "$T_DIR/cpus.so" "$T_DIR/cpus.c"; then
			LD_PRELOAD=$T_DIR/cpus.so
			export LD_PRELOAD
			CPUS=$1
			return
		fi
	fi
	CPUS=$(nproc)
}

# gnu TOOL: the GNU coreutils TOOL to compare with: $PEER_COREUTILS/TOOL
# when it is there, else the system's.  Says on stderr (the test's log)
# which one runs, and its version.
gnu() {
	local path
	if [ -n "${PEER_COREUTILS:-}" ] && [ -x "$PEER_COREUTILS/$1" ]; then
		path=$PEER_COREUTILS/$1
	else
		path=$(command -v "$1")
	fi
	echo "# GNU $1: $path ($("$path" --version 2>/dev/null | head -n 1))" >&2
	echo "$path"
}

# as_cp NAME...: standard input with each program's name that starts a
# message ("spcp:", "./gnucp:", "/usr/bin/cp:") written as "CP:", so that
# messages compare whatever the name a program was run under: GNU 9.11
# prints its base name, Debian's 9.1 the name it was run as.
as_cp() {
	local alt
	alt=$(IFS='|'; echo "$*")
	sed -E "s#(^|[[:space:]])([^[:space:]]*/)?($alt):#\1CP:#g"
}
