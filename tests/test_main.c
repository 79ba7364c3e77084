/* test_main.c -- one runner for every suite.  check forks each test, so a
 * crash fails one test, not the run.  CK_RUN_SUITE=http (or CK_RUN_CASE=...)
 * narrows a run; check reads those variables itself (`make check
 * SUITE=http`).  The suites are every `Suite *x_suite(void)` of TEST_SRC,
 * in its order, which the Makefile lists in test_suites[]
 * (build/gen/test_suites.c): a new test file's suites run by existing.
 *
 * A whole run gives each suite a process of its own (forked here), whose
 * check runner then forks each test.  One runner for all 865 tests made
 * the ASan run more than twice as slow: the runner's heap grows with every
 * test it has run, each forked test inherits it, and LeakSanitizer scans
 * the inherited heap when the test exits, so a test cost more the later it
 * ran.  Measured on this machine one after the other, leak detection on
 * in both: 677 s with one runner, 300 s with a runner per suite (and 281 s
 * with one runner and leak detection off).  A narrowed run (CK_RUN_SUITE,
 * CK_RUN_CASE) keeps one runner, so that check's filter prints only what
 * it runs, and fails when it runs nothing (a misspelt name).  The exit
 * code is 0 only when every suite passed; the last line sums them up. */
#include <check.h>
#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

extern Suite *(*const test_suites[])(void);

/* Runs suites [from, to) (to = 0: all) in one check runner, in this
 * process: how many tests failed; *ran says how many ran. */
static int run_suites(size_t from, size_t to, int *ran) {
    SRunner *sr = srunner_create(test_suites[from]());
    for (size_t i = from + 1; test_suites[i] != NULL && (to == 0 || i < to); i++)
        srunner_add_suite(sr, test_suites[i]());
    srunner_run_all(sr, CK_NORMAL);
    *ran = srunner_ntests_run(sr);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed;
}

int main(void) {
    int suites = 0, bad = 0, ran = 0;
    curl_global_init(CURL_GLOBAL_DEFAULT);
    if (getenv("CK_RUN_SUITE") != NULL || getenv("CK_RUN_CASE") != NULL) {
        /* a narrowed run: one runner, so that check's filter prints only
         * what it runs */
        bad = run_suites(0, 0, &ran);
        curl_global_cleanup();
        return bad == 0 && ran > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
    }
    for (size_t i = 0; test_suites[i] != NULL; i++) {
        int status = 0;
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid < 0) return EXIT_FAILURE;
        if (pid == 0) {
            int failed = run_suites(i, i + 1, &ran);
            fflush(stdout);
            _exit(failed == 0 ? 0 : 1);
        }
        while (waitpid(pid, &status, 0) < 0)
            if (errno != EINTR) return EXIT_FAILURE;
        suites++;
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            bad++;
            printf("suite %zu: FAILED (%s %d)\n", i, WIFEXITED(status) ? "exit" : "signal",
                   WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        }
    }
    curl_global_cleanup();
    printf("run_tests: %d suites, %d failed\n", suites, bad);
    return bad == 0 && suites > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
