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
 * ran.  Measured on this machine the same afternoon (one run each, not
 * interleaved; other work ran beside some of them), leak detection on in
 * the first two: 677 s with one runner, 300 s with a runner per suite, and
 * 281 s with one runner and leak detection off.  A narrowed run (CK_RUN_SUITE,
 * CK_RUN_CASE) keeps one runner, so that check's filter prints only what
 * it runs, and fails when it runs nothing (a misspelt name).  The exit
 * code is 0 only when every suite passed; the last lines repeat every
 * failure (each suite's runner prints its own among its output, which a
 * CI log's tail would not show) and sum the suites up. */
#include <check.h>
#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern Suite *(*const test_suites[])(void);

/* Runs suites [from, to) (to = 0: all) in one check runner, in this
 * process: how many tests failed; *ran (when not NULL) how many ran.  Each failure's
 * line (file:line:test case: message) also goes to fd `fails` (-1: none),
 * for the summary at the end of a whole run. */
static int run_suites(size_t from, size_t to, int *ran, int fails) {
    SRunner *sr = srunner_create(test_suites[from]());
    for (size_t i = from + 1; test_suites[i] != NULL && (to == 0 || i < to); i++)
        srunner_add_suite(sr, test_suites[i]());
    srunner_run_all(sr, CK_NORMAL);
    if (ran != NULL) *ran = srunner_ntests_run(sr);
    int failed = srunner_ntests_failed(sr);
    TestResult **tr = fails >= 0 && failed > 0 ? srunner_failures(sr) : NULL;
    for (int k = 0; tr != NULL && k < failed; k++)
        dprintf(fails, "%s:%d:%s: %s\n", tr_lfile(tr[k]), tr_lno(tr[k]), tr_tcname(tr[k]),
                tr_msg(tr[k]));
    free(tr);
    srunner_free(sr);
    return failed;
}

/* Reads fd to its end, appending to *buf (grown; NULL at first). */
static void read_all(int fd, char **buf, size_t *len) {
    char chunk[4096];
    ssize_t n;
    while ((n = read(fd, chunk, sizeof chunk)) > 0 || (n < 0 && errno == EINTR)) {
        char *grown = n > 0 ? realloc(*buf, *len + (size_t)n + 1) : *buf;
        if (grown == NULL) continue; /* out of memory: the summary is shorter */
        *buf = grown;
        memcpy(*buf + *len, chunk, (size_t)(n > 0 ? n : 0));
        *len += (size_t)(n > 0 ? n : 0);
        (*buf)[*len] = '\0';
    }
}

int main(void) {
    int suites = 0, bad = 0, ran = 0;
    curl_global_init(CURL_GLOBAL_DEFAULT);
    if (getenv("CK_RUN_SUITE") != NULL || getenv("CK_RUN_CASE") != NULL) {
        /* a narrowed run: one runner, so that check's filter prints only
         * what it runs */
        bad = run_suites(0, 0, &ran, -1);
        curl_global_cleanup();
        return bad == 0 && ran > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
    }
    char *failures = NULL;
    size_t flen = 0;
    for (size_t i = 0; test_suites[i] != NULL; i++) {
        int status = 0, fds[2];
        fflush(stdout);
        fflush(stderr);
        if (pipe(fds) != 0) return EXIT_FAILURE;
        pid_t pid = fork();
        if (pid < 0) return EXIT_FAILURE;
        if (pid == 0) {
            close(fds[0]);
            int failed = run_suites(i, i + 1, NULL, fds[1]);
            fflush(stdout);
            _exit(failed == 0 ? 0 : 1);
        }
        close(fds[1]);
        read_all(fds[0], &failures, &flen); /* until the suite's runner exits */
        close(fds[0]);
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
    if (failures != NULL) printf("failures:\n%s", failures); /* at the end, where CI shows it */
    free(failures);
    printf("run_tests: %d suites, %d failed\n", suites, bad);
    return bad == 0 && suites > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
