. "$top_srcdir/tests/lib.sh"; done_testing
