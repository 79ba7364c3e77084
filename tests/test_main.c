/* test_main.c -- one runner for every suite.  check forks each test, so a
 * crash fails one test, not the run.  CK_RUN_SUITE=http (or CK_RUN_CASE=...)
 * narrows a run; check reads those variables itself. */
#include <check.h>
#include <curl/curl.h>
#include <stdlib.h>

Suite *nqueens_suite(void);
Suite *api_suite(void);
Suite *config_suite(void);
Suite *http_suite(void);
Suite *sudoku_suite(void);
Suite *cdcl_suite(void);
Suite *sudoku_api_suite(void);
Suite *sudoku9_suite(void);
Suite *sudoku_batch_suite(void);
Suite *xcover_suite(void);
Suite *killer_suite(void);
Suite *killer_lcg_suite(void);
Suite *killer_api_suite(void);
Suite *nqueens_more_suite(void);
Suite *nqueens_board_api_suite(void);
Suite *xcover_api_suite(void);
Suite *nomem_suite(void);
Suite *logic_suite(void);
Suite *generate_suite(void);
Suite *logic_http_suite(void);
Suite *jobs_suite(void);
Suite *jobs_redis_suite(void);
Suite *cluster_suite(void);
Suite *static_suite(void);
Suite *fair_suite(void);
Suite *variants_suite(void);
Suite *variants_http_suite(void);

int main(void) {
    int failed;
    SRunner *sr;

    curl_global_init(CURL_GLOBAL_DEFAULT);
    sr = srunner_create(nqueens_suite());
    srunner_add_suite(sr, api_suite());
    srunner_add_suite(sr, config_suite());
    srunner_add_suite(sr, sudoku_suite());
    srunner_add_suite(sr, cdcl_suite());
    srunner_add_suite(sr, sudoku9_suite());
    srunner_add_suite(sr, sudoku_api_suite());
    srunner_add_suite(sr, sudoku_batch_suite());
    srunner_add_suite(sr, xcover_suite());
    srunner_add_suite(sr, xcover_api_suite());
    srunner_add_suite(sr, killer_suite());
    srunner_add_suite(sr, killer_lcg_suite());
    srunner_add_suite(sr, killer_api_suite());
    srunner_add_suite(sr, nqueens_more_suite());
    srunner_add_suite(sr, nqueens_board_api_suite());
    srunner_add_suite(sr, static_suite());
    srunner_add_suite(sr, logic_suite());
    srunner_add_suite(sr, generate_suite());
    srunner_add_suite(sr, variants_suite());
    srunner_add_suite(sr, variants_http_suite());
    srunner_add_suite(sr, logic_http_suite());
    srunner_add_suite(sr, http_suite());
    srunner_add_suite(sr, nomem_suite());
    srunner_add_suite(sr, fair_suite());
    srunner_add_suite(sr, jobs_suite());
    srunner_add_suite(sr, jobs_redis_suite());
    srunner_add_suite(sr, cluster_suite());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    curl_global_cleanup();
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
