# spmove: a destination that was there when looked at and is gone when the
# copy replaces it (removed meanwhile, as on NFS) is made anew, as GNU cp
# does (coreutils' tests/cp/nfs-removal-race.sh): a preloaded fstatat(2)
# says "d" exists, with the stat of another file.
. "$top_srcdir/tests/lib.sh"
command -v gcc >/dev/null || skip "needs gcc to build the preloaded library"
[ -z "${SANITIZERS:-}" ] || skip "a preloaded library does not mix with the sanitizers' runtime"
cat >fake.c <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	static int (*real)(int, const char *, struct stat *, int);
	if (!real)
		real = (int (*)(int, const char *, struct stat *, int))dlsym(RTLD_NEXT, "fstatat");
	if (strcmp(path, "d"))
		return real(dirfd, path, st, flags);
	fclose(fopen("preloaded", "w"));
	return real(dirfd, "d2", st, flags);
}
C
gcc -shared -fPIC -o fake.so fake.c -ldl || skip "cannot build the preloaded library"
bin=$(real_bin spmove)
use_built_library

touch d2
echo xyz >src
chmod 640 src
run_cmd out err env LD_PRELOAD="$T_DIR/fake.so" "$bin" -T src d
test -f preloaded || skip "the preloaded fstatat was not called"
check_eq "a destination gone meanwhile: exit 0" 0 "$RC"
check_eq "a destination gone meanwhile: silent" "" "$(cat err)"
check_eq "a destination gone meanwhile: made anew" xyz "$(cat d 2>/dev/null)"
check_eq "a destination gone meanwhile: the mode of a new file" \
	"$(stat -c %a src)" "$(stat -c %a d 2>/dev/null)"
ok "nothing temporary left" test -z "$(find . -name '.spmove-*')"
done_testing
