#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The fault-injection matrix for sptee (see tests/fault/matrix.sh): a file
# or a pipe in, files and pipes out, an output in append mode, a
# non-blocking output pipe (poll).
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

# Standard output a non-blocking pipe that its reader starts to empty late
# (perl sets O_NONBLOCK on the pipe's write side, which sptee inherits): the
# fan-out (sp_fanout) meets EAGAIN and waits in poll.
make_random "$T_DIR/big" 2500000
nonblock_setup() { cp "$T_DIR/big" in; }
nonblock_run() {
	{ perl -MFcntl -e 'fcntl(STDOUT, F_SETFL, O_NONBLOCK) or die "fcntl: $!\n"' &&
		$FM_RUN "$BIN" o1 <in 2>err; echo $? >rc; } | { sleep 0.2; cat >out; }
	FM_RC=$(cat rc)
}
nonblock_ok() { want=in whole_or_dropped o1 out; }
nonblock_failed() { fm_pieces o1 in && fm_pieces out in; }
nonblock_reaches="poll tee"
fm_matrix sptee nonblock 'o1|standard output|read error'

fm_done
