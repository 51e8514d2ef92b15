#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# spcat's text options byte for byte against GNU cat ($GNU_CAT, default
# tests/lib.sh's gnu cat: the 9.11 peer build where there is one, else the
# system's, whose 9.1 shares 9.11's behaviour for these options): every
# option alone and by its long name, every pair, on inputs with all 256 byte
# values, lines longer than a read, empty lines and carriage returns at the
# boundaries of reads and of files, no final newline, several operands with -
# among them; then random inputs from a fixed seed with random option sets.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null || skip "no python3"
GNU_CAT=${GNU_CAT:-$(gnu cat)}
"$GNU_CAT" --version 2>/dev/null | head -n 1 | grep -q 'GNU coreutils' ||
	skip "$GNU_CAT is not GNU cat"
echo "# reference: $("$GNU_CAT" --version | head -n 1)"

# The inputs.  spcat reads 128 KiB at a time: b* put a CR, an LF or both
# at the end of the first read and on either side of it.
python3 - <<'EOF' || exit 99
import random
R = 131072
def put(name, data):
    with open(name, "wb") as f:
        f.write(data)
put("all256", bytes(range(256)) * 4 + b"\n" + b"\n".join(bytes([b]) * 3 for b in range(256)))
put("long", b"L" * (3 * R + 17) + b"\tend\r\n" + b"x" * (R - 1) + b"\n")
put("b-cr-lf", b"a" * (R - 1) + b"\r\n" + b"next\n")
put("b-cr-x", b"a" * (R - 1) + b"\rx\n")
put("b-lf", b"a" * (R - 1) + b"\n\n\n\nafter\n")
put("b-lf2", b"a" * (R - 2) + b"\n\n\n\r\n")
put("empty", b"")
put("blank3", b"\n\n\n")
put("noeol", b"no newline\tat the end")
put("cr-end", b"ends in a CR\r")
put("lf-start", b"\nstarts with an empty line\n\n")
put("crlf", b"a\rb\r\nc\n\r\nd\r")
put("stdin", b"\n\nfrom stdin\r\n\n\n\t\x7f\x80\xff")
EOF

# same DESCRIPTION ARGS...: spcat ARGS and GNU cat ARGS, standard input
# from the file stdin, give the same output, the same messages (the
# program's name aside) and the same status.  $OUT, when set, is where
# standard output goes instead (/dev/full).
same() {
	local what=$1; shift
	"$SPCAT" "$@" <stdin >"${OUT:-sp.out}" 2>sp.err; local sp_rc=$?
	"$GNU_CAT" "$@" <stdin >"${OUT:-cat.out}" 2>cat.err; local cat_rc=$?
	sed "s|^$GNU_CAT:|spcat:|; s|^cat:|spcat:|" cat.err >cat.err.renamed
	if [ -n "${OUT:-}" ] || cmp -s sp.out cat.out; then
		local out_same=true
	else
		local out_same=false
	fi
	if $out_same && cmp -s sp.err cat.err.renamed && [ "$sp_rc" = "$cat_rc" ]; then
		ok "$what" true
	else
		ok "$what (status $sp_rc, cat's $cat_rc; output: $(cmp sp.out cat.out 2>&1 | head -n 1); messages: $(head -n 1 sp.err) / $(head -n 1 cat.err.renamed))" false
	fi
}

# The operand lists each option set meets.
set -- \
	"all256" \
	"long" \
	"b-cr-lf b-cr-x b-lf b-lf2" \
	"blank3 empty blank3 lf-start blank3" \
	"noeol noeol cr-end lf-start cr-end crlf cr-end noeol" \
	"cr-end - cr-end blank3 -" \
	"crlf empty - all256" \
	"noeol missing crlf" \
	"blank3 dir - noeol"
mkdir dir
operand_sets=$#

letters="A b e E n s t T u v"
for a in $letters; do
	for operands; do
		# shellcheck disable=SC2086
		same "-$a on $operands" -$a $operands
	done
done
for long in show-all number-nonblank show-ends number squeeze-blank show-tabs show-nonprinting; do
	same "--$long" --$long crlf all256 - blank3 cr-end
done
# Every pair, each on every operand list.
for a in $letters; do
	for b in $letters; do
		[ "$a" \< "$b" ] || continue
		for operands; do
			# shellcheck disable=SC2086
			same "-$a -$b on $operands" -$a -$b $operands
		done
	done
done
same "all of them" -AbeEnstTuv crlf all256 - long blank3 noeol

# Into a full device: "write error" once, at the first operand, and the
# run ends there, as with cat.
for a in $letters; do
	OUT=/dev/full same "-$a into /dev/full" -$a long crlf blank3
	OUT=/dev/full same "-$a into /dev/full, a short input" -$a noeol blank3
done

# Line numbers wider than six columns.
python3 -c 'import sys; sys.stdout.write("x\n\n" * 600000)' >many || exit 99
same "-n past line 999999" -n many
same "-b past line 999999" -b many many

# Random inputs from a fixed seed: short lines, runs of LF and CR, every
# byte value, a random set of options.
python3 - <<'EOF' || exit 99
import random
r = random.Random(25)
pieces = [b"\n", b"\n\n\n", b"\r", b"\r\n", b"\t", b"abc", b"\x7f", b"\x80\xff", b"\x00"]
for i in range(40):
    data = bytearray()
    for _ in range(r.randrange(1, 4000)):
        if r.random() < 0.6:
            data += r.choice(pieces)
        else:
            data += bytes([r.randrange(256)]) * r.randrange(1, 5)
    if r.random() < 0.2:
        data += b"y" * r.randrange(131000, 140000)
    with open(f"fuzz{i}", "wb") as f:
        f.write(data)
    opts = "".join(c for c in "AbeEnstTuv" if r.random() < 0.35) or "n"
    with open(f"fuzz{i}.opts", "w") as f:
        f.write(opts)
EOF
for i in $(seq 0 39); do
	opts=$(cat "fuzz$i.opts")
	j=$(((i + 1) % 40))
	same "random input $i with -$opts" "-$opts" "fuzz$i" - "fuzz$j"
done

# The text options go through user memory, the others still splice.
if [ -n "$STRACE" ]; then
	use_built_library
	spcat=$(real_bin spcat)
	"$STRACE" -f -e trace=splice,read -o trace.n "$spcat" -n long >/dev/null
	ok "-n reads" grep -q '^[0-9]* *read(3' trace.n
	ok "-n does not splice" sh -c '! grep -q "splice(" trace.n'
	"$STRACE" -f -e trace=splice -o trace.u "$spcat" -u long | cat >/dev/null
	ok "-u alone still splices" grep -q 'splice(' trace.u
fi

echo "# $operand_sets operand lists"
done_testing
