#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# acctpin killed with SIGKILL mid-run leaves its temporary directory and its
# directory in --dir behind, but no mount and no accounting; the next run
# removes them, and only them: a live run's directories, another user's and
# one without acctpin's owner file stay.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/acctpin/common.sh"
mkdir mnt
mount -t tmpfs -o size=32m aptest "$T_DIR/mnt" || skip "cannot mount a tmpfs"
at_exit "umount '$T_DIR/mnt'"

# dirs_of PID: the directories (in tmp and mnt) whose owner file names PID.
dirs_of() {
	grep -l "^$1 " tmp/acctpin.*/.acctpin-owner mnt/acctpin.*/.acctpin-owner 2>/dev/null |
		sed 's|/.acctpin-owner$||'
}

# start_race NAME: acctpin race in the background, on --dir mnt, until it
# has made both its directories; sets pid.
start_race() {
	"$ACCTPIN" race --seconds 120 --dir "$T_DIR/mnt" >"$1.out" 2>"$1.err" &
	pid=$!
	n=0
	while [ "$(dirs_of $pid | wc -l)" -lt 2 ] && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}

# sizes: every file under mnt with its size.
sizes() { find mnt -type f -printf '%p %s\n' | sort; }

# Run a, killed.
start_race a
a=$pid
check_eq "a: its two directories are there mid-run" 2 "$(dirs_of $a | wc -l)"
kill -KILL $a
wait $a
check_eq "a: killed" 137 "$?"
sleep 1  # the sandbox dies of the parent's death
check_eq "a: its two directories are left" 2 "$(dirs_of $a | wc -l)"
check_eq "a: no mount left" 0 "$(grep -c "$T_DIR/[tm][mn][pt]/acctpin" /proc/mounts)"
sizes >before
sh -c 'exit 3'
"$ACCTPIN" --version >/dev/null
sizes >after
same_files "a: accounting is off (no record appended)" before after
a_dirs=$(dirs_of $a)

# Run b, the next one, removes them; it stays alive while more start.
start_race b
b=$pid
b_dirs=$(dirs_of $b)
for dir in $a_dirs; do
	ok "b: removed a's $dir" test ! -e "$dir"
	ok "b: said it removed a's $dir" grep -qxF \
		"acctpin: note: removed $T_DIR/$dir, left by a run (pid $a) that was killed" b.err
done

# Run c, killed, its temporary directory then given to another user.
start_race c
c=$pid
kill -KILL $c
wait $c
sleep 1
c_tmp=$(dirs_of $c | grep '^tmp/')
chown nobody "$c_tmp"

# A directory without the owner file.
mkdir tmp/acctpin.manual

c_mnt=$(dirs_of $c | grep '^mnt/')

# Run d cleans up what c left, and only that.
run_cmd d.out d.err "$ACCTPIN" race --seconds 1 --dir "$T_DIR/mnt"
check_eq "d: status 0" 0 "$RC"
ok "d: removed c's directory in DIR, still ours" test -n "$c_mnt" -a ! -e "$c_mnt"
check_eq "d: said so, and nothing else" \
	"acctpin: note: removed $T_DIR/$c_mnt, left by a run (pid $c) that was killed" "$(cat d.err)"
ok "d: did not remove b's directories" test -z "$(grep -F "(pid $b)" d.err)"
# b races acct(2) against unmounts and may itself end with a finding under
# load: its directories are checked while it runs.
if kill -0 $b 2>/dev/null; then
	b_live=$b_dirs
	for dir in $b_dirs; do
		ok "d: kept $dir of b, which runs" test -f "$dir/.acctpin-owner"
	done
else
	b_live=
	echo "# b ended on its own (status in its output):"
	sed 's/^/# b: /' b.err b.out
fi
ok "d: kept c's temporary directory, now another user's" test -d "$c_tmp"
ok "d: kept a directory without the owner file" test -d tmp/acctpin.manual
check_eq "d: left nothing of its own" \
	"$(printf '%s\n' $b_live "$c_tmp" tmp/acctpin.manual | sort)" \
	"$(ls -d tmp/acctpin.* mnt/acctpin.* 2>/dev/null | sort)"

# b ends cleanly and removes its own.
if [ -n "$b_live" ]; then
	kill -TERM $b
	wait $b
	check_eq "b: died of SIGTERM" 143 "$?"
fi
wait $b 2>/dev/null
for dir in $b_dirs; do
	ok "b: removed its $dir" test ! -e "$dir"
done
rm -rf "$c_tmp" tmp/acctpin.manual
check_eq "sysctl unchanged" "$sysctl_before" "$(acct_sysctl)"
done_testing
