/* test_config.c -- flags, environment variables and their precedence. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "server/config.h"

static int parse(config_t *cfg, int argc, const char **argv) {
    FILE *sink = fopen("/dev/null", "w");
    int rc = config_parse(cfg, argc, (char **)argv, sink, sink);
    fclose(sink);
    return rc;
}

START_TEST(config_defaults) {
    config_t cfg;
    const char *argv[] = {"puzzled", NULL};
    unsetenv("PUZZLED_PORT");
    unsetenv("PUZZLED_THREADS");
    ck_assert_int_eq(parse(&cfg, 1, argv), 0);
    ck_assert_str_eq(cfg.bind, "127.0.0.1");
    ck_assert_uint_eq(cfg.port, 8080);
    ck_assert_uint_ge(cfg.threads, 1);
    ck_assert_uint_eq(cfg.max_body, 1 << 20);
    ck_assert_int_eq(cfg.timeout_ms, 30000);
    ck_assert_str_eq(cfg.cors_origin, "*");
}
END_TEST

START_TEST(config_flags_override_env) {
    config_t cfg;
    const char *argv[] = {"puzzled",       "--port",      "9000", "--threads=3",
                          "--cors-origin", "https://a.b", NULL};
    setenv("PUZZLED_PORT", "7000", 1);
    setenv("PUZZLED_MAX_QUEUE", "5", 1);
    ck_assert_int_eq(parse(&cfg, 6, argv), 0);
    ck_assert_uint_eq(cfg.port, 9000);   /* flag wins */
    ck_assert_uint_eq(cfg.max_queue, 5); /* env over default */
    ck_assert_uint_eq(cfg.threads, 3);
    ck_assert_str_eq(cfg.cors_origin, "https://a.b");
    unsetenv("PUZZLED_PORT");
    unsetenv("PUZZLED_MAX_QUEUE");
}
END_TEST

START_TEST(config_rejects_bad_values) {
    config_t cfg;
    const char *bad[][3] = {
        {"puzzled", "--port", "70000"},   {"puzzled", "--port", "12x"},
        {"puzzled", "--threads", "0"},    {"puzzled", "--max-body", "10"},
        {"puzzled", "--timeout-ms", "0"}, {"puzzled", "--bind", "localhost"},
        {"puzzled", "--nope", "1"},       {"puzzled", "--bind", "999.1.1.1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *argv[4] = {bad[i][0], bad[i][1], bad[i][2], NULL};
        ck_assert_msg(parse(&cfg, 3, argv) == -1, "%s %s accepted", bad[i][1], bad[i][2]);
    }
    setenv("PUZZLED_THREADS", "many", 1);
    const char *argv[] = {"puzzled", NULL};
    ck_assert_int_eq(parse(&cfg, 1, argv), -1);
    unsetenv("PUZZLED_THREADS");
}
END_TEST

START_TEST(config_help_and_ipv6) {
    config_t cfg;
    const char *help[] = {"puzzled", "--help", NULL};
    const char *v6[] = {"puzzled", "--bind", "::1", NULL};
    ck_assert_int_eq(parse(&cfg, 2, help), 1);
    ck_assert_int_eq(parse(&cfg, 3, v6), 0);
    ck_assert_str_eq(cfg.bind, "::1");
}
END_TEST

Suite *config_suite(void);
Suite *config_suite(void) {
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, config_defaults);
    tcase_add_test(tc, config_flags_override_env);
    tcase_add_test(tc, config_rejects_bad_values);
    tcase_add_test(tc, config_help_and_ipv6);
    suite_add_tcase(s, tc);
    return s;
}
