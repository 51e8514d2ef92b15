/* Runs the libsplice unit test suites (forked; CK_FORK=no for gdb/valgrind). */
#include "config.h"

#include <check.h>
#include <stdlib.h>

Suite *move_suite(void);
Suite *faults_suite(void);
Suite *sparse_suite(void);

int main(void)
{
	SRunner *sr = srunner_create(move_suite());
	srunner_add_suite(sr, faults_suite());
	srunner_add_suite(sr, sparse_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
