#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# libsplice.h stands on its own: it compiles in strict C11 without
# _GNU_SOURCE (the SPLICE_F_* flags included), before or after glibc's own
# definitions, as C++ too when a compiler is there, and names no tool.
. "$top_srcdir/tests/lib.sh"
CC=${CC:-cc}
command -v "$CC" >/dev/null || skip "no C compiler"
h="$top_srcdir/lib/libsplice.h"

cat >use.c <<'C'
#include <libsplice.h>
unsigned flags(void);
unsigned flags(void)
{
	struct sp_options o = { .splice_flags = SPLICE_F_MOVE | SPLICE_F_MORE };
	return o.splice_flags | SPLICE_F_NONBLOCK | SPLICE_F_GIFT;
}
C
ok "compiles in strict C11 without _GNU_SOURCE" \
	"$CC" -std=c11 -pedantic -Wall -Wextra -Werror -I"$top_srcdir/lib" -c use.c -o use.o

printf '#define _GNU_SOURCE\n#include <fcntl.h>\n' | cat - use.c >after.c
ok "compiles after glibc's SPLICE_F_* (no redefinition)" \
	"$CC" -std=gnu11 -Wall -Wextra -Werror -I"$top_srcdir/lib" -c after.c -o after.o
{ printf '#define _GNU_SOURCE\n'; cat use.c; printf '#include <fcntl.h>\n'; } >before.c
ok "compiles before glibc's SPLICE_F_* (no redefinition)" \
	"$CC" -std=gnu11 -Wall -Wextra -Werror -I"$top_srcdir/lib" -c before.c -o before.o

cat >values.c <<'C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
int main(void) { printf("%d %d %d %d\n", SPLICE_F_MOVE, SPLICE_F_NONBLOCK, SPLICE_F_MORE, SPLICE_F_GIFT); return 0; }
C
"$CC" -o values values.c && glibc=$(./values)
sed 's/#define _GNU_SOURCE//; s/#include <fcntl.h>/#include <libsplice.h>/' values.c >ours.c
"$CC" -std=c11 -I"$top_srcdir/lib" -o ours ours.c && mine=$(./ours)
check_eq "the flags have the kernel's values" "$glibc" "${mine:-}"

if command -v c++ >/dev/null; then
	printf '#include <libsplice.h>\nint f();\nint f() { return SPLICE_F_MOVE; }\n' >use.cc
	ok "compiles as C++" c++ -Wall -Werror -I"$top_srcdir/lib" -c use.cc -o usecc.o
fi

ok "names no tool" sh -c "! grep -Eiw 'spcat|sptee|spmove|acctpin' '$h'"
done_testing
