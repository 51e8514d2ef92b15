#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# acctpin dump: decoding acct_v3 files made here byte by byte, side by side
# with GNU acct's dump-acct; truncated, garbage, empty and foreign files.
. "$top_srcdir/tests/lib.sh"
TZ=UTC
export TZ

# le WIDTH VALUE: VALUE as WIDTH little-endian bytes.
le() {
	i=0
	while [ "$i" -lt "$1" ]; do
		printf "\\$(printf %03o $((($2 >> (8 * i)) & 255)))"
		i=$((i + 1))
	done
}

# rec FLAG VERSION TTY EXITCODE PID PPID COMM: one 64-byte acct_v3 record
# (uid 1000, gid 100, btime 1764732000, etime 200.0, utime 100, stime 5*8,
# mem 2476, minflt 99).
rec() {
	le 1 "$1"; le 1 "$2"; le 2 "$3"; le 4 "$4"; le 4 1000; le 4 100; le 4 "$5"; le 4 "$6"
	le 4 1764732000; le 4 0x43480000; le 2 100; le 2 8197; le 2 2476; le 2 0; le 2 0
	le 2 99; le 2 0; le 2 0
	printf '%s' "$7"
	n=${#7}
	while [ "$n" -lt 16 ]; do printf '\000'; n=$((n + 1)); done
}

{
	rec 1 3 0 768 4242 1 apm-one
	rec 16 3 0 10 4243 1 apm-signal
	rec 2 3 $((136 << 8 | 1)) 0 4244 4242 abcdefghijklmno
} >good

run_cmd out err "$ACCTPIN" dump good
check_eq "dump: exit status" 0 "$RC"
check_eq "dump: no message" "" "$(cat err)"
check_eq "dump: first line" \
	"apm-one         |v3|   100.00|    40.00|   200.00|  1000|   100|  2476.00|     0.00|    4242|       1| F   |       3|__      |Wed Dec  3 03:20:00 2025" \
	"$(sed -n 1p out)"
check_eq "dump: signal flag, no exit status" \
	"apm-signal      |v3|   100.00|    40.00|   200.00|  1000|   100|  2476.00|     0.00|    4243|       1|    X|       0|__      |Wed Dec  3 03:20:00 2025" \
	"$(sed -n 2p out)"
check_eq "dump: superuser flag, terminal, 15-character name" \
	"abcdefghijklmno |v3|   100.00|    40.00|   200.00|  1000|   100|  2476.00|     0.00|    4244|    4242|S    |       0|pts/1   |Wed Dec  3 03:20:00 2025" \
	"$(sed -n 3p out)"
if command -v dump-acct >/dev/null 2>&1; then
	dump-acct good >expected 2>&1
	same_files "dump: the same as dump-acct" expected out
fi

run_cmd json err "$ACCTPIN" dump --json good
check_eq "json: exit status" 0 "$RC"
check_eq "json: first record" \
	'{"comm":"apm-one","version":3,"flags":1,"tty":0,"exitcode":768,"uid":1000,"gid":100,"pid":4242,"ppid":1,"btime":1764732000,"etime":200.00,"utime":100,"stime":40,"mem":2476,"io":0,"rw":0,"minflt":99,"majflt":0,"swaps":0}' \
	"$(sed -n 1p json)"
check_eq "json: one object per record" 3 "$(grep -c '^{' json)"

# A process name with a newline, an escape sequence and a byte that is not
# UTF-8: shell-escaped in the text, and valid JSON (U+FFFD for the byte)
# with its exact bytes in comm_hex.
{ rec 1 3 0 0 4245 1 "$(printf 'a\nb\033[2Jc\377')"; } >hostile
run_cmd out err "$ACCTPIN" dump hostile
check_eq "hostile name: text quoted as the shell would" \
	"'a'\$'\\n''b'\$'\\033''[2Jc'\$'\\377'" "$(cut -d'|' -f1 out)"
ok "hostile name: no escape byte in the text" test "$(tr -d '\033' <out)" = "$(cat out)"
run_cmd json err "$ACCTPIN" dump --json hostile
ok "hostile name: python3 -m json.tool accepts the JSON" python3 -m json.tool json
if command -v jq >/dev/null 2>&1; then
	check_eq "hostile name: jq reads comm" '"a\nb\u001b[2Jc\ufffd"' "$(jq -a .comm json)"
	check_eq "hostile name: jq reads the exact bytes" 610a621b5b324a63ff "$(jq -r .comm_hex json)"
fi

head -c 100 good >truncated
run_cmd out err "$ACCTPIN" dump truncated
check_eq "truncated: exit status" 1 "$RC"
check_eq "truncated: message" \
	"acctpin: truncated: truncated record at byte offset 64 (36 of 64 bytes)" "$(cat err)"
check_eq "truncated: the whole record before it" 1 "$(wc -l <out)"

{ head -c 64 good; printf '%064d' 0 | tr 0 x; } >garbage
run_cmd out err "$ACCTPIN" dump garbage
check_eq "garbage: exit status" 1 "$RC"
check_eq "garbage: message" \
	"acctpin: garbage: bad record at byte offset 64: record of version 120; only version 3 (acct_v3) is supported" \
	"$(cat err)"

{ rec 0 2 0 0 1 0 old; } >version2
run_cmd out err "$ACCTPIN" dump version2
check_eq "version 2: message" \
	"acctpin: version2: bad record at byte offset 0: record of version 2; only version 3 (acct_v3) is supported" \
	"$(cat err)"

{ rec 0 $((0x83)) 0 0 1 0 big; } >bigendian
run_cmd out err "$ACCTPIN" dump bigendian
check_eq "other byte order: exit status" 1 "$RC"
check_eq "other byte order: message" \
	"acctpin: bigendian: bad record at byte offset 0: version 3 record in the other byte order (big-endian); not supported" \
	"$(cat err)"

{ rec 64 3 0 0 1 0 flags; } >badflags
run_cmd out err "$ACCTPIN" dump badflags
check_eq "unknown flags: message" \
	"acctpin: badflags: bad record at byte offset 0: unknown flag bits 0x40" "$(cat err)"

: >empty
run_cmd out err "$ACCTPIN" dump empty
check_eq "empty: exit status" 1 "$RC"
check_eq "empty: message" "acctpin: empty: empty file: no record at byte offset 0" "$(cat err)"

run_cmd out err "$ACCTPIN" dump missing good
check_eq "missing file: exit status" 1 "$RC"
check_eq "missing file: message" "acctpin: missing: No such file or directory" "$(cat err)"
check_eq "missing file: the next operand still dumped" 3 "$(wc -l <out)"

run_cmd out err "$ACCTPIN" dump - <good
check_eq "standard input: exit status" 0 "$RC"
check_eq "standard input: records" 3 "$(wc -l <out)"

head -c 10000000 /dev/zero >zeros
run_cmd out err "$ACCTPIN" dump zeros
check_eq "a large file of zeros: message" \
	"acctpin: zeros: bad record at byte offset 0: record of version 0; only version 3 (acct_v3) is supported" \
	"$(cat err)"

run_cmd out err "$ACCTPIN" dump
check_eq "no operand: exit status" 1 "$RC"
check_eq "no operand: message" "acctpin: dump: missing FILE operand
Try 'acctpin --help' for more information." "$(cat err)"
run_cmd out err "$ACCTPIN" dump --frob good
check_eq "bad option: exit status" 1 "$RC"
run_cmd out err "$ACCTPIN"
check_eq "no command: exit status" 1 "$RC"
check_eq "no command: message" "acctpin: missing command (run, race or dump)
Try 'acctpin --help' for more information." "$(cat err)"
run_cmd out err "$ACCTPIN" frob
check_eq "unknown command: exit status" 1 "$RC"
run_cmd out err "$ACCTPIN" --help
check_eq "--help: exit status" 0 "$RC"
ok "--help: names the commands" grep -q '^  or:  acctpin dump' out
run_cmd out err "$ACCTPIN" dump --help
ok "dump --help: mentions --json" grep -q -- '--json' out
run_cmd out err "$ACCTPIN" --version
ok "--version" grep -q '^acctpin (splice-utils)' out
run_cmd out err "$ACCTPIN" run --expect solaris
check_eq "bad --expect: exit status" 1 "$RC"
check_eq "bad --expect: message" "acctpin: invalid --expect: 'solaris' (linux or bsd)
Try 'acctpin --help' for more information." "$(cat err)"
run_cmd out err "$ACCTPIN" run --scenario nope
check_eq "bad --scenario: exit status" 1 "$RC"
run_cmd out err "$ACCTPIN" race --threads 0
check_eq "bad --threads: exit status" 1 "$RC"
check_eq "bad --threads: message" "acctpin: invalid thread count: '0' (1 to 64)
Try 'acctpin --help' for more information." "$(cat err)"
done_testing
