/* test_main.c -- one runner for every suite.  check forks each test, so a
 * crash fails one test, not the run.  CK_RUN_SUITE=http (or CK_RUN_CASE=...)
 * narrows a run; check reads those variables itself (`make check
 * SUITE=http`).  The suites are every `Suite *x_suite(void)` of TEST_SRC,
 * in its order, which the Makefile lists in test_suites[]
 * (build/gen/test_suites.c): a new test file's suites run by existing. */
#include <check.h>
#include <curl/curl.h>
#include <stdlib.h>

extern Suite *(*const test_suites[])(void);

int main(void) {
    int failed;
    SRunner *sr;

    curl_global_init(CURL_GLOBAL_DEFAULT);
    sr = srunner_create(test_suites[0]());
    for (size_t i = 1; test_suites[i] != NULL; i++)
        srunner_add_suite(sr, test_suites[i]());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    curl_global_cleanup();
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
