/* generate_api.c -- new puzzles over HTTP: POST /v1/sudoku/generate and
 * POST /v1/killer/generate.
 *
 * One job, `count` items (1..API_GEN_MAX_COUNT), at most the pool's
 * threads in flight.  Item i generates one puzzle with seed `seed + i`
 * (mod 2^53) on stream 0, so
 *   - the answer does not depend on the thread count or on which item
 *     finishes first (render lists them by item);
 *   - puzzle i comes back with its own seed, and a request with that seed
 *     and count 1 regenerates exactly it.
 * run() writes only its item's slot (puzzle, solution, result); merge() on
 * the loop thread sums attempts and remembers the worst stop code; render()
 * lists the items that found a puzzle.  An item stopped by the deadline
 * leaves nothing, and the answer says "timeout": no puzzle is ever labelled
 * with a level it was not graded at.
 *
 * Validation names the field: size, box, difficulty, rating.min,
 * rating.max, symmetry, seed, minimal, count, timeout_ms, cage_size.min,
 * cage_size.max, diagonals.  JSON bodies only (415 otherwise). */
#include "api/generate_api.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/json_util.h"
#include "api/sudoku_variant_api.h"
#include "solvers/killer/generate.h"
#include "solvers/sudoku/generate.h"

typedef struct gen_item_s {
    int rc;            /* run()'s code */
    uint8_t *puzzle;   /* n*n */
    uint8_t *solution; /* n*n */
    sudoku_gen_result_t sres;
    killer_gen_result_t kres;
    killer_cell_t *cells; /* killer: n*n */
    killer_cage_t *cages; /* killer: n*n */
} gen_item_t;

typedef struct gen_job_s {
    api_job_t base;
    int killer;
    sudoku_gen_opts_t so; /* sudoku: options shared by the items (seed per item) */
    killer_gen_opts_t ko; /* killer */
    int n;
    long long seed;
    long long count;
    gen_item_t *items;
    /* merged on the loop thread */
    uint64_t attempts;
    int worst; /* first stop code seen, 0 if none */
} gen_job_t;

static int gen_run(api_job_t *job, size_t i, const search_ctl_t *ctl) {
    gen_job_t *j = (gen_job_t *)job;
    gen_item_t *it = &j->items[i];
    uint64_t seed = ((uint64_t)j->seed + i) & (uint64_t)API_GEN_SEED_MAX;
    if (j->killer) {
        killer_gen_opts_t o = j->ko;
        o.seed = seed;
        o.ctl = ctl;
        it->rc = killer_generate(&o, it->solution, it->cells, it->cages, &it->kres);
    } else {
        sudoku_gen_opts_t o = j->so;
        o.seed = seed;
        o.ctl = ctl;
        it->rc = sudoku_generate(&o, it->puzzle, it->solution, &it->sres);
    }
    return it->rc;
}

static int gen_merge(api_job_t *job, size_t i, int rc) {
    gen_job_t *j = (gen_job_t *)job;
    gen_item_t *it = &j->items[i];
    j->attempts += j->killer ? it->kres.attempts : it->sres.attempts;
    if (rc != 0) it->rc = rc; /* also for items that never ran (late) */
    if (rc != 0 && (j->worst == 0 || rc == SEARCH_ENOMEM)) j->worst = rc; /* memory first */
    return API_JOB_CONTINUE;
}

static char gen_char(int v) {
    return v == 0 ? '.' : v < 10 ? (char)('0' + v) : (char)('A' + v - 10);
}

static json_t *gen_string(const uint8_t *g, int n) {
    char s[API_GEN_MAX_N * API_GEN_MAX_N];
    for (int i = 0; i < n * n; i++)
        s[i] = gen_char(g[i]);
    return json_stringn(s, (size_t)(n * n));
}

/* Appends v (stolen); -1 when either is NULL or the append fails, so that a
 * failed allocation makes the answer NULL (a 503) instead of shorter. */
static int gen_push(json_t *arr, json_t *v) {
    if (arr == NULL || v == NULL) {
        json_decref(v);
        return -1;
    }
    return json_array_append_new(arr, v) != 0 ? -1 : 0;
}

static json_t *gen_arrays(const uint8_t *g, int n) {
    json_t *rows = json_array();
    int bad = rows == NULL;
    for (int r = 0; r < n && !bad; r++) {
        json_t *row = json_array();
        for (int c = 0; c < n && row != NULL && !bad; c++)
            bad |= gen_push(row, g[r * n + c] ? json_integer(g[r * n + c]) : json_null());
        bad |= gen_push(rows, row);
    }
    if (bad) {
        json_decref(rows);
        return NULL;
    }
    return rows;
}

static double gen_round(double x) { return (double)(long long)(x * 1000.0 + 0.5) / 1000.0; }

static json_t *gen_item_json(const gen_job_t *j, size_t i) {
    const gen_item_t *it = &j->items[i];
    int n = j->n;
    json_int_t seed = (json_int_t)(((uint64_t)j->seed + i) & (uint64_t)API_GEN_SEED_MAX);
    if (j->killer) {
        json_t *cages = json_array();
        int bad = cages == NULL;
        for (int k = 0; k < it->kres.ncages && !bad; k++) {
            json_t *cells = json_array();
            for (int c = 0; c < it->cages[k].ncells && cells != NULL && !bad; c++)
                bad |= gen_push(
                    cells, json_pack("[i,i]", it->cages[k].cells[c].r, it->cages[k].cells[c].c));
            bad |= gen_push(cages, json_pack("{s:I, s:o}", "sum", (json_int_t)it->cages[k].sum,
                                             "cells", cells));
        }
        if (bad) {
            json_decref(cages);
            return NULL;
        }
        return json_pack(
            "{s:i, s:{s:i, s:i}, s:o, s:o, s:f, s:s, s:I, s:b, s:I}", "size", n, "box", "rows",
            j->ko.shape.box_rows, "cols", j->ko.shape.box_cols, "cages", cages, "solution",
            gen_string(it->solution, n), "rating", gen_round(it->kres.rating), "level",
            sudoku_grade_level_name(sudoku_grade_level_of(it->kres.rating)), "seed", seed,
            "diagonals", j->ko.diagonals, "proof_nodes", (json_int_t)it->kres.nodes);
    }
    json_t *o = json_pack("{s:o, s:o, s:o, s:f, s:s, s:s, s:I, s:i, s:s}", "puzzle",
                          gen_string(it->puzzle, n), "grid", gen_arrays(it->puzzle, n), "solution",
                          gen_string(it->solution, n), "rating", gen_round(it->sres.grade.rating),
                          "level", sudoku_grade_level_name(it->sres.grade.level), "hardest",
                          sudoku_tech_name(it->sres.grade.hardest), "seed", seed, "givens",
                          it->sres.givens, "symmetry", sudoku_symmetry_name(j->so.symmetry));
    if (o != NULL &&
        json_object_set_new(o, "minimal", it->sres.minimal == 1 ? json_true() : json_null())) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static void gen_render(api_job_t *job, api_response_t *out) {
    gen_job_t *j = (gen_job_t *)job;
    json_t *list = json_array();
    size_t found = 0;
    int bad = list == NULL;
    for (size_t i = 0; i < (size_t)j->count && !bad; i++)
        if (j->items[i].rc == 0) {
            bad |= gen_push(list, gen_item_json(j, i));
            found++;
        }
    if (bad) {
        json_decref(list);
        list = NULL; /* the json_pack below then fails: a 503 */
    }
    const char *status = found == (size_t)j->count      ? "complete"
                         : j->worst == SEARCH_CANCELLED ? "cancelled"
                                                        : "timeout";
    if (j->worst == SEARCH_ENOMEM && found < (size_t)j->count) {
        api_problem_t p;
        json_decref(list);
        api_problem_init(&p, API_ENOMEM, "out of memory while generating");
        api_response_problem(out, &p);
        return;
    }
    api_response_json(out, 200,
                      json_pack("{s:s, s:o, s:{s:I, s:f, s:i, s:I, s:I}}", "status", status,
                                "puzzles", list, "stats", "attempts", (json_int_t)j->attempts,
                                "elapsed_ms", api_elapsed_ms(job->start_ns, search_now_ns()),
                                "threads", (int)job->threads, "requested", (json_int_t)j->count,
                                "seed", (json_int_t)j->seed));
}

static void gen_free(api_job_t *job) {
    gen_job_t *j = (gen_job_t *)job;
    if (j == NULL) return;
    for (long long i = 0; j->items != NULL && i < j->count; i++) {
        free(j->items[i].puzzle);
        free(j->items[i].solution);
        free(j->items[i].cells);
        free(j->items[i].cages);
    }
    free(j->items);
    free(j);
}

static const api_job_ops_t gen_ops = {"generate", gen_run, gen_merge, gen_render, gen_free,
                                      0,          NULL,    NULL,      NULL};

/* === Reading === */

/* A number field (integer or real). */
static int gen_number(json_t *v, const char *field, double lo, double hi, double *out,
                      api_problem_t *p) {
    if (!json_is_number(v) || json_number_value(v) < lo || json_number_value(v) > hi) {
        api_problem_add(p, "body", field, "must be a number from %g to %g", lo, hi);
        return -1;
    }
    *out = json_number_value(v);
    return 0;
}

static int gen_bool(json_t *v, const char *field, int *out, api_problem_t *p) {
    if (!json_is_boolean(v)) {
        api_problem_add(p, "body", field, "must be true or false");
        return -1;
    }
    *out = json_is_true(v);
    return 0;
}

int api_gen_window(json_t *root, double *lo, double *hi, api_problem_t *p) {
    json_t *d = json_object_get(root, "difficulty"), *r = json_object_get(root, "rating");
    int bad = 0;
    *lo = 0.0;
    *hi = 1e9;
    if (d != NULL && r != NULL) {
        api_problem_add(p, "body", "rating", "give difficulty or rating, not both");
        return -1;
    }
    if (d != NULL) {
        sudoku_grade_level_t l;
        if (!json_is_string(d) || sudoku_grade_level_parse(json_string_value(d), &l) != 0) {
            api_problem_add(p, "body", "difficulty",
                            "must be easy, medium, hard, expert, extreme or beyond-logic");
            return -1;
        }
        sudoku_grade_level_band(l, lo, hi);
    }
    if (r != NULL) {
        static const char *const keys[] = {"min", "max", NULL};
        json_t *mn, *mx;
        if (!json_is_object(r)) {
            api_problem_add(p, "body", "rating", "must be {\"min\": x, \"max\": y}");
            return -1;
        }
        if (api_json_fields(r, keys, p) != 0) return -1;
        if ((mn = json_object_get(r, "min")) != NULL)
            bad |= gen_number(mn, "rating.min", 0, 100, lo, p) != 0;
        if ((mx = json_object_get(r, "max")) != NULL)
            bad |= gen_number(mx, "rating.max", 0, 100, hi, p) != 0;
        if (!bad && !(*lo < *hi)) {
            api_problem_add(p, "body", "rating.max", "must be above rating.min");
            bad = 1;
        }
    }
    return bad ? -1 : 0;
}

int api_gen_seed(json_t *root, long long *seed, api_problem_t *p) {
    json_t *s = json_object_get(root, "seed");
    if (s != NULL) return api_json_int(s, "seed", 0, API_GEN_SEED_MAX, seed, p);
    /* a fresh seed from the clock, mixed; returned in stats.seed */
    uint64_t x = (uint64_t)search_now_ns() ^ (uint64_t)(uintptr_t)seed;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    *seed = (long long)(x & (uint64_t)API_GEN_SEED_MAX);
    return 0;
}

/* Fields both endpoints share: seed, count, timeout_ms. */
static int gen_common(const api_request_t *req, json_t *root, gen_job_t *j, api_problem_t *p) {
    int bad = 0;
    long long t;
    bad |= api_json_opt_int(root, "count", 1, API_GEN_MAX_COUNT, 1, &j->count, p) != 0;
    bad |= api_json_opt_int(root, "timeout_ms", 1, req->max_timeout_ms, req->max_timeout_ms, &t,
                            p) != 0;
    j->base.timeout_ms = t;
    bad |= api_gen_seed(root, &j->seed, p) != 0;
    return bad ? -1 : 0;
}

static int gen_alloc(gen_job_t *j) {
    size_t nn = (size_t)j->n * (size_t)j->n;
    j->items = calloc((size_t)j->count, sizeof *j->items);
    if (j->items == NULL) return -1;
    for (long long i = 0; i < j->count; i++) {
        gen_item_t *it = &j->items[i];
        it->rc = SEARCH_TIMEOUT; /* until run() says otherwise: items the deadline
                                    kept from running are neither run nor merged */
        it->puzzle = malloc(nn);
        it->solution = malloc(nn);
        if (it->puzzle == NULL || it->solution == NULL) return -1;
        if (j->killer) {
            it->cells = malloc(nn * sizeof *it->cells);
            it->cages = malloc(nn * sizeof *it->cages);
            if (it->cells == NULL || it->cages == NULL) return -1;
        }
    }
    j->base.progress_unit = "puzzles"; /* in the background: puzzles found of count */
    return 0;
}

/* The Sudoku generator's options from the body into j->so (rating window
 * lo..hi, the size into *n).  bad: whether an error was found before;
 * returns it, or 1 for a new one (errors in p). */
static int gen_sudoku_opts(json_t *root, gen_job_t *j, double lo, double hi, int bad, long long *n,
                           api_problem_t *p) {
    json_t *v;
    int rows = 0, cols = 0;
    sudoku_gen_opts_init(&j->so);
    bad |= api_json_opt_int(root, "size", API_GEN_MIN_N, API_GEN_MAX_N, 9, n, p) != 0;
    if ((v = json_object_get(root, "box")) != NULL)
        bad |= api_json_box(v, API_GEN_MAX_N, &rows, &cols, p) != 0;
    if ((v = json_object_get(root, "symmetry")) != NULL &&
        (!json_is_string(v) || sudoku_symmetry_parse(json_string_value(v), &j->so.symmetry))) {
        api_problem_add(p, "body", "symmetry",
                        "must be none, rotational180, rotational90, mirror or diagonal");
        bad = 1;
    }
    if ((v = json_object_get(root, "minimal")) != NULL)
        bad |= gen_bool(v, "minimal", &j->so.minimal, p) != 0;
    if (!bad) {
        int rc = sudoku_shape_init(&j->so.shape, (int)*n, rows, cols);
        if (rc == SUDOKU_ENOBOX) {
            api_problem_add(p, "body", "box",
                            "size %lld has no default box shape; give \"box\" explicitly", *n);
            bad = 1;
        } else if (rc != 0) {
            api_problem_add(p, "body", "box", "%d x %d boxes do not tile a %lldx%lld grid", rows,
                            cols, *n, *n);
            bad = 1;
        }
    }
    j->so.rating_min = lo;
    j->so.rating_max = hi;
    return bad;
}

/* The same for the Killer generator (j->ko). */
static int gen_killer_opts(json_t *root, gen_job_t *j, double lo, double hi, int bad, long long *n,
                           api_problem_t *p) {
    json_t *v;
    killer_gen_opts_init(&j->ko);
    bad |= api_json_opt_int(root, "size", 4, API_KILLER_GEN_MAX_N, 9, n, p) != 0;
    if (!bad && *n != 4 && *n != 6 && *n != 9) {
        api_problem_add(p, "body", "size",
                        "must be 4, 6 or 9 (16x16 killers take the solver too long to prove "
                        "unique)");
        bad = 1;
    }
    if ((v = json_object_get(root, "diagonals")) != NULL)
        bad |= gen_bool(v, "diagonals", &j->ko.diagonals, p) != 0;
    /* default cage sizes grow with the difficulty asked for */
    {
        sudoku_grade_level_t l = sudoku_grade_level_of(lo);
        j->ko.cage_min = l >= SUDOKU_GRADE_EXPERT ? 3 : 2;
        j->ko.cage_max = l <= SUDOKU_GRADE_EASY ? 3 : l == SUDOKU_GRADE_MEDIUM ? 4 : 5;
        if (l >= SUDOKU_GRADE_EXPERT) j->ko.cage_max = 6;
        if (*n < 9 && j->ko.cage_max > (int)*n - 1) j->ko.cage_max = (int)*n - 1;
        if (j->ko.cage_min > j->ko.cage_max) j->ko.cage_min = j->ko.cage_max;
    }
    if ((v = json_object_get(root, "cage_size")) != NULL) {
        static const char *const keys[] = {"min", "max", NULL};
        long long mn = j->ko.cage_min, mx = j->ko.cage_max;
        if (!json_is_object(v) || api_json_fields(v, keys, p) != 0) {
            api_problem_add(p, "body", "cage_size", "must be {\"min\": a, \"max\": b}");
            bad = 1;
        } else {
            bad |= api_json_opt_int(v, "min", 1, *n, j->ko.cage_min, &mn, p) != 0;
            bad |= api_json_opt_int(v, "max", 1, *n, j->ko.cage_max, &mx, p) != 0;
            if (!bad && mn > mx) {
                api_problem_add(p, "body", "cage_size.max", "must be at least cage_size.min");
                bad = 1;
            }
            j->ko.cage_min = (int)mn;
            j->ko.cage_max = (int)mx;
        }
    }
    if (!bad) sudoku_shape_init(&j->ko.shape, (int)*n, 0, 0);
    j->ko.rating_min = lo;
    j->ko.rating_max = hi;
    return bad;
}

static int gen_prepare(const api_request_t *req, int killer, api_job_t **job,
                       api_response_t *resp) {
    static const char *const none[] = {NULL};
    static const char *const sfields[] = {"size", "box",     "difficulty", "rating",     "symmetry",
                                          "seed", "minimal", "count",      "timeout_ms", NULL};
    static const char *const kfields[] = {"size", "cage_size", "difficulty", "rating", "diagonals",
                                          "seed", "count",     "timeout_ms", NULL};
    api_problem_t p;
    gen_job_t *j = calloc(1, sizeof *j);
    json_t *root = NULL;
    int bad = 0;
    long long n = 9;
    double lo, hi;
    unsigned threads;
    *job = NULL;
    api_problem_init(&p, API_EINVALID, "the request is not valid");
    if (j == NULL) {
        api_problem_init(&p, API_ENOMEM, "out of memory");
        goto fail;
    }
    j->killer = killer;
    if (!api_json_content_type(req)) {
        api_problem_init(&p, API_EMEDIA, "send application/json");
        api_problem_add(&p, "header", "Content-Type", "unsupported: '%.60s'", req->content_type);
        goto fail;
    }
    bad |= api_params_check(req, none, &p) != 0;
    if (req->body_len == 0) {
        root = json_object(); /* an empty body asks for the defaults */
    } else if ((root = api_json_object(req, &p)) == NULL) {
        goto fail;
    }
    bad |= api_json_fields(root, killer ? kfields : sfields, &p) != 0;
    bad |= gen_common(req, root, j, &p) != 0;
    bad |= api_gen_window(root, &lo, &hi, &p) != 0;
    if (!killer)
        bad = gen_sudoku_opts(root, j, lo, hi, bad, &n, &p);
    else
        bad = gen_killer_opts(root, j, lo, hi, bad, &n, &p);
    json_decref(root);
    root = NULL;
    if (bad || p.nerrors > 0) goto fail;
    j->n = (int)n;
    if (gen_alloc(j) != 0) {
        api_problem_init(&p, API_ENOMEM, "out of memory");
        goto fail;
    }
    threads = (unsigned)(j->count < (long long)req->pool_threads ? j->count : req->pool_threads);
    j->base.background = 1; /* long by nature: in turns with the async jobs, never in the
                               workers kept for other requests */
    api_job_ready(&j->base, &gen_ops, (size_t)j->count, threads < 1 ? 1 : threads,
                  j->base.timeout_ms, job);
    return 0;
fail:
    json_decref(root);
    gen_free(j ? &j->base : NULL);
    api_response_problem(resp, &p);
    return p.code;
}

int api_sudoku_generate_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp) {
    if (api_sudoku_variant_body(req)) return api_sudoku_variant_generate_prepare(req, job, resp);
    return gen_prepare(req, 0, job, resp);
}

int api_killer_generate_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp) {
    return gen_prepare(req, 1, job, resp);
}
