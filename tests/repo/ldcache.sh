#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# "make install" rebuilds the dynamic linker's cache only when libsplice
# goes into a directory the linker searches, never for a private --prefix
# (which the tools reach through their run path), and never for a staged
# install (DESTDIR).  The install hook is run with a stand-in ldconfig that
# lists the directories it "scans" and logs every other call.
. "$top_srcdir/tests/lib.sh"
command -v make >/dev/null || skip "no make"
[ -f "$top_builddir/Makefile" ] || skip "no configured build tree"

mkdir fake sys private bin
ln -s sys sys-link
cat >fake/ldconfig <<FAKE
#!/bin/sh
if [ "\$*" = -vNX ]; then
	echo "$T_DIR/sys: (from /etc/ld.so.conf.d/test.conf:1)"
	echo "	libc.so.6 -> libc.so.6"
	echo "/nonexistent: (from <builtin>:0)"
	exit 0
fi
echo "ldconfig \$*" >>"$T_DIR/calls"
FAKE
chmod +x fake/ldconfig

# hook LIBDIR [MAKE ARGS...]: run the install hook for a library in LIBDIR
# (the links spcp and spmv go to ./bin); prints what it printed.
hook() {
	libdir=$1; shift
	: >calls
	# A make of its own, not a sub-make of make check's (whose flags, under
	# -j, have it say "Entering directory").
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	PATH=$T_DIR/fake:$PATH LDCONFIG=$T_DIR/fake/ldconfig make -s --no-print-directory -C "$top_builddir" install-exec-hook \
		bindir="$T_DIR/bin" libdir="$libdir" "$@" 2>&1
}

if [ "$(id -u)" = 0 ]; then
	out=$(hook "$T_DIR/sys")
	check_eq "root, a searched directory: the cache is rebuilt" "ldconfig " "$(cat calls)"
	check_eq "root, a searched directory: nothing said" "" "$out"
	out=$(hook "$T_DIR/sys-link")
	check_eq "root, a link to a searched directory: the cache is rebuilt" "ldconfig " "$(cat calls)"
	out=$(hook "$T_DIR/private")
	check_eq "root, a private prefix: the cache is left alone" "" "$(cat calls)"
	check_eq "root, a private prefix: nothing said" "" "$out"
	out=$(hook "$T_DIR/sys" DESTDIR="$T_DIR/stage")
	check_eq "root, DESTDIR: the cache is left alone" "" "$(cat calls)"
fi
if command -v setpriv >/dev/null &&
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		sh -c ": <'$top_srcdir/contrib/ldcache-refresh'" 2>/dev/null; then
	chown nobody "$T_DIR" "$T_DIR/bin"
	out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups \
		env LDCONFIG="$T_DIR/fake/ldconfig" sh "$top_srcdir/contrib/ldcache-refresh" "$T_DIR/sys")
	check_eq "a user, a searched directory: a note, no call" \
		"note: run ldconfig as root so that the tools find libsplice.so.0 in $T_DIR/sys|" \
		"$out|$(cat calls)"
	out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups \
		env LDCONFIG="$T_DIR/fake/ldconfig" sh "$top_srcdir/contrib/ldcache-refresh" "$T_DIR/private")
	check_eq "a user, a private prefix: nothing said" "" "$out"
else
	echo "# the checks as the user nobody are left out (no setpriv, or nobody cannot read the tree)"
fi
done_testing
