# SPDX-License-Identifier: GPL-2.0-or-later
# spmove --stats names the paths that ran and, when one of them was
# vmsplice or gift, says whether this kernel's vmsplice copied the pages
# (upstream's plain-copy vmsplice, the 7.2 cycle): asked of the kernel with
# a write after the vmsplice, never assumed.  Here: the answer matches
# --probe's (its pagemap and write-after measurements), and under a
# preloaded vmsplice that copies, as that kernel's does (a write(2) of the
# same bytes), the note appears, the JSON says so, and the data is whole.
. "$top_srcdir/tests/lib.sh"
command -v gcc >/dev/null || skip "needs gcc to build the preloaded library"
[ -z "${SANITIZERS:-}" ] || skip "a preloaded library does not mix with the sanitizers' runtime"
cat >copying.c <<'C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/uio.h>
/* vmsplice as a plain copy, as upstream made it: the bytes are written
 * into the pipe, and the pages stay the caller's. */
ssize_t vmsplice(int fd, const struct iovec *iov, unsigned long n, unsigned int flags)
{
	(void)flags;
	return writev(fd, iov, (int)n);
}
C
gcc -shared -fPIC -o copying.so copying.c || skip "cannot build the preloaded library"
bin=$(real_bin spmove)
use_built_library
NOTE="this kernel's vmsplice copies the pages"

make_random src 3000000
# What --probe measured for vmsplice of user memory on this kernel.
"$SPMOVE" --probe --json . >probe.json 2>/dev/null
probe=$(python3 -c 'import json; print(json.load(open("probe.json"))["pages"]["vmsplice_anon"]["verdict"])' 2>/dev/null)
for method in vmsplice gift; do
	rm -f dst
	run_cmd out err "$SPMOVE" --method=$method --stats --json src dst
	check_eq "$method: exit 0" 0 "$RC"
	same_files "$method: the copy" src dst
	said=$(python3 -c 'import json,sys; print(json.load(open("err"))["vmsplice_copies"])')
	case $probe in
	copied) check_eq "$method: vmsplice_copies as --probe says ($probe)" True "$said" ;;
	shared) check_eq "$method: vmsplice_copies as --probe says ($probe)" False "$said" ;;
	*) ok "$method: --probe gave no verdict ($probe); the note says $said" true ;;
	esac

	rm -f dst
	run_cmd out err env LD_PRELOAD="$T_DIR/copying.so" "$bin" --method=$method --stats src dst
	check_eq "$method, copying vmsplice: exit 0" 0 "$RC"
	same_files "$method, copying vmsplice: the copy" src dst
	ok "$method, copying vmsplice: the note" grep -q "$NOTE" err
	rm -f dst
	run_cmd out err env LD_PRELOAD="$T_DIR/copying.so" "$bin" --method=$method --stats --json src dst
	check_eq "$method, copying vmsplice: JSON" True \
		"$(python3 -c 'import json,sys; print(json.load(open("err"))["vmsplice_copies"])')"
done
# Paths without vmsplice ask nothing and note nothing.
rm -f dst
run_cmd out err "$SPMOVE" --method=splice --stats --json src dst
check_eq "splice: no vmsplice_copies member" False \
	"$(python3 -c 'import json,sys; print("vmsplice_copies" in json.load(open("err")))')"
done_testing
