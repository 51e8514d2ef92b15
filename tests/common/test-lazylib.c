/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the libraries loaded on first use (lazylib.h): a symbol
 * of a library found by soname; a missing library or symbol fails the
 * call (NULL, errno ELIBACC) and the library is not tried again; a
 * preload, for tools whose every run needs the library, exits with the
 * dynamic linker's status instead. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lazylib.h"
#include "harness.h"

START_TEST(finds_a_symbol_by_soname)
{
	struct lazy_lib libc = { .soname = "libc.so.6" };
	void *sym = lazy_symbol(&libc, "getpid");
	ck_assert_ptr_nonnull(libc.handle);
	ck_assert_ptr_eq(sym, (void *)(uintptr_t)getpid);
	void *handle = libc.handle;
	lazy_symbol(&libc, "getppid");
	ck_assert_ptr_eq(libc.handle, handle);
}
END_TEST

START_TEST(a_missing_library_fails_the_call)
{
	struct lazy_lib missing = { .soname = "libsplice-utils-missing.so.9" };
	errno = 0;
	ck_assert_ptr_null(lazy_symbol(&missing, "anything"));
	ck_assert_int_eq(errno, ELIBACC);
	ck_assert(missing.failed);
	ck_assert_ptr_null(missing.handle);
	/* Not tried again: still NULL and ELIBACC. */
	errno = 0;
	ck_assert_ptr_null(lazy_symbol(&missing, "anything"));
	ck_assert_int_eq(errno, ELIBACC);
}
END_TEST

START_TEST(a_missing_symbol_fails_the_call)
{
	struct lazy_lib libc = { .soname = "libc.so.6" };
	errno = 0;
	ck_assert_ptr_null(lazy_symbol(&libc, "sp_no_such_function"));
	ck_assert_int_eq(errno, ELIBACC);
	ck_assert(libc.failed);
}
END_TEST

START_TEST(a_missing_preload_exits_127)
{
	struct lazy_lib missing = { .soname = "libsplice-utils-missing.so.9" };
	lazy_preload(&missing, "anything");
}
END_TEST

static Suite *lazylib_suite(void)
{
	Suite *s = suite_create("common-lazylib");
	TCase *tc = tcase_create("lazylib");
	tcase_add_test(tc, finds_a_symbol_by_soname);
	tcase_add_test(tc, a_missing_library_fails_the_call);
	tcase_add_test(tc, a_missing_symbol_fails_the_call);
	/* The exit ends the whole program when the tests are not forked
	 * (CK_FORK=no, as under valgrind). */
	const char *fork_mode = getenv("CK_FORK");
	if (!fork_mode || strcmp(fork_mode, "no") != 0)
		tcase_add_exit_test(tc, a_missing_preload_exits_127, 127);
	suite_add_tcase(s, tc);
	return s;
}

Suite *(*const harness_suites[])(void) = { lazylib_suite, NULL };
