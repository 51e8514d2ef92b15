/* Unit tests for the libraries loaded on first use (lazylib.h): a symbol
 * of a library found by soname, and the exit with the dynamic linker's
 * status when the library or the symbol is missing. */
#include "config.h"

#include <check.h>
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

START_TEST(a_missing_library_exits_127)
{
	struct lazy_lib missing = { .soname = "libsplice-utils-missing.so.9" };
	lazy_symbol(&missing, "anything");
}
END_TEST

START_TEST(a_missing_symbol_exits_127)
{
	struct lazy_lib libc = { .soname = "libc.so.6" };
	lazy_symbol(&libc, "sp_no_such_function");
}
END_TEST

static Suite *lazylib_suite(void)
{
	Suite *s = suite_create("common-lazylib");
	TCase *tc = tcase_create("lazylib");
	tcase_add_test(tc, finds_a_symbol_by_soname);
	/* The exits end the whole program when the tests are not forked
	 * (CK_FORK=no, as under valgrind). */
	const char *fork_mode = getenv("CK_FORK");
	if (!fork_mode || strcmp(fork_mode, "no") != 0) {
		tcase_add_exit_test(tc, a_missing_library_exits_127, 127);
		tcase_add_exit_test(tc, a_missing_symbol_exits_127, 127);
	}
	suite_add_tcase(s, tc);
	return s;
}

Suite *(*const harness_suites[])(void) = { lazylib_suite, NULL };
