#!/bin/sh
# The fault-injection matrix for sptee (see tests/fault/matrix.sh): a file
# or a pipe in, files and pipes out, an output in append mode.
. "$top_srcdir/tests/fault/matrix.sh"
BIN=$(real_bin sptee)

make_random "$T_DIR/in" 300000
inputs() { cp "$T_DIR/in" .; }
# The messages are GNU tee's: "read error" is standard input's side.

# whole_or_dropped FILE...: each output is whole -- or, after EPIPE, may have
# been dropped silently: in the default mode GNU tee takes EPIPE for a
# reader that went away (SIGPIPE would have ended it) and goes on.
whole_or_dropped() {
	local f
	for f; do
		fm_same "$want" "$f" >/dev/null && continue
		[ "$FM_ERRNO" = EPIPE ] && fm_pieces "$f" "$want" && continue
		fm_same "$want" "$f"
		return 1
	done
}

# A file in, two files and standard output (a file) out.
files_setup() { inputs; }
files_run() { $FM_RUN "$BIN" o1 o2 <in >out 2>err; FM_RC=$?; }
files_ok() { want=in whole_or_dropped o1 o2 out; }
files_failed() { fm_pieces o1 in && fm_pieces o2 in && fm_pieces out in; }
fm_matrix sptee files 'o1|o2|standard output|read error'

# A pipe in, a file and a pipe out.
pipes_setup() { inputs; }
pipes_run() {
	{ cat in | $FM_RUN "$BIN" o1 2>err; echo $? >rc; } | cat >out
	FM_RC=$(cat rc)
}
pipes_ok() { want=in whole_or_dropped o1 out; }
pipes_failed() { fm_pieces o1 in && fm_pieces out in; }
fm_matrix sptee pipes 'o1|standard output|read error'

# -a: an output in append mode (written, not spliced) next to a new one.
append_setup() { inputs; printf 'old line\n' >old; cp old o1; }
append_run() { $FM_RUN "$BIN" -a o1 <in >out 2>err; FM_RC=$?; }
append_ok() {
	cat old in >want && want=want whole_or_dropped o1 && want=in whole_or_dropped out
}
append_failed() { fm_pieces o1 old in && fm_pieces out in; }
fm_matrix sptee append 'o1|standard output|read error'

fm_done
