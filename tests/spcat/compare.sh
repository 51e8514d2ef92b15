#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# spcat side by side with GNU cat: sizes around page and pipe boundaries,
# several operands with - among them, every kind of input and output.
. "$top_srcdir/tests/lib.sh"

# same_as_cat DESCRIPTION ARGS...: spcat ARGS and cat ARGS (stdin from $IN
# when set) give the same stdout, stderr (program name aside) and status.
same_as_cat() {
	local what=$1; shift
	"$SPCAT" "$@" <"${IN:-/dev/null}" >sp.out 2>sp.err; local sp_rc=$?
	cat "$@" <"${IN:-/dev/null}" >cat.out 2>cat.err; local cat_rc=$?
	sed 's/^cat:/spcat:/' cat.err >cat.err.renamed
	ok "$what: same output" cmp -s sp.out cat.out
	ok "$what: same messages" cmp -s sp.err cat.err.renamed
	check_eq "$what: same status" "$cat_rc" "$sp_rc"
}

for size in 0 1 4095 4096 4097 65535 65536 65537 1048575 1048576 1048577 5242883; do
	make_random "f$size" "$size"
	same_as_cat "file of $size bytes" "f$size"
	"$SPCAT" "f$size" | cmp -s - "f$size"
	ok "file of $size bytes into a pipe" test $? = 0
	cat "f$size" | "$SPCAT" >pipe.out
	same_files "pipe of $size bytes into a file" pipe.out "f$size"
done

IN=f4097 same_as_cat "operands with - among them" f1 - f65537 - f0
IN=/dev/null same_as_cat "no operand, empty stdin"
IN=f65536 same_as_cat "no operand" 
IN=f65536 same_as_cat "only -" -
same_as_cat "the same file twice" f1048577 f1048577

# Appending: splice refuses O_APPEND outputs; the bytes must still append.
printf 'first line\n' >log.sp
cp log.sp log.cat
"$SPCAT" f65537 f1 >>log.sp
cat f65537 f1 >>log.cat
same_files ">> appends" log.sp log.cat

# Sockets on either side (socat gives its child a socketpair).
if command -v socat >/dev/null; then
	socat -u "OPEN:f1048577" SYSTEM:"exec '$SPCAT' - >sock-in.out"
	same_files "socket as input" sock-in.out f1048577
	socat -u SYSTEM:"exec '$SPCAT' f1048577" "CREATE:sock-out.out"
	same_files "socket as output" sock-out.out f1048577
else
	echo "# socat missing: socket checks left out"
fi

# Character devices, procfs and sysfs files.
"$SPCAT" --length 3M /dev/zero | cmp -s - f3zeros 2>/dev/null
head -c 3145728 /dev/zero >zeros
"$SPCAT" --length 3M /dev/zero >z.out
same_files "/dev/zero with --length" z.out zeros
"$SPCAT" f5242883 >/dev/null
ok "/dev/null as output" test $? = 0
for f in /proc/version /proc/sys/kernel/ostype /proc/sys/fs/pipe-max-size /sys/kernel/mm/transparent_hugepage/enabled /sys/devices/system/cpu/online; do
	[ -r "$f" ] || continue
	same_as_cat "$f" "$f"
done

# A tty as output, when script(1) can make one.
if command -v script >/dev/null && script -qec true /dev/null >/dev/null 2>&1; then
	script -qec "'$SPCAT' f4097" /dev/null >tty.sp 2>&1
	script -qec "cat f4097" /dev/null >tty.cat 2>&1
	same_files "a tty as output" tty.sp tty.cat
fi

# Options that change only how, not what.
"$SPCAT" --no-splice f1048577 - <f4097 >ns.out
cat f1048577 f4097 >ns.want
same_files "--no-splice" ns.out ns.want
"$SPCAT" --pipe-size 4096 f1048577 >ps.out
same_files "--pipe-size 4096" ps.out f1048577
"$SPCAT" -u f4097 >u.out
same_files "-u is accepted" u.out f4097

done_testing
