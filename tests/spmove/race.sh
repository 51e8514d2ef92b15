# SPDX-License-Identifier: GPL-2.0-or-later
# spmove as root in directories another user can write (issue 23): the
# symbolic-link race harness.
#
# For each mode (below), spmove runs as root on a scene where the user
# nobody owns a directory that spmove reads or writes.  A first run under
# `strace -f -P PATH -P DIR` lists every system call that touches the
# raced PATH (by name, through a descriptor of it, or by its directory's
# descriptor, as GNU cp reaches files), numbered per thread and system
# call as strace's when= counts them.  Then, for each of those calls in
# turn (at most RACE_POINTS per target: those that name the file, spread
# evenly over the run, then the others), spmove runs again under
#   strace -f -qq -o /dev/null -P PATH -P DIR \
#          -e inject=SYSCALL:delay_enter=USEC:when=N
# and, as soon as the harness (root) sees a thread of it held in that
# system call (the same tracing stop and /proc/TID/syscall twice in a
# row), nobody swaps a file, a directory or a parent directory for a
# symbolic link (to a root-only file, to a root-owned directory standing
# in for /etc, to a root-only directory), for a FIFO or for another file.
# Each run is then checked; any of these is a breach:
#   - a victim (victim/passwd 0644, victim/etc/ 0755 with conf, vault/
#     0700 with secret 0600, all root's) changed type, owner, group or mode,
#     or any entry under them belongs to someone other than root;
#   - a victim file's contents changed to anything but the data of a file
#     root asked to copy (writing through a symbolic link the user
#     controlled when the destination was looked up is what cp does too;
#     fs.protected_symlinks governs that, not spmove);
#   - the secret's bytes are readable by nobody anywhere in the scene
#     (grep -r run as nobody);
#   - the secret's bytes were copied at all, in every mode but the plain
#     copy (whose command-line SRC cp follows too): within a tree and in a
#     move, a symbolic link is never followed, so its target must not be
#     read;
#   - a temporary file (.spmove-*) is left;
#   - the run hung (killed by timeout after RACE_LIMIT seconds), except
#     on a FIFO swapped in before the command's first look at the path
#     (the user gave root a FIFO to read: cp waits for a writer too).
# The test fails if spmove has any breach.  GNU cp 9.11 (from
# $PEER_COREUTILS, default tests/lib.sh's: the 9.11 build in the peers
# directory, else the system's cp) and the system's mv (Debian's, for the
# moves) go through the same races; their figures are printed, never
# asserted.  A race point whose pause was not seen (the call did not come
# in that run), or that ended before the swap was done, counts as missed,
# not tried (its run is checked all the same).
#
# Modes (S: root's source files, H: nobody's home, O: root's out/, M: a
# tmpfs, the second file system):
#   copy          spmove H/t/a O/a                 H/t/a -> secret, FIFO,
#                                                  another file
#   dest-link     spmove S/f H/report              H/report -> passwd
#   into-dir      spmove S/conf S/f H/d            H/d -> etc
#   -r            spmove -r S/t H/new              H/new -> etc
#   -a            spmove -a H/src/docs H/          H/docs (nobody's) -> etc
#   -p            spmove -rp H/src/docs H/         H/docs (nobody's) -> etc
#   move-1fs      spmove --remove-source H/t O/t   H/t -> vault
#   move-2fs      spmove --remove-source H/t M/    H/t/a -> secret, H/t/sub
#                                                  -> vault, -> etc
#   workers       spmove -r --parallel=2 H/t O/t   H/t/a -> secret, FIFO,
#                                                  H/t/sub -> vault
#   walker        spmove -r -v H/t O/t             the same
#   onto          spmove -r --parallel=2 S/t H/    H/t/a -> passwd, H/t/conf
#                                                  -> etc/conf, H/t/sub -> etc
#   twins         spmove -rT S/t M/u               M/u/a -> passwd, M/u/conf
#                                                  -> etc/conf, M/u/sub -> etc
#                                                  (M/u: nobody's copy of S/t,
#                                                  whose files are left as they
#                                                  are: the walker alone)
#   twins-par     spmove -rT --parallel=2 S/t M/u  the same, each looked at by
#                                                  a worker
#
# Tuning: RACE_POINTS (race points per target, default 5; 0: all),
# RACE_DELAY (the pause, microseconds, default 300000), RACE_LIMIT
# (seconds before a run counts as hung, default 5), RACE_MODES (a
# space-separated subset of the modes), RACE_GNU=no to leave GNU out,
# RACE_ULIMIT=N to run the commands under ulimit -n N (7: the walker's
# very-low-limit way, its source directory let go and opened again; set
# once the process id is written, as dash's redirection needs fd 10).
# The real binary is traced (real_bin), with the library just built.
# Run it alone with `make check TESTS=tests/spmove/race.sh VERBOSE=1`
# (about two minutes on two CPUs; RACE_POINTS=0 tries every race point,
# about seven); each breach is listed with its system call, the path
# swapped and what changed, RACE_KEEP=DIR keeps the first breach's scene.
. "$top_srcdir/tests/lib.sh"
require_root
require_strace
"$STRACE" -qq -o /dev/null -e inject=getppid:delay_enter=1:when=1 true 2>/dev/null ||
	skip "strace cannot delay a system call (inject=...:delay_enter)"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"; }
command -v setpriv >/dev/null && as_nobody true 2>/dev/null || skip "nobody cannot run commands"
chmod 755 "$T_DIR"
as_nobody test -x "$T_DIR" || skip "nobody cannot reach $T_DIR"

SP=${RACE_SPMOVE:-$(real_bin spmove)}
use_built_library
# spcp is spmove under another name (its personality: cp's options).
mkdir "$T_DIR/bin" && ln -s "$SP" "$T_DIR/bin/spcp" || exit 99
SPCP=$T_DIR/bin/spcp
if [ -x "${PEER_COREUTILS:-}/cp" ]; then
	GNU_CP=$PEER_COREUTILS/cp
else
	GNU_CP=$(command -v cp)
fi
GNU_MV=$(command -v mv)
: "${RACE_POINTS:=5}" "${RACE_DELAY:=300000}" "${RACE_LIMIT:=5}" "${RACE_GNU:=yes}"
: "${RACE_MODES:=copy dest-link into-dir -r -a -p move-1fs move-2fs workers walker onto slash-r
slash-mv in-place parents attr-only attr-only-hl backup-num backup-posix bf link symlink
special-a special-mv hardlinks acl twins twins-par}"
command -v setfacl >/dev/null || RACE_MODES=${RACE_MODES/acl/}

TPL=$T_DIR/tpl     # the scene as it starts, copied to W for each run
W=$T_DIR/w
M=$T_DIR/mnt       # the second file system
H=$W/home S=$W/src O=$W/out
# The modes whose command copies the secret itself (elsewhere, its bytes
# anywhere but in vault/ were read through a link).
SECRET_MODES="copy in-place acl"
MARKER=secret-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')

mkdir "$M" || exit 99
mount -t tmpfs -o size=16m,mode=0755 tmpfs "$M" || skip "cannot mount a tmpfs"
at_exit "umount -l '$M'"

# The scene.  Everything under home/ is nobody's.
make_scene() {
	local t=$1
	mkdir -p "$t/vault" "$t/victim/etc" "$t/home/t/sub" "$t/home/src/docs/sub" \
		"$t/home/docs" "$t/src/t/sub" "$t/out" "$t/stage" || return 1
	{ echo "$MARKER"; head -c 3000 /dev/urandom | od -An -tx1; } >"$t/vault/secret"
	chmod 700 "$t/vault"; chmod 600 "$t/vault/secret"
	echo "root:x:0:0:root:/root:/bin/bash" >"$t/victim/passwd"
	echo "victim configuration" >"$t/victim/etc/conf"
	chmod 644 "$t/victim/passwd" "$t/victim/etc/conf"
	# nobody's trees: a file, a file named as a victim, a subdirectory
	# with a file named as the secret.
	for d in "$t/home/t" "$t/home/src/docs"; do
		head -c 10000 /dev/urandom >"$d/a"
		echo "user's conf" >"$d/conf"
		echo "user's own file named secret" >"$d/sub/secret"
		echo "c" >"$d/sub/c"
	done
	echo "nobody's report" >"$t/home/mine"
	ln -s mine "$t/home/report"
	echo "nobody's docs" >"$t/home/docs/readme"
	mkdir "$t/home/hls"
	echo "nobody's linked file" >"$t/home/hls/passwd"
	ln "$t/home/hls/passwd" "$t/home/hls/zz"
	chown -R nobody:nogroup "$t/home" "$t/stage"
	# root's things in nobody's home (left there by an earlier copy, say):
	# a directory (nobody can rename it, not empty it), a private file, and
	# a hard link to a victim.
	mkdir "$t/home/rd"
	echo "root's keep" >"$t/home/rd/keep"
	chmod 755 "$t/home/rd"; chmod 644 "$t/home/rd/keep"
	echo "root's file in nobody's home" >"$t/home/rf"; chmod 600 "$t/home/rf"
	ln "$t/victim/passwd" "$t/home/hl"
	# root's special files (mode 0600, unlike any victim's), and a tree for
	# --parents.
	mkdir "$t/src/pa" && echo "root's parents file" >"$t/src/pa/f"
	mkfifo -m 600 "$t/src/fifo" && mknod -m 600 "$t/src/null" c 1 3 || return 1
	python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' \
		"$t/src/sock" && chmod 600 "$t/src/sock" || return 1
	# root's: a file, a conf of another mode than victim/etc/conf, a tree.
	echo "root's new report" >"$t/src/f"
	echo "root's conf" >"$t/src/conf"; chmod 600 "$t/src/conf"
	head -c 10000 /dev/urandom >"$t/src/t/a"
	cp "$t/src/conf" "$t/src/t/conf"
	echo "c" >"$t/src/t/sub/c"
	chmod 750 "$t/src/t"
	# nobody's copy of root's tree, each file the same bytes.
	cp -r "$t/src/t" "$t/home/u" && chown -R nobody:nogroup "$t/home/u" || return 1
	chmod 755 "$t" "$t/victim" "$t/victim/etc" "$t/home" "$t/out" "$t/src" "$t/stage"
}
make_scene "$TPL" || exit 99
chmod 700 "$TPL"   # the original secret stays out of nobody's reach
EXPECTED=$(cd "$TPL" && find victim vault -printf '%y %u %g %m %p\n' | sort)
# The data root may legitimately write anywhere a link leads.
ALLOWED=$(cd "$TPL" && find home src -type f -exec sha1sum {} + | cut -d' ' -f1 | sort -u)

reset_scene() {
	rm -rf "$W" && cp -a "$TPL" "$W" && chmod 755 "$W" &&
		find "$M" -mindepth 1 -delete &&
		cp -a "$W/src/fifo" "$W/src/null" "$W/src/sock" "$W/home/u" "$M/" || return 1
	RD_INO=$(stat -c %i "$W/home/rd")
}

# What is wrong after a run (empty: nothing).  $1: the run's exit status.
breaches() {
	local rc=$1 live f sum
	[ "$rc" = 124 ] || [ "$rc" = 137 ] && echo "hung (killed after ${RACE_LIMIT}s)"
	live=$(cd "$W" && find victim vault -printf '%y %u %g %m %p\n' | sort)
	comm -23 <(echo "$EXPECTED") <(echo "$live") | sed 's/^/victim changed or gone (was): /'
	echo "$live" | awk '$2 != "root" { print "victim entry not root'\''s: " $0 }'
	for f in victim/passwd victim/etc/conf vault/secret; do
		# A hard link to a victim made anywhere else (home/hl: the scene's).
		[ -f "$W/$f" ] && find "$W" "$M" -samefile "$W/$f" ! -path "$W/$f" \
			! -path "$W/home/hl" -printf "hard link to $f: %p\n" 2>/dev/null
		[ -f "$W/$f" ] && ! cmp -s "$TPL/$f" "$W/$f" || continue
		sum=$(sha1sum <"$W/$f" | cut -d' ' -f1)
		# STRICT modes write only names they made: no link is followed.
		[ -z "$STRICT" ] && grep -qx "$sum" <<<"$ALLOWED" || echo "$f: contents changed"
	done
	# root's directory in nobody's home: wherever nobody renamed it, still
	# root's, 0755, holding only its keep.
	live=$(find "$W" -inum "$RD_INO" -printf '%u %m %p\n' 2>/dev/null)
	if [ -z "$live" ]; then
		echo "root's directory home/rd gone"
	else
		set -- $live
		[ "$1 $2" = "root 755" ] || echo "root's directory home/rd changed: $live"
		[ "$(find "$3" -mindepth 1 -printf '%u %m %P\n')" = "root 644 keep" ] &&
			[ "$(cat "$3/keep")" = "root's keep" ] ||
			echo "root's directory home/rd: its contents changed:" $(find "$3" -mindepth 1 -printf '%u:%m:%P ')
	fi
	as_nobody grep -rlF -D skip -e "$MARKER" "$W" "$M" 2>/dev/null </dev/null |
		sed 's/^/secret readable by nobody: /'
	case " $SECRET_MODES " in *" $MODE "*) true ;; *) false ;; esac ||
		grep -rlF -D skip -e "$MARKER" "$W" "$M" | grep -vx "$W/vault/secret" |
		sed 's/^/secret read through a symbolic link: /'
	find "$W" "$M" -name '.spmove-*' | sed 's/^/temporary file left: /'
}

# The tasks of process $1 in a tracing stop, with their /proc/TID/syscall,
# into SIG ("|tid:syscall" each).
stopped_tasks() {
	local t line
	SIG=""
	for t in /proc/"$1"/task/*; do
		{ read -r line <"$t/stat"; } 2>/dev/null || continue
		line=${line##*) }
		[ "${line%% *}" = t ] || continue
		{ read -r line <"$t/syscall"; } 2>/dev/null || continue
		SIG="$SIG|${t##*/}:$line"
	done
}

# syscall_nr NAME: prints the number of system call NAME on this machine
# (from the kernel's uapi header), or nothing when it cannot be found.
syscall_nr() {
	local h
	for h in /usr/include/x86_64-linux-gnu/asm/unistd_64.h /usr/include/asm/unistd_64.h; do
		[ -r "$h" ] || continue
		awk -v n="__NR_$1" '$1 == "#define" && $2 == n { print $3; exit }' "$h"
		return
	done
}

# wait_pause PID [SYSCALL]: wait until a thread of the traced command is
# held in a system call (seen twice, 15 ms apart, in the same one) --
# SYSCALL, where the injected delay holds it, when it is given and its
# number known: a tracer starved of CPU can leave a thread in an ordinary
# tracing stop for 15 ms at an earlier call, and a swap there would come
# before the race point (a breach of the harness, not of the command).
# PAUSED says which, PID is the command's.  Fails when the command ends
# first.  The command writes its process id into $T_DIR/pid (traced()).
wait_pause() {
	local prev="" item items i=0 pid="" nr=""
	[ -z "${2-}" ] || nr=$(syscall_nr "$2")
	PAUSED="" PID=""
	while [ -z "$pid" ] && [ -d "/proc/$1" ]; do
		{ read -r pid <"$T_DIR/pid"; } 2>/dev/null || sleep 0.01
	done
	while [ -n "$pid" ] && [ -d "/proc/$pid" ] && [ $i -lt $((RACE_LIMIT * 60)) ]; do
		PID=$pid
		stopped_tasks "$pid"
		IFS='|' read -ra items <<<"$SIG"
		for item in "${items[@]}"; do
			[ -n "$item" ] || continue
			[ -z "$nr" ] || [[ "${item#*:}" == "$nr "* ]] || continue
			[[ "$prev|" == *"|$item|"* ]] && PAUSED=$item && return 0
		done
		prev=$SIG
		sleep 0.015
		i=$((i + 1))
	done
	return 1
}

# stage KIND [TARGET]: as nobody, make what will be swapped in: a
# symbolic link to TARGET (KIND link), a FIFO (fifo) or another file
# (file), as stage/new beside home/ (the same file system).
stage() {
	as_nobody sh -c '
		case $1 in
		link) ln -s "$2" "$0" ;;
		fifo) mkfifo "$0" ;;
		file) echo "nobody'"'"'s other file" >"$0" ;;
		aclfile) echo "nobody'"'"'s file with an ACL" >"$0" && chmod 600 "$0" &&
			setfacl -m u:nobody:rw "$0" ;;
		esac' "$W/stage/new" "$1" "${2-}" 2>/dev/null
}

# swap PATH: as nobody, put stage/new in PATH's place: in one rename
# where PATH is not a directory, else by moving PATH aside first.  Kind
# rdir: root's directory home/rd instead (nobody can rename it in home/).
# Kind aclfile: PATH moved aside, to come back (swap_back).
swap() {
	case $KIND in
	rdir)
		as_nobody sh -c '[ ! -e "$0" ] || mv -T "$0" "$0.old"; mv -T "$1" "$0"' "$1" "$H/rd" \
			2>/dev/null
		return ;;
	aclfile)
		as_nobody sh -c 'mv -T "$0" "$0.old" && mv -T "$1" "$0"' "$1" "$W/stage/new" \
			2>/dev/null
		return ;;
	esac
	as_nobody mv -T "$W/stage/new" "$1" 2>/dev/null ||
		as_nobody sh -c 'mv -T "$0" "$0.old" && mv -T "$1" "$0"' "$1" "$W/stage/new" 2>/dev/null
}

# swap_back PATH: as nobody, undo swap's aclfile: PATH's own file back.
swap_back() {
	as_nobody sh -c 'mv -T "$0" "$1" && mv -T "$0.old" "$0"' "$1" "$W/stage/new" 2>/dev/null
}

# traced STRACE-OPTIONS -- CMD...: run CMD under strace (killed, with
# strace, after RACE_LIMIT seconds: status 124), its process id into
# $T_DIR/pid.
traced() {
	local opts=()
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	# LeakSanitizer cannot work under ptrace (as in inject()).
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		timeout -k 1 "$RACE_LIMIT" "$STRACE" -f -qq "${opts[@]}" -- \
		sh -c 'echo $$ >"$0"
		       if [ -n "${RACE_ULIMIT:-}" ]; then ulimit -n "$RACE_ULIMIT" || exit 99; fi
		       exec "$@"' "$T_DIR/pid" "$@" >/dev/null 2>&1
}

# The race points of a command on a path: the system calls on the path
# or on its directory (GNU cp reaches a file by its directory's
# descriptor and its name), "SYSCALL N early|late" a line.  "early": the
# call comes before the command's first look at the path (a swap then is
# what the user could have done before the command started).  At most
# RACE_POINTS are taken: those that name the file, spread evenly over the
# run, then the others.  Sets POINTS, and CALLS to how many there were
# in all (a call made by several threads is one point).
race_points() {
	local path=$1; shift
	reset_scene
	rm -f "$T_DIR/pid"
	traced -o "$T_DIR/enum.log" -P "$path" -P "${path%/*}" -- "$@"
	POINTS=$(sample_points "$path" 0)
	CALLS=$(grep -c . <<<"$POINTS")
	ORDER=$(ordered_points)
	POINTS=$(sample_points "$path" "$RACE_POINTS")
}

# ordered_points: every race point of the last traced run, "SYSCALL N" a
# line, in the order they came.
ordered_points() {
	awk '{ line = $0; sub(/^[0-9]+ +/, "", line) }
		line ~ /^(<\.\.\.|---|\+\+\+)/ { next }
		{ sc = line; sub(/\(.*/, "", sc); pt = sc " " ++count[$1, sc]
		  if (!(pt in seen)) { seen[pt] = 1; print pt } }' "$T_DIR/enum.log"
}

# sample_points PATH K: the race points of the last traced run, at most
# K (0: all).
sample_points() {
	awk -v p="\"$1\"" -v b="\"${1##*/}" -v k="$2" '
		{ line = $0; sub(/^[0-9]+ +/, "", line) }
		line ~ /^(<\.\.\.|---|\+\+\+)/ { next }
		{
			sc = line; sub(/\(.*/, "", sc)
			pt = sc " " ++count[$1, sc]
			if (!looked) early[pt] = 1
			if (index(line, p) || index(line, b "\"") || index(line, b "/")) {
				looked = 1
				named[++nn] = pt
			} else {
				other[++no] = pt
			}
		}
		function take(pt) {
			if (pt in taken || (k > 0 && got >= k))
				return
			taken[pt] = 1; got++
			print pt, (pt in early ? "early" : "late")
		}
		END {
			m = k > 0 && k < nn ? k : nn
			for (i = 0; i < m; i++)
				take(named[m > 1 ? 1 + int(i * (nn - 1) / (m - 1) + 0.5) : 1])
			for (i = 1; i <= nn; i++) take(named[i])
			for (i = 1; i <= no; i++) take(other[i])
		}' "$T_DIR/enum.log"
}

# One target of a mode: TOOL MODE TRACE SWAP KIND TARGET -- CMD...
# Adds to TRIED_<tool>_<mode>, MISSED_..., BREACHED_...
race_target() {
	local tool=$1 mode=$2 trace=$3 path=$4 kind=${5%:late} target=$6 late=
	# KIND:late: a name the command makes; a swap before its first look
	# there is the user's own choice of destination (a link to a
	# directory is entered, by cp too), so only the later points count.
	[ "$kind" = "$5" ] || late=yes
	shift 7
	local key=${tool}_${mode//[^a-z0-9]/_} sc n when pid rc what
	race_points "$trace" "$@"
	# Only the later points, RACE_POINTS of them, for KIND:late.
	[ -z "$late" ] || POINTS=$(sample_points "$trace" 0 | awk -v k="$RACE_POINTS" \
		'$3 == "late" && (k == 0 || n++ < k)')
	eval "CALLS_$key=\$((\${CALLS_$key:-0} + $CALLS))"
	while read -r sc n when; do
		[ -n "$sc" ] || continue
		[ "$late$when" = yesearly ] && continue
		reset_scene
		stage "$kind" "$target"
		rm -f "$T_DIR/pid"
		KIND=$kind
		# Swapped and back: held again at the next race point, when the
		# name gets its own file back -- what runs in between (calls on
		# other names, such as /proc/thread-self/fd/N/NAME) sees the other file.
		local inject=("-e" "inject=$sc:delay_enter=$RACE_DELAY:when=$n") next
		if [ "$kind" = aclfile ]; then
			next=$(awk -v pt="$sc $n" 'found { print; exit } $0 == pt { found = 1 }' \
				<<<"$ORDER")
			[ -n "$next" ] || continue
			if [ "${next% *}" = "$sc" ]; then
				inject=("-e" "inject=$sc:delay_enter=$RACE_DELAY:when=$n..${next#* }")
			else
				inject+=("-e" "inject=${next% *}:delay_enter=$RACE_DELAY:when=${next#* }")
			fi
		fi
		traced -o /dev/null -P "$trace" -P "${trace%/*}" "${inject[@]}" \
			-- "$@" &
		pid=$!
		if wait_pause $pid "$sc"; then
			swap "$path"
			# Raced only if the swap was done within the pause (and
			# the swap back within the second one).
			stopped_tasks "$PID"
			if [ "$kind" = aclfile ]; then
				case "$SIG|" in *"|$PAUSED|"*) ;; *) PAUSED=none ;; esac
				sleep "$(awk -v d="$RACE_DELAY" 'BEGIN { print d / 1e6 }')"
				stopped_tasks "$PID"
				[ -n "$SIG" ] || PAUSED=none
				swap_back "$path"
				stopped_tasks "$PID"
				[ "$PAUSED" = none ] || PAUSED=${SIG##*|}
			fi
			wait $pid
			rc=$?
			case "$SIG|" in
			*"|$PAUSED|"*) eval "TRIED_$key=\$((\${TRIED_$key:-0} + 1))" ;;
			*) eval "MISSED_$key=\$((\${MISSED_$key:-0} + 1))" ;;
			esac
		else
			wait $pid
			rc=$?
			eval "MISSED_$key=\$((\${MISSED_$key:-0} + 1))"
		fi
		# A swap-and-back whose second half missed its pause left the
		# other file under the name for the rest of the run: another
		# scenario (a plain swap), not this one's -- not judged.
		[ "$kind" = aclfile ] && [ "$PAUSED" = none ] && continue
		# A FIFO there before the first look is the source the user
		# gave: cp reads it too, and waits for a writer.
		[ "$kind" = fifo ] && [ "$when" = early ] && [ "$rc" = 124 ] && rc=0
		what=$(breaches $rc)
		if [ -n "$what" ]; then
			eval "BREACHED_$key=\$((\${BREACHED_$key:-0} + 1))"
			echo "# $tool $mode: breach at $sc #$n on ${trace#$W/}," \
			     "${path#$W/} -> $kind${target:+ ${target#$W/}}:"
			echo "$what" | sed "s|$W/||g; s|^|#     |"
			# RACE_KEEP=DIR: keep the scene of the first breach there.
			if [ -n "${RACE_KEEP:-}" ] && [ ! -e "$RACE_KEEP" ]; then
				cp -a "$W" "$RACE_KEEP"
			fi
		fi
	done <<<"$POINTS"
}

# The modes: for each, its command for spmove and for GNU, and its
# targets (trace path, swapped path, kind, link target).
run_mode() {
	local tool=$1 mode=$2 sp gnu
	MODE=$mode
	case $mode in
	copy)
		sp=("$SP" "$H/t/a" "$O/a"); gnu=("$GNU_CP" "$H/t/a" "$O/a")
		set -- "$H/t/a $H/t/a link $W/vault/secret" "$H/t/a $H/t/a fifo -" \
			"$H/t/a $H/t/a file -" ;;
	dest-link)
		sp=("$SP" "$S/f" "$H/report"); gnu=("$GNU_CP" "$S/f" "$H/report")
		set -- "$H/report $H/report link $W/victim/passwd" ;;
	into-dir)
		sp=("$SP" "$S/conf" "$S/f" "$H/docs"); gnu=("$GNU_CP" "$S/conf" "$S/f" "$H/docs")
		set -- "$H/docs $H/docs link $W/victim/etc" ;;
	-r)
		sp=("$SP" -r "$S/t" "$H/new"); gnu=("$GNU_CP" -r "$S/t" "$H/new")
		set -- "$H/new $H/new link $W/victim/etc" "$H/new $H/new rdir:late -" ;;
	-a)
		sp=("$SP" -a "$H/src/docs" "$H/"); gnu=("$GNU_CP" -a "$H/src/docs" "$H/")
		set -- "$H/docs $H/docs link $W/victim/etc" ;;
	-p)
		sp=("$SP" -rp "$H/src/docs" "$H/"); gnu=("$GNU_CP" -rp "$H/src/docs" "$H/")
		set -- "$H/docs $H/docs link $W/victim/etc" ;;
	move-1fs)
		sp=("$SP" --remove-source "$H/t" "$O/t"); gnu=("$GNU_MV" "$H/t" "$O/t")
		set -- "$H/t $H/t link $W/vault" ;;
	move-2fs)
		sp=("$SP" --remove-source "$H/t" "$M/"); gnu=("$GNU_MV" "$H/t" "$M/")
		set -- "$H/t/a $H/t/a link $W/vault/secret" \
			"$H/t/sub/secret $H/t/sub link $W/vault" \
			"$H/t/sub $H/t/sub link $W/victim/etc" "$H/t $H/t rdir:late -" ;;
	workers)
		sp=("$SP" -r --parallel=2 "$H/t" "$O/t"); gnu=("$GNU_CP" -r "$H/t" "$O/t")
		set -- "$H/t/a $H/t/a link $W/vault/secret" "$H/t/a $H/t/a fifo -" \
			"$H/t/sub/secret $H/t/sub link $W/vault" ;;
	walker)
		sp=("$SP" -r -v "$H/t" "$O/t"); gnu=("$GNU_CP" -r -v "$H/t" "$O/t")
		set -- "$H/t/a $H/t/a link $W/vault/secret" "$H/t/a $H/t/a fifo -" \
			"$H/t/sub/secret $H/t/sub link $W/vault" ;;
	onto)
		# Onto nobody's tree: each name is looked at by a worker, through
		# a descriptor, not by the walker.
		sp=("$SP" -r --parallel=2 "$S/t" "$H/"); gnu=("$GNU_CP" -r "$S/t" "$H/")
		set -- "$H/t/a $H/t/a link $W/victim/passwd" \
			"$H/t/conf $H/t/conf link $W/victim/etc/conf" \
			"$H/t/sub $H/t/sub link $W/victim/etc" ;;
	twins | twins-par)
		# Onto nobody's copy of the same tree, on the tmpfs (in memory:
		# on a disk, files just written are replaced): every file is
		# found to hold its source's bytes and left as it is (copy.c's
		# left_unchanged()), by the walker or by a worker.
		local par=(); [ "$mode" = twins-par ] && par=(--parallel=2)
		sp=("$SP" -rT "${par[@]}" "$S/t" "$M/u"); gnu=("$GNU_CP" -rT "$S/t" "$M/u")
		set -- "$M/u/a $M/u/a link $W/victim/passwd" \
			"$M/u/conf $M/u/conf link $W/victim/etc/conf" \
			"$M/u/sub $M/u/sub link $W/victim/etc" ;;
	slash-r)
		sp=("$SP" -r "$S/t" "$H/backup/"); gnu=("$GNU_CP" -r "$S/t" "$H/backup/")
		set -- "$H/backup $H/backup link:late $W/victim/etc" \
			"$H/backup $H/backup rdir:late -" ;;
	slash-mv)
		sp=("$SP" --remove-source "$H/t/" "$M/"); gnu=("$GNU_MV" "$H/t/" "$M/")
		set -- "$H/t $H/t link $W/vault" "$H/t $H/t rdir:late -" ;;
	in-place)
		sp=("$SP" --in-place "$W/vault/secret" "$H/new")
		gnu=("$GNU_CP" "$W/vault/secret" "$H/new")
		set -- "$H/new $H/new file:late -" ;;
	parents)
		sp=(env -C "$S" "$SPCP" --parents pa/f "$H/")
		gnu=(env -C "$S" "$GNU_CP" --parents pa/f "$H/")
		set -- "$H/pa $H/pa link:late $W/vault/secret" "$H/pa $H/pa rdir:late -" ;;
	attr-only)
		sp=("$SPCP" -p --attributes-only "$H/docs/readme" "$H/report")
		gnu=("$GNU_CP" -p --attributes-only "$H/docs/readme" "$H/report")
		set -- "$H/report $H/report link:late $W/victim/passwd" ;;
	attr-only-hl)
		sp=("$SPCP" -p --attributes-only "$H/docs/readme" "$H/hl")
		gnu=("$GNU_CP" -p --attributes-only "$H/docs/readme" "$H/hl")
		set -- "$H/hl $H/hl file -" ;;
	backup-num)
		sp=("$SP" --backup=numbered "$S/f" "$H/mine")
		gnu=("$GNU_CP" --backup=numbered "$S/f" "$H/mine")
		set -- "$H/mine $H/mine link $W/victim/passwd" ;;
	backup-posix)
		sp=(env POSIXLY_CORRECT=1 "$SP" -b "$S/f" "$H/mine")
		gnu=(env POSIXLY_CORRECT=1 "$GNU_CP" -b "$S/f" "$H/mine")
		set -- "$H/mine $H/mine link $W/victim/passwd" ;;
	bf)
		sp=("$SPCP" -bf "$H/rf" "$H/rf"); gnu=("$GNU_CP" -bf "$H/rf" "$H/rf")
		set -- "$H/rf~ $H/rf~ link $W/victim/passwd" ;;
	link)
		sp=("$SPCP" -rl "$H/t" "$H/lt"); gnu=("$GNU_CP" -rl "$H/t" "$H/lt")
		# cp -l follows the tree's links (as GNU's does): one there at the
		# first look is linked to, so only the later points count.
		set -- "$H/lt $H/lt link:late $W/victim/etc" "$H/t/a $H/t/a link:late $W/vault/secret" ;;
	symlink)
		sp=("$SPCP" -s "$S/f" "$H/sl"); gnu=("$GNU_CP" -s "$S/f" "$H/sl")
		set -- "$H/sl $H/sl link $W/victim/passwd" ;;
	special-a)
		sp=("$SPCP" -a "$S/fifo" "$S/null" "$S/sock" "$H/")
		gnu=("$GNU_CP" -a "$S/fifo" "$S/null" "$S/sock" "$H/")
		set -- "$H/fifo $H/fifo link $W/victim/passwd" \
			"$H/null $H/null link $W/victim/passwd" \
			"$H/sock $H/sock link $W/victim/passwd" ;;
	special-mv)
		sp=("$SP" --remove-source "$M/fifo" "$M/null" "$M/sock" "$H/")
		gnu=("$GNU_MV" "$M/fifo" "$M/null" "$M/sock" "$H/")
		set -- "$H/fifo $H/fifo link $W/victim/passwd" \
			"$H/null $H/null link $W/victim/passwd" \
			"$H/sock $H/sock link $W/victim/passwd" ;;
	hardlinks)
		sp=("$SPCP" -a "$H/hls" "$H/hlc"); gnu=("$GNU_CP" -a "$H/hls" "$H/hlc")
		set -- "$H/hlc $H/hlc link:late $W/victim" "$H/hlc $H/hlc rdir:late -" ;;
	acl)
		sp=("$SP" "$W/vault/secret" "$H/rf"); gnu=("$GNU_CP" "$W/vault/secret" "$H/rf")
		set -- "$H/rf $H/rf aclfile:late -" ;;
	*)
		echo "# unknown mode $mode"; return 1 ;;
	esac
	case $mode in backup-*|bf) STRICT=1 ;; *) STRICT= ;; esac
	local t trace path kind target
	for t; do
		read -r trace path kind target <<<"$t"
		[ "$target" = - ] && target=
		if [ "$tool" = spmove ]; then
			race_target "$tool" "$mode" "$trace" "$path" "$kind" "$target" -- "${sp[@]}"
		else
			race_target "$tool" "$mode" "$trace" "$path" "$kind" "$target" -- "${gnu[@]}"
		fi
	done
}

get() { eval "echo \${$1_${2//[^a-z0-9]/_}:-0}"; }

echo "# spmove: $SP"
echo "# GNU: $GNU_CP ($("$GNU_CP" --version | head -1)), $GNU_MV ($("$GNU_MV" --version | head -1))"
for mode in $RACE_MODES; do
	run_mode spmove "$mode"
	[ "$RACE_GNU" = no ] || run_mode gnu "$mode"
done

if [ "$RACE_POINTS" -gt 0 ]; then
	sampled="at most $RACE_POINTS a target"
else
	sampled="all of them"
fi
echo "# points: the race points, system calls touching the raced paths"
echo "# (SYSCALL, Nth); tried: those run ($sampled) and swapped while"
echo "# paused; missed: pause not reached, or over before the swap;"
echo "# breaches: runs with a breach"
version() { "$1" --version | sed -n '1s/.* //p'; }
printf '# %-10s | %-29s | %-29s\n' "" "spmove" \
	"GNU cp $(version "$GNU_CP") / mv $(version "$GNU_MV")"
printf '# %-10s | %6s %6s %6s %8s | %6s %6s %6s %8s\n' mode points tried missed breaches \
	points tried missed breaches
for mode in $RACE_MODES; do
	printf '# %-10s | %6s %6s %6s %8s | %6s %6s %6s %8s\n' "$mode" \
		"$(get CALLS spmove_"$mode")" "$(get TRIED spmove_"$mode")" \
		"$(get MISSED spmove_"$mode")" "$(get BREACHED spmove_"$mode")" \
		"$(get CALLS gnu_"$mode")" "$(get TRIED gnu_"$mode")" \
		"$(get MISSED gnu_"$mode")" "$(get BREACHED gnu_"$mode")"
done
for mode in $RACE_MODES; do
	ok "spmove $mode: race points tried" test "$(get TRIED spmove_"$mode")" -gt 0
	check_eq "spmove $mode: breaches" 0 "$(get BREACHED spmove_"$mode")"
done
done_testing
