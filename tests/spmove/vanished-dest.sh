# SPDX-License-Identifier: GPL-2.0-or-later
# spmove: a destination that was there when looked at and is gone when the
# copy replaces it (removed meanwhile, as on NFS) is made anew, as GNU cp
# does (coreutils' tests/cp/nfs-removal-race.sh): a preloaded library says
# "d" exists, with the stat of another file.  It stands in for every libc
# call that can look at a name (fstatat, statx, stat and lstat, and their
# 64-bit names), so that it follows the call spmove makes; when none of
# them is called for "d", the test fails rather than skips.
. "$top_srcdir/tests/lib.sh"
command -v gcc >/dev/null || skip "needs gcc to build the preloaded library"
[ -z "${SANITIZERS:-}" ] || skip "a preloaded library does not mix with the sanitizers' runtime"
cat >fake.c <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Whether path names "d"; notes the call that looked at it. */
static int looked_at_d(const char *path, const char *call)
{
	if (strcmp(path, "d"))
		return 0;
	FILE *f = fopen("preloaded", "a");
	if (f) {
		fprintf(f, "%s\n", call);
		fclose(f);
	}
	return 1;
}

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	return REAL(fstatat)(dirfd, looked_at_d(path, "fstatat") ? "d2" : path, st, flags);
}
int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
	return REAL(fstatat64)(dirfd, looked_at_d(path, "fstatat64") ? "d2" : path, st, flags);
}
int statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *stx)
{
	return REAL(statx)(dirfd, looked_at_d(path, "statx") ? "d2" : path, flags, mask, stx);
}
int stat(const char *path, struct stat *st)
{
	return REAL(stat)(looked_at_d(path, "stat") ? "d2" : path, st);
}
int lstat(const char *path, struct stat *st)
{
	return REAL(lstat)(looked_at_d(path, "lstat") ? "d2" : path, st);
}
int stat64(const char *path, struct stat64 *st)
{
	return REAL(stat64)(looked_at_d(path, "stat64") ? "d2" : path, st);
}
int lstat64(const char *path, struct stat64 *st)
{
	return REAL(lstat64)(looked_at_d(path, "lstat64") ? "d2" : path, st);
}
C
gcc -shared -fPIC -o fake.so fake.c -ldl || skip "cannot build the preloaded library"
bin=$(real_bin spmove)
use_built_library

touch d2
echo xyz >src
chmod 640 src
run_cmd out err env LD_PRELOAD="$T_DIR/fake.so" "$bin" -T src d
ok "the preloaded library saw spmove look at d ($(sort -u preloaded 2>/dev/null | tr '\n' ' '))" \
	test -s preloaded
check_eq "a destination gone meanwhile: exit 0" 0 "$RC"
check_eq "a destination gone meanwhile: silent" "" "$(cat err)"
check_eq "a destination gone meanwhile: made anew" xyz "$(cat d 2>/dev/null)"
check_eq "a destination gone meanwhile: the mode of a new file" \
	"$(stat -c %a src)" "$(stat -c %a d 2>/dev/null)"
ok "nothing temporary left" test -z "$(find . -name '.spmove-*')"
done_testing
