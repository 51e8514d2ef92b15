# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the privileged acctpin tests (sourced after tests/lib.sh).
require_root
# acctpin makes its temporary directory here, so a test can see it go.
mkdir tmp
TMPDIR=$T_DIR/tmp
export TMPDIR

# acct_sysctl: /proc/sys/kernel/acct, read under acctpin's lock, never in
# the middle of another (parallel) run's change.
acct_sysctl() { flock -s /proc/sys/kernel/acct cat /proc/sys/kernel/acct; }
sysctl_before=$(acct_sysctl)

# wait_for PATTERN FILE: until FILE has a line matching PATTERN (60 s at
# most: under a loaded make check, making and mounting ext4 on a loop
# device has taken more than 10 s).
wait_for() {
	n=0
	while ! grep -q "$1" "$2" 2>/dev/null && [ $n -lt 600 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}
