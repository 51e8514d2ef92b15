# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the sptee tests: GNU tee and sptee side by side.
# Sourced by tests/sptee/*.sh after tests/lib.sh.
LC_ALL=C
export LC_ALL
command -v tee >/dev/null || skip "GNU tee is not installed"
# GNU tee by name (its messages start with argv[0]): gnu's, found first in
# PATH when it is a peer build.
GNU_TEE=$(gnu tee)
case $GNU_TEE in "${PEER_COREUTILS:-/nonexistent}"/*) PATH=$PEER_COREUTILS:$PATH ;; esac
GNU_TEE=tee

# run_tee CMD SHAPE INPUT [ARG...]: run CMD (tee or sptee) in the current
# directory with ARGs, stdin and stdout shaped by SHAPE (pipe-file,
# file-file, pipe-pipe, file-pipe: stdin, then stdout, a pipe or a file);
# leaves out, err and rc (the exit status).
run_tee() {
	local cmd=$1 shape=$2 input=$3
	shift 3
	case $shape in
	pipe-file) cat "$input" | "$cmd" "$@" >out 2>err; echo $? >rc ;;
	file-file) "$cmd" "$@" <"$input" >out 2>err; echo $? >rc ;;
	pipe-pipe) { cat "$input" | "$cmd" "$@" 2>err; echo $? >rc; } | cat >out ;;
	file-pipe) { "$cmd" "$@" <"$input" 2>err; echo $? >rc; } | cat >out ;;
	*) echo "run_tee: bad shape $shape" >&2; return 1 ;;
	esac
}

# side_by_side SHAPE INPUT NFILES [OPTION...]: run GNU tee in gnu/ and
# sptee in sp/, each writing NFILES files f1..fN besides stdout; each file
# first holds $PRESEED when that is set; sptee alone gets the options in
# $SP_ONLY.  sptee's messages are rewritten
# to read "tee" for the comparison.
side_by_side() {
	local shape=$1 input=$2 nfiles=$3 dir cmd i files
	shift 3
	for dir in gnu sp; do
		rm -rf "$dir" && mkdir "$dir" || return 1
		files=""
		i=1
		while [ "$i" -le "$nfiles" ]; do
			files="$files f$i"
			[ -n "${PRESEED:-}" ] && printf '%s' "$PRESEED" >"$dir/f$i"
			i=$((i + 1))
		done
		# shellcheck disable=SC2086 # lists of plain words
		if [ "$dir" = sp ]; then
			(cd "$dir" && run_tee "$SPTEE" "$shape" "$input" ${SP_ONLY:-} "$@" $files)
		else
			(cd "$dir" && run_tee "$GNU_TEE" "$shape" "$input" "$@" $files)
		fi
	done
	sed -i "s/^sptee: /tee: /; s/'sptee --help'/'tee --help'/" sp/err
}

# same_as_gnu DESCRIPTION: the last side_by_side gave the same outputs,
# messages and exit status.
same_as_gnu() { ok "$1" diff -r gnu sp; }

# inject_sptee SPEC ARG...: sptee under strace fault injection SPEC (see
# inject in tests/lib.sh), without its wrapper script.  The calls traced are
# kept in $INJECT_TRACE, for injected_once.
INJECT_TRACE=$PWD/inject.trace
inject_sptee() {
	local spec=$1
	shift
	traced "$STRACE" -qq -f -o "$INJECT_TRACE" -e trace="${spec%%:*}" -e inject="$spec" \
		"$SPTEE" "$@"
}

# injected_once WHAT: a check that the last inject_sptee's fault was made:
# a test whose fault never happened checks nothing.
injected_once() {
	ok "$1: the fault was injected" grep -q '(INJECTED)' "$INJECT_TRACE"
}

# traced CMD ARG...: run CMD (strace) with libtool's real programs in place
# of its wrapper scripts among the ARGs; LeakSanitizer, which cannot work
# under ptrace, is turned off.
traced() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		"$top_builddir/libtool" --mode=execute "$@"
}
