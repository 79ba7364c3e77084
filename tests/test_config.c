/* test_config.c -- flags, environment variables and their precedence. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "server/config.h"
#include "server/jobs/rconn.h"

#include <string.h>

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

START_TEST(config_redis_urls) {
    static const struct {
        const char *url, *host, *user, *password;
        unsigned port, db;
    } good[] = {
        {"redis://127.0.0.1", "127.0.0.1", "", "", 6379, 0},
        {"redis://redis:6380/2", "redis", "", "", 6380, 2},
        {"redis://:pw@cache.internal:7000/15", "cache.internal", "", "pw", 7000, 15},
        {"redis://app:s3cr%t@10.0.0.5/1", "10.0.0.5", "app", "s3cr%t", 6379, 1},
        {"REDIS://[::1]:6390/", "::1", "", "", 6390, 0},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        rconn_url_t u;
        char err[160], red[640];
        ck_assert_msg(rconn_url_parse(good[i].url, &u, err, sizeof err) == 0, "%s: %s", good[i].url,
                      err);
        ck_assert_str_eq(u.host, good[i].host);
        ck_assert_str_eq(u.user, good[i].user);
        ck_assert_str_eq(u.password, good[i].password);
        ck_assert_uint_eq(u.port, good[i].port);
        ck_assert_uint_eq(u.db, good[i].db);
        rconn_url_redacted(&u, red, sizeof red);
        if (good[i].password[0]) {
            ck_assert_ptr_null(strstr(red, good[i].password));
            ck_assert_ptr_nonnull(strstr(red, ":***@"));
        }
    }
    /* refused at start-up (exit 2), and the message never holds the password */
    static const char *const bad[] = {
        "http://h:1",    "redis://",
        "redis://h:0",   "redis://h:70000",
        "redis://h:12x", "redis://h/x",
        "redis://:@h",   "redis://h:1/2/3",
        "redis://[::1",  "redis://:topsecret@bad host",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        config_t cfg;
        char *msg = NULL;
        size_t len = 0;
        FILE *err = open_memstream(&msg, &len);
        FILE *out = fopen("/dev/null", "w");
        const char *argv[] = {"puzzled", "--redis", bad[i], NULL};
        ck_assert_msg(config_parse(&cfg, 3, (char **)argv, out, err) == -1, "%s accepted", bad[i]);
        fclose(out);
        fclose(err);
        ck_assert_ptr_nonnull(strstr(msg, "--redis"));
        ck_assert_ptr_null(strstr(msg, "topsecret"));
        free(msg);
    }
    config_t cfg;
    const char *argv[] = {"puzzled", "--redis-prefix", "a b", NULL};
    ck_assert_int_eq(parse(&cfg, 3, argv), -1);
    const char *ok[] = {"puzzled", "--redis", "redis://h", "--redis-prefix", "app1:", NULL};
    ck_assert_int_eq(parse(&cfg, 5, ok), 0);
    ck_assert_str_eq(cfg.redis_prefix, "app1:");
    ck_assert_uint_eq(cfg.redis_claim_ms, 5000);
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
    tcase_add_test(tc, config_redis_urls);
    suite_add_tcase(s, tc);
    return s;
}
