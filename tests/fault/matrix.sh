# SPDX-License-Identifier: GPL-2.0-or-later
# The fault-injection matrix, sourced by tests/fault/*.sh.
#
# A scenario is one command line of one tool.  The matrix first runs it once
# under strace without faults, to learn which of the syscalls below it makes
# and how often; then, for each syscall it makes, for each of its first
# $FM_DEPTH calls, and for each errno in $FM_ERRNOS, it runs the scenario
# again from fresh files with that one call failed by strace's injection.
# Every case must end one of two ways:
#
#   exit 0   and the output is byte-identical to the expected one, with no
#            message but notes ("TOOL: note: ...");
#   exit 1   with a message "TOOL: NAME: ..." or "TOOL: ... 'NAME' ..." that names an operand or the
#            side that failed and gives the injected error's text, every
#            line of stderr being the tool's own, and nothing lost (the
#            scenario's own check: an old destination intact, no temporary
#            file, no mount or loop device left).
#
# EINTR and EAGAIN on the data path (read, write, splice, tee, vmsplice,
# copy_file_range, sendfile), and EINTR in poll, are transient: those cases
# must end with exit 0.  A run whose fault strace did not make (no
# "(INJECTED)" in its trace: it made fewer of those calls than the run
# without faults) is not a case: it is counted apart, and every syscall a
# scenario makes must have had at least one fault made.
# Anything else -- another status, a signal, a sanitizer report, a message
# that names nothing -- fails the case.
#
# A scenario NAME is made of shell functions:
#   NAME_setup          make the inputs in the current (empty) directory
#   NAME_run            run the tool as  $FM_RUN BINARY ARGS...  with its
#                       stderr going to ./err; set FM_RC to its exit status
#   NAME_ok             check the result of a run that exited 0 (with
#                       $FM_ERRNO set to the injected errno, if any)
#   NAME_failed         check that nothing was lost after a run that failed
#   NAME_messages       (optional) print the messages to judge, when the
#                       tool reports some failures elsewhere than stderr
# and may set
#   NAME_helpers        an extended regular expression for the programs the
#                       tool runs (mkfs.ext4): their messages may show too,
#                       and a fault they do not ride out fails them, not
#                       the tool -- which must still fail cleanly, with a
#                       message of its own naming the operand
#   NAME_reaches        the syscalls the scenario is there to reach: the
#                       run without faults must make each of them
#   NAME_stdio          "write" when the tool's output is written by stdio,
#                       which cannot resume after EINTR or EAGAIN (GNU's
#                       tools neither): those end as a clean write error
# and is played with  fm_matrix TOOL NAME 'OPERAND|...'  where the last
# argument is an extended regular expression for what a message may name:
# the operands, and where a tool keeps GNU's wording for its one standard
# stream ("write error" in cat, "read error" in tee), that side.
#
# The dynamic loader and the sanitizer runtime read files before main(): a
# process's leading read(2)s of shared objects and of /proc/self are not the
# tool's, so the matrix counts the tool's calls after them.  strace counts
# calls per process and thread, so "the Nth call" is the Nth of each one.

. "$top_srcdir/tests/lib.sh"
require_strace

: "${FM_DEPTH:=3}"
: "${FM_ERRNOS:=EINTR EAGAIN EIO ENOSPC EPIPE EMFILE}"
FM_SYSCALLS="splice tee vmsplice pipe2 read write copy_file_range sendfile
lseek fallocate poll fsync fdatasync rename renameat renameat2 mount umount2 acct"
export LC_ALL=C

# The libtool wrappers would be traced too: run the real binaries.
use_built_library

# fm_strerror ERRNO: the message text the C library gives for ERRNO.
fm_strerror() {
	case $1 in
	EINTR) echo "Interrupted system call" ;;
	EAGAIN) echo "Resource temporarily unavailable" ;;
	EIO) echo "Input/output error" ;;
	ENOSPC) echo "No space left on device" ;;
	EPIPE) echo "Broken pipe" ;;
	EMFILE) echo "Too many open files" ;;
	*) echo "$1" ;;
	esac
}

# fm_transient SYSCALL ERRNO: is this a fault the tool must ride out?
fm_transient() {
	case $2 in EINTR | EAGAIN) ;; *) return 1 ;; esac
	case $1 in
	read | write | splice | tee | vmsplice | copy_file_range | sendfile) return 0 ;;
	poll) [ "$2" = EINTR ] && return 0 ;;
	esac
	return 1
}

# The runners the scenarios call through $FM_RUN.  LeakSanitizer cannot work
# under ptrace, so it is off for traced commands.
fm_trace_run() {
	env >"$T_DIR/env.traced"
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		"$STRACE" -qq -f -y -o "$FM_TRACE" \
		-e trace="$(echo $FM_SYSCALLS | tr ' ' ,)" "$@"
}
fm_inject_run() {
	env >"$T_DIR/env.injected"
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		"$STRACE" -qq -f -o "$T_DIR/inject.trace" -e trace="${FM_SPEC%%:*}" \
		-e inject="$FM_SPEC" "$@"
}

# fm_counts TRACE SYSCALL: print "SKIP CALLS": the leading calls of the first
# process that are the loader's or the runtime's, and the most calls of
# SYSCALL any one process or thread made after those.
fm_counts() {
	awk -v sys="$2" '
		$2 !~ "^" sys "\\(" { next }
		{
			pid = $1
			if (!(pid in n)) { order[++np] = pid; lead[pid] = 1 }
			n[pid]++
			if (lead[pid] && $0 ~ /\.so[.0-9]*>|<\/proc\/(self|[0-9]+)\/|<\/sys\/devices\/system\//)
				skip[pid]++
			else
				lead[pid] = 0
		}
		END {
			most = 0
			for (p in n) if (n[p] - skip[p] > most) most = n[p] - skip[p]
			print skip[order[1]] + 0, most
		}' "$1"
}

FM_CASES=0
FM_MISSED=0
FM_CLEAN=0
FM_OK=0

# fm_fresh: an empty directory for one run of a scenario.
FM_MSGS=$T_DIR/messages
fm_fresh() {
	cd "$T_DIR" && rm -rf run "$FM_MSGS" && mkdir run && cd run || exit 99
}

# fm_verdict TOOL NAME NAMES SYSCALL ERRNO: judge the run that just ended.
# Prints nothing and returns 0 when it is right, else prints why.
fm_verdict() {
	local tool=$1 name=$2 names=$3 sys=$4 err=$5 text bad helpers stdio
	text=$(fm_strerror "$err")
	case $FM_RC in
	0)
		eval "helpers=\${${name}_helpers:-}"
		if [ -n "$helpers" ]; then
			# A helper (mkfs) that met the fault and still succeeded may
			# warn in its own words; the tool must say nothing but notes.
			grep "^$tool: " err >"$T_DIR/own" || :
		else
			cp err "$T_DIR/own"
		fi
		if grep -qv "^$tool: note: " "$T_DIR/own"; then
			echo "exit 0 with a message: $(head -n 1 "$T_DIR/own")"
			return 1
		fi
		"${name}_ok" || return 1
		;;
	1)
		eval "helpers=\${${name}_helpers:-}; stdio=\${${name}_stdio:-}"
		if fm_transient "$sys" "$err" && [ "$sys" != "$stdio" ] &&
			! { [ -n "$helpers" ] && grep -Eq "^($helpers): " err; }; then
			echo "a transient $err was not retried: $(head -n 1 err)"
			return 1
		fi
		bad=$(grep -v "^$tool: " err | { grep -Ev "^(${helpers:-$tool}): " || :; } | head -n 1)
		if [ -n "$bad" ]; then
			echo "stderr is not the tool's messages: $bad"
			return 1
		fi
		if command -v "${name}_messages" >/dev/null; then
			"${name}_messages" >"$FM_MSGS"
		else
			cp err "$FM_MSGS"
		fi
		if [ ! -s "$FM_MSGS" ]; then
			echo "no message"
			return 1
		fi
		if ! grep -Eq "^$tool: ('?($names)|.*'($names)')" "$FM_MSGS"; then
			echo "no message names an operand: $(head -n 1 "$FM_MSGS")"
			return 1
		fi
		if ! grep -qF "$text" "$FM_MSGS" &&
			! { [ -n "$helpers" ] && grep -Eq "^($helpers): " err; }; then
			echo "no message gives '$text': $(head -n 1 "$FM_MSGS")"
			return 1
		fi
		"${name}_failed" || return 1
		;;
	*)
		echo "exit status $FM_RC: $(head -n 3 err | tr '\n' ' ')"
		return 1
		;;
	esac
}

# fm_matrix TOOL NAME NAMES: play scenario NAME of TOOL through the matrix.
fm_matrix() {
	local tool=$1 name=$2 names=$3 sys counts skip calls k err reaches made
	# Without faults it must work, and the trace says what it calls.
	fm_fresh
	"${name}_setup"
	# FM_TRACE and FM_RUN are set apart, never as assignments before the
	# call, which would export them to the tool: the traced run's
	# environment would be larger than the injected runs', and a
	# sanitizer runtime, which reads /proc/self/environ 4 KiB at a time,
	# would make one read more in it whenever the difference straddles
	# 4096 bytes -- every fault of the tool's reads then lands one call
	# off (acctpin's matrix made none in CI, 2026-12-06).
	FM_ERRNO=
	FM_TRACE=$T_DIR/trace
	FM_RUN=fm_trace_run
	rm -f "$T_DIR/env.injected"
	"${name}_run"
	if [ "$FM_RC" != 0 ] || ! "${name}_ok" || [ -s err ]; then
		ok "$name: runs without faults (exit $FM_RC: $(head -n 1 err))" false
		return
	fi
	ok "$name: runs without faults" true
	# The calls the scenario is there for must be among those it made.
	eval "reaches=\${${name}_reaches:-}"
	for sys in $reaches; do
		counts=$(fm_counts "$T_DIR/trace" "$sys")
		ok "$name: reaches $sys" test "${counts#* }" -gt 0
	done
	for sys in $FM_SYSCALLS; do
		counts=$(fm_counts "$T_DIR/trace" "$sys")
		skip=${counts% *}
		calls=${counts#* }
		[ "$calls" -gt "$FM_DEPTH" ] && calls=$FM_DEPTH
		k=1
		made=0
		while [ "$k" -le "$calls" ]; do
			for err in $FM_ERRNOS; do
				FM_SPEC="$sys:error=$err:when=$((skip + k))"
				FM_ERRNO=$err
				fm_fresh
				"${name}_setup"
				FM_RUN=fm_inject_run
				"${name}_run"
				T_COUNT=$((T_COUNT + 1))
				# A run whose fault was not made (this run made fewer
				# of these calls) checks nothing: not counted as a case.
				if ! grep -q '(INJECTED)' "$T_DIR/inject.trace"; then
					echo "ok $T_COUNT - $name: $sys #$k $err: not made (exit $FM_RC)"
					FM_MISSED=$((FM_MISSED + 1))
					continue
				fi
				made=$((made + 1))
				FM_CASES=$((FM_CASES + 1))
				if fm_verdict "$tool" "$name" "$names" "$sys" "$err" >"$T_DIR/why"; then
					echo "ok $T_COUNT - $name: $sys #$k $err: exit $FM_RC$(fm_said)"
					if [ "$FM_RC" = 0 ]; then
						FM_OK=$((FM_OK + 1))
					else
						FM_CLEAN=$((FM_CLEAN + 1))
					fi
				else
					echo "not ok $T_COUNT - $name: $sys #$k $err ($FM_SPEC): $(cat "$T_DIR/why")"
					T_FAILS=$((T_FAILS + 1))
				fi
			done
			k=$((k + 1))
		done
		[ "$calls" -eq 0 ] || ok "$name: $sys: faults were made ($made cases)" test "$made" -gt 0
	done
	# Counted calls are only comparable between runs of one environment.
	[ ! -e "$T_DIR/env.injected" ] ||
		ok "$name: the traced and the injected runs had one environment" \
			cmp -s "$T_DIR/env.traced" "$T_DIR/env.injected"
}

# fm_said: the tool's first message, for the log.
fm_said() {
	local f=err
	[ -s "$FM_MSGS" ] && f=$FM_MSGS
	[ -s "$f" ] && printf ' (%s)' "$(head -n 1 "$f")"
}

# fm_done: the summary line, then the TAP verdict.
fm_done() {
	echo "# $T_NAME: $FM_CASES injected cases: $FM_OK exit 0 with the right output, $FM_CLEAN clean failures; $FM_MISSED runs whose fault was not made"
	done_testing
}

# fm_random FILE BYTES Q: BYTES random bytes, all in quarter Q (0 to 3) of
# the byte values.  Inputs made from different quarters share no byte, so
# that fm_pieces, which takes as much of each input as matches, can never
# mistake the start of the next input for more of one cut short.
fm_random() {
	local q
	case $3 in
	0) q='\000-\077' ;;
	1) q='\100-\177' ;;
	2) q='\200-\277' ;;
	3) q='\300-\377' ;;
	esac
	head -c "$2" /dev/urandom | LC_ALL=C tr '\000-\377' "$q$q$q$q" >"$1"
}

# fm_pieces OUT FILE...: OUT is the FILEs in order, each whole or cut short
# (what a cat-like tool may leave after an error): no byte out of order,
# duplicated or made up.  Prints why not.
fm_pieces() {
	local out=$1 pos=0 size f len common r
	shift
	size=$(stat -c %s "$out")
	for f in "$@"; do
		len=$(stat -c %s "$f")
		[ "$pos" -ge "$size" ] && break
		# The common prefix of OUT from pos and FILE.
		r=$(cmp -i "$pos:0" "$out" "$f" 2>&1)
		case $r in
		"") common=$len ;;
		*" differ: "*)
			common=$(echo "$r" | sed -n 's/.* differ: [a-z]* \([0-9]*\).*/\1/p')
			common=$((common - 1)) ;;
		*"EOF on "*" after byte "*)
			common=$(echo "$r" | sed -n 's/.* after byte \([0-9]*\).*/\1/p') ;;
		*"EOF on "*" which is empty"*) common=0 ;;
		*) echo "cmp: $r"; return 1 ;;
		esac
		pos=$((pos + common))
	done
	[ "$pos" -eq "$size" ] && return 0
	echo "$out has bytes that are not its inputs' at offset $pos"
	return 1
}

# fm_same EXPECTED ACTUAL: byte-identical, else prints why.
fm_same() {
	cmp -s "$1" "$2" && return 0
	echo "$2 differs from $1 ($(stat -c %s "$2") bytes, expected $(stat -c %s "$1"))"
	return 1
}
