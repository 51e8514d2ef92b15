#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The fault-injection matrix for spcat (see tests/fault/matrix.sh): files,
# standard input, a pipe on either side and an append-mode output.
. "$top_srcdir/tests/fault/matrix.sh"
BIN=$(real_bin spcat)

# Inputs big enough for several calls through a 64 KiB pipe, each from its
# own quarter of the byte values (fm_random): with plain random data, one
# run in 256 had the next input begin with the byte that would have come
# next in the one cut short, and fm_pieces reported bytes made up.
fm_random "$T_DIR/a" 200000 0
fm_random "$T_DIR/b" 70000 1
fm_random "$T_DIR/c" 5000 2
inputs() { cp "$T_DIR/a" "$T_DIR/b" "$T_DIR/c" .; }

# Files and standard input to a file: spcat a - b <c >out.
files_setup() { inputs; }
files_run() { $FM_RUN "$BIN" --pipe-size 64K a - b <c >out 2>err; FM_RC=$?; }
files_ok() { cat a c b >want && fm_same want out; }
files_failed() { fm_pieces out a c b; }
fm_matrix spcat files 'a|b|-|standard input|standard output|write error'

# A file to a pipe: spcat a b | cat >out.
topipe_setup() { inputs; }
topipe_run() {
	{ $FM_RUN "$BIN" --pipe-size 64K a b 2>err; echo $? >rc; } | cat >out
	FM_RC=$(cat rc)
}
topipe_ok() { cat a b >want && fm_same want out; }
topipe_failed() { fm_pieces out a b; }
fm_matrix spcat topipe 'a|b|standard output|write error'

# A pipe to a file: cat a | spcat >out.
frompipe_setup() { inputs; }
frompipe_run() { cat a | $FM_RUN "$BIN" --pipe-size 64K >out 2>err; FM_RC=$?; }
frompipe_ok() { fm_same a out; }
frompipe_failed() { fm_pieces out a; }
fm_matrix spcat frompipe '-|standard input|standard output|write error'

# An output in append mode, which splice refuses: spcat a b >>out.
append_setup() { inputs; printf 'old line\n' >old; cp old out; }
append_run() { $FM_RUN "$BIN" a b >>out 2>err; FM_RC=$?; }
append_ok() { cat old a b >want && fm_same want out; }
append_failed() { fm_pieces out old a b; }
fm_matrix spcat append 'a|b|standard output|write error'

fm_done
