# SPDX-License-Identifier: GPL-2.0-or-later
# spmove --remove-source to a new name with standard error on a terminal
# (where --progress is on by default): finding the destination's device
# for the progress total once crashed spmove (a null pointer, found by
# the power-cut VM harness, whose console is a terminal).
. "$top_srcdir/tests/lib.sh"
command -v script >/dev/null || skip "script missing (package bsdutils)"
mkdir src && echo data > src/f
script -qec "'$SPMOVE' --remove-source src dst" /dev/null > out 2>&1
check_eq "exit status on a terminal" 0 $?
check_eq "the tree is moved" data "$(cat dst/f 2>&1)"
ok "the source is gone" test ! -e src
done_testing
