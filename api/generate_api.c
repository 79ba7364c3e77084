/* generate_api.c -- new puzzles over HTTP: POST /v1/sudoku/generate and
 * POST /v1/killer/generate.
 *
 * One job, `count` items (1..API_GEN_MAX_COUNT), at most the pool's
 * threads in flight.  Item i generates one puzzle on stream 0 with the
 * seed api_gen_item_seed(seed, i): the request's seed for item 0, for
 * i > 0 splitmix64 of (seed ^ i * golden ratio) masked to 53 bits (the
 * formula is in generate_api.h and openapi.yaml), so
 *   - the answer does not depend on the thread count or on which item
 *     finishes first (render lists them by item);
 *   - puzzle i comes back with its own seed, and a request with that seed
 *     and count 1 regenerates exactly it (its item 0);
 *   - requests with nearby seeds share no puzzle.  `seed + i`, the scheme
 *     before, made seed 1 and seed 2 with count 100 share 99 puzzles, and
 *     an app stepping its seed by one served repeats.
 * run() writes only its item's slot (puzzle, solution, result, and the
 * item's random stream between turns: on the pool an item gives its worker
 * back every POOL_TURN_NS with API_JOB_AGAIN and goes on from that stream
 * later, so the puzzle does not depend on where the turns fall); merge()
 * on the loop thread remembers the worst stop code; render() sums the
 * attempts and lists the items that found a puzzle.  An item stopped by the deadline
 * leaves nothing, and the answer says "timeout": no puzzle is ever labelled
 * with a level it was not graded at.  Every puzzle, Sudoku as Killer,
 * carries its box {rows, cols}: with its grid it is a solve or grade
 * request as it stands (a 3x2-box 6x6 read with the default 2x3 box would
 * clash).
 *
 * Validation names the field: size, box, difficulty, rating.min,
 * rating.max, symmetry, seed, minimal, count, timeout_ms, cage_size.min,
 * cage_size.max, diagonals.  JSON bodies only (415 otherwise). */
#include "api/generate_api.h"

#include <jansson.h>
#include <limits.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/json_dump.h"
#include "api/json_util.h"
#include "api/sudoku_variant.h"
#include "solvers/killer/generate.h"
#include "solvers/rng.h"
#include "solvers/sudoku/generate.h"

long long api_gen_item_seed(long long seed, size_t item) {
    uint64_t x = (uint64_t)seed ^ (uint64_t)item * 0x9e3779b97f4a7c15ull;
    if (item == 0) return seed;
    return (long long)(rng_splitmix64(&x) & (uint64_t)API_GEN_SEED_MAX);
}

typedef struct gen_item_s {
    /* Written by run() on a worker, one turn at a time (the pool never runs
     * two turns of an item at once, and each turn's start follows the last
     * one's end on the loop thread); read by render() on the loop thread
     * after the last turn. */
    rng_t rng; /* the item's stream between its turns (begun: seeded) */
    int begun;
    uint64_t attempts; /* over all its turns */
    int rc;            /* run()'s code */
    /* The grids below and the NDJSON line are allocated through alloc, the
     * allocator of the runner's ctl (on the server: charged to the
     * request's share of the work budget): the first turn sets it and
     * allocates the grids, so an item that has not begun holds none.  Read
     * after that turn by merge(), the stream (after its acquire load) and
     * free(). */
    const search_allocator_t *alloc;
    uint8_t *puzzle;   /* n*n */
    uint8_t *solution; /* n*n */
    sudoku_gen_result_t sres;
    killer_gen_result_t kres;
    killer_cell_t *cells; /* killer: n*n */
    killer_cage_t *cages; /* killer: n*n */
    /* NDJSON: merge() (loop thread) writes line and len, then stores
     * GEN_READY with release; the stream (HTTP thread) reads them after an
     * acquire load and alone frees line from then on. */
    atomic_int state;
    char *line;
    size_t len;
} gen_item_t;

enum { GEN_PENDING, GEN_READY };

/* A stream makes no new puzzle while this many bytes of its lines wait for
 * the reader (a quarter of the request's share when that is smaller). */
#define GEN_STREAM_WINDOW ((size_t)1 << 20)

typedef struct gen_job_s {
    api_job_t base;
    int killer;
    sudoku_gen_opts_t so; /* sudoku: options shared by the items (seed per item) */
    killer_gen_opts_t ko; /* killer */
    int n;
    long long seed;
    long long count;
    /* count items, allocated by prepare through the request's allocator
     * (on the server: charged to the work budget until free()) */
    gen_item_t *items;
    const search_allocator_t *items_alloc;
    /* on the loop thread: merge(), then render() */
    uint64_t attempts; /* summed over the items by render() */
    int worst;         /* first stop code seen, 0 if none */
    /* NDJSON (Accept: application/x-ndjson): one line per puzzle, in item
     * order, streamed while the job runs.  finish() (loop thread) sets
     * finish_rc, then `finished` with release; the stream (HTTP thread)
     * owns rd, rd_off and tail. */
    int ndjson;
    atomic_int finished;
    int finish_rc;
    /* Bytes of lines merged and not yet sent: merge() adds, the stream
     * subtracts, hold() reads.  At `window` or more the pool starts no new
     * item (gen_hold), so a slow reader holds the stream's memory, not an
     * ever longer queue of lines. */
    atomic_size_t unread;
    size_t window;
    size_t rd, rd_off;
    char tail[96]; /* the line of an item that never ran */
} gen_job_t;

/* Frees the item's grids (through the allocator that made them). */
static void gen_drop_grids(gen_item_t *it) {
    search_free(it->alloc, it->puzzle);
    search_free(it->alloc, it->solution);
    search_free(it->alloc, it->cells);
    search_free(it->alloc, it->cages);
    it->puzzle = it->solution = NULL;
    it->cells = NULL;
    it->cages = NULL;
}

/* The item's grids, on its first turn: 0, or -1 (none left allocated). */
static int gen_grids(const gen_job_t *j, gen_item_t *it, const search_allocator_t *a) {
    size_t nn = (size_t)j->n * (size_t)j->n;
    it->alloc = a;
    it->puzzle = search_alloc(a, nn);
    it->solution = search_alloc(a, nn);
    if (j->killer) {
        it->cells = search_alloc(a, nn * sizeof *it->cells);
        it->cages = search_alloc(a, nn * sizeof *it->cages);
    }
    if (it->puzzle != NULL && it->solution != NULL &&
        (!j->killer || (it->cells != NULL && it->cages != NULL)))
        return 0;
    gen_drop_grids(it);
    return -1;
}

/* One turn of item i (the whole item when the runner takes no turns):
 * the generator goes on from the item's stream, so the puzzle is the same
 * however the turns fall; API_JOB_AGAIN when the turn ended first. */
static int gen_run(api_job_t *job, size_t i, const search_ctl_t *ctl) {
    gen_job_t *j = (gen_job_t *)job;
    gen_item_t *it = &j->items[i];
    uint64_t seed = (uint64_t)api_gen_item_seed(j->seed, i);
    int64_t turn_end = job->turn_ns > 0 ? search_now_ns() + job->turn_ns : 0;
    if (!it->begun) {
        if (gen_grids(j, it, search_allocator_of(NULL, ctl)) != 0) return it->rc = SEARCH_ENOMEM;
        rng_seed(&it->rng, seed, 0);
        it->begun = 1;
    }
    if (j->killer) {
        killer_gen_opts_t o = j->ko;
        o.seed = seed;
        o.ctl = ctl;
        o.resume = &it->rng;
        o.turn_end_ns = turn_end;
        it->rc = killer_generate(&o, it->solution, it->cells, it->cages, &it->kres);
        it->attempts += it->kres.attempts;
    } else {
        sudoku_gen_opts_t o = j->so;
        o.seed = seed;
        o.ctl = ctl;
        o.resume = &it->rng;
        o.turn_end_ns = turn_end;
        it->rc = sudoku_generate(&o, it->puzzle, it->solution, &it->sres);
        it->attempts += it->sres.attempts;
    }
    return it->rc == SEARCH_TURN ? API_JOB_AGAIN : it->rc;
}

static int gen_merge(api_job_t *job, size_t i, int rc) {
    gen_job_t *j = (gen_job_t *)job;
    gen_item_t *it = &j->items[i];
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
    json_int_t seed = (json_int_t)api_gen_item_seed(j->seed, i);
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
            "{s:i, s:{s:i, s:i}, s:o, s:o, s:f, s:s, s:s, s:I, s:b, s:I}", "size", n, "box", "rows",
            j->ko.shape.box_rows, "cols", j->ko.shape.box_cols, "cages", cages, "solution",
            gen_string(it->solution, n), "rating", gen_round(it->kres.rating), "level",
            sudoku_grade_level_name(it->kres.level), "hardest", sudoku_tech_name(it->kres.hardest),
            "seed", seed, "diagonals", j->ko.diagonals, "proof_nodes", (json_int_t)it->kres.nodes);
    }
    /* box with every puzzle: with `puzzle` (or `grid`) it is a solve or
     * grade request as it stands, whatever the box shape was */
    json_t *o = json_pack("{s:o, s:o, s:{s:i, s:i}, s:o, s:f, s:s, s:s, s:I, s:i, s:s}", "puzzle",
                          gen_string(it->puzzle, n), "grid", gen_arrays(it->puzzle, n), "box",
                          "rows", j->so.shape.box_rows, "cols", j->so.shape.box_cols, "solution",
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
    for (size_t i = 0; i < (size_t)j->count; i++)
        j->attempts += j->items[i].attempts; /* also those the deadline cut short */
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
        gen_drop_grids(&j->items[i]);
        search_free(j->items[i].alloc, j->items[i].line);
    }
    search_free(j->items_alloc, j->items);
    free(j);
}

static const api_job_ops_t gen_ops = {.puzzle = "generate",
                                      .run = gen_run,
                                      .merge = gen_merge,
                                      .render = gen_render,
                                      .free = gen_free};

/* === NDJSON: one line per puzzle, streamed in item order === */

/* What an item without a puzzle line says: "timeout", "cancelled", or
 * "error" with the reason. */
static const char *gen_status(int rc) {
    return rc == 0                  ? "found"
           : rc == SEARCH_TIMEOUT   ? "timeout"
           : rc == SEARCH_CANCELLED ? "cancelled"
                                    : "error";
}

/* The puzzle's line: its JSON object (as in the JSON answer) with index and
 * status first, compact, newline-terminated, allocated through the item's
 * allocator; NULL when out of memory. */
static char *gen_line(const gen_job_t *j, size_t i, size_t *len) {
    json_t *o = json_pack("{s:I, s:s}", "index", (json_int_t)i, "status", "found");
    json_t *body = gen_item_json(j, i);
    char *text = NULL, *line = NULL;
    size_t n = 0;
    if (o != NULL && body != NULL && json_object_update(o, body) == 0 &&
        json_object_set_new(o, "attempts", json_integer((json_int_t)j->items[i].attempts)) == 0)
        text = api_json_dumps(o, API_JSON_FLAGS, &n); /* as every answer: 9 digits */
    if (text != NULL && (line = search_alloc(j->items[i].alloc, n + 1)) != NULL) {
        memcpy(line, text, n);
        line[n] = '\n';
        *len = n + 1;
    }
    free(text);
    json_decref(body);
    json_decref(o);
    return line;
}

/* Loop thread: the item's line is ready (a puzzle, or why there is none);
 * its grids are freed, so that a long stream holds only lines not yet
 * read. */
static int gen_stream_merge(api_job_t *job, size_t i, int rc) {
    gen_job_t *j = (gen_job_t *)job;
    gen_item_t *it = &j->items[i];
    int action = gen_merge(job, i, rc);
    if (it->rc == 0 && (it->line = gen_line(j, i, &it->len)) == NULL) it->rc = SEARCH_ENOMEM;
    if (it->line != NULL) atomic_fetch_add(&j->unread, it->len);
    gen_drop_grids(it);
    atomic_store_explicit(&it->state, GEN_READY, memory_order_release);
    return action;
}

static void gen_stream_finish(api_job_t *job, int rc) {
    gen_job_t *j = (gen_job_t *)job;
    j->finish_rc = rc < 0 ? rc : SEARCH_CANCELLED;
    atomic_store_explicit(&j->finished, 1, memory_order_release);
}

/* HTTP thread: the next bytes in item order; 0 = wait for the pool. */
static long gen_stream(void *cls, char *buf, size_t max) {
    gen_job_t *j = cls;
    size_t w = 0;
    while (w < max && j->rd < (size_t)j->count) {
        gen_item_t *it = &j->items[j->rd];
        int rc = 0;
        if (atomic_load_explicit(&it->state, memory_order_acquire) != GEN_READY) {
            if (!atomic_load_explicit(&j->finished, memory_order_acquire)) break;
            /* finish() follows every merge: look again before calling it lost */
            if (atomic_load_explicit(&it->state, memory_order_acquire) != GEN_READY)
                rc = j->finish_rc; /* never ran */
        }
        if (rc == 0 && it->line == NULL) rc = it->rc;
        if (rc != 0 && j->rd_off == 0) { /* its line, once */
            int n = snprintf(j->tail, sizeof j->tail, "{\"index\":%zu,\"status\":\"%s\"", j->rd,
                             gen_status(rc));
            if (rc != SEARCH_TIMEOUT && rc != SEARCH_CANCELLED) /* "error": say why */
                n += snprintf(j->tail + n, sizeof j->tail - (size_t)n, ",\"error\":\"%s\"",
                              search_code_str(rc));
            snprintf(j->tail + n, sizeof j->tail - (size_t)n, "}\n");
        }
        const char *src = rc != 0 ? j->tail : it->line;
        size_t len = rc != 0 ? strlen(j->tail) : it->len;
        size_t k = len - j->rd_off < max - w ? len - j->rd_off : max - w;
        memcpy(buf + w, src + j->rd_off, k);
        w += k;
        j->rd_off += k;
        if (j->rd_off == len) {
            if (it->line != NULL && rc == 0) atomic_fetch_sub(&j->unread, it->len);
            search_free(it->alloc, it->line);
            it->line = NULL;
            j->rd++;
            j->rd_off = 0;
        }
    }
    if (w > 0) return (long)w;
    return j->rd == (size_t)j->count ? -1 : 0;
}

static void gen_stream_render(api_job_t *job, api_response_t *out) {
    gen_job_t *j = (gen_job_t *)job;
    api_response_destroy(out);
    out->status = 200;
    out->content_type = "application/x-ndjson";
    out->stream = gen_stream;
    out->stream_cls = j;
    out->stream_free = NULL; /* the job owns everything the stream reads */
}

/* Loop thread: start no new item while the reader is a window behind. */
static int gen_hold(api_job_t *job) {
    gen_job_t *j = (gen_job_t *)job;
    return atomic_load(&j->unread) >= j->window;
}

static const api_job_ops_t gen_stream_ops = {.puzzle = "generate",
                                             .run = gen_run,
                                             .merge = gen_stream_merge,
                                             .render = gen_stream_render,
                                             .free = gen_free,
                                             .progressive = 1,
                                             .finish = gen_stream_finish,
                                             .hold = gen_hold};

/* === Reading: the tables === */

/* rating.max when neither it nor a difficulty is given: no upper bound. */
#define GEN_RATING_OPEN 1e9

/* What a generation request says (both tables write it). */
typedef struct gen_in_s {
    long long count, timeout_ms, seed, size; /* seed -1: none given */
    int difficulty;                          /* index in gen_levels, -1 none */
    double lo, hi;                           /* the rating window: difficulty or rating */
    int box_rows, box_cols;
    int symmetry, minimal, diagonals;
    long long cage_min, cage_max;
    long long givens_min, givens_max; /* 0: no bound */
} gen_in_t;

static const char *const gen_media[] = {"application/json", NULL};
static const char *const gen_levels[] = {"easy",    "medium",       "hard", "expert",
                                         "extreme", "beyond-logic", NULL};
static const char *const gen_symmetries[] = {"none",   "rotational180", "rotational90",
                                             "mirror", "diagonal",      NULL};
static const long long gen_killer_sizes[] = {4, 6, 9, 16, LLONG_MIN};

/* difficulty: a level, whose band is the window; not with rating. */
static int gen_difficulty(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                          void *out, api_problem_t *p) {
    gen_in_t *in = out;
    sudoku_grade_level_t l;
    if (json_object_get(root, "rating") != NULL) {
        api_problem_add(p, "body", "rating", "give difficulty or rating, not both");
        return -1;
    }
    if (api_opts_json_kind(o, req, v, out, p) != 0) return -1;
    sudoku_grade_level_parse(gen_levels[in->difficulty], &l);
    sudoku_grade_level_band(l, &in->lo, &in->hi);
    return 0;
}

/* rating: {"min": x, "max": y}, each a number of o->fields' range, the
 * window [min, max) (not with difficulty, which names the clash). */
static int gen_rating(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                      void *out, api_problem_t *p) {
    gen_in_t *in = out;
    const char *key;
    json_t *m;
    int bad = 0;
    (void)req;
    if (json_object_get(root, "difficulty") != NULL) return 0;
    if (!json_is_object(v)) {
        api_problem_add(p, "body", "rating", "must be {\"min\": x, \"max\": y}");
        return -1;
    }
    json_object_foreach(v, key, m) {
        if (api_opts_find(o->fields, key, API_IN_JSON) != NULL) continue;
        api_problem_add(p, "body", key, "unknown field");
        bad = 1;
    }
    if (bad) return -1;
    for (const api_opt_t *f = o->fields; f->name != NULL; f++) {
        char name[32];
        if ((m = json_object_get(v, f->name)) == NULL) continue;
        snprintf(name, sizeof name, "rating.%s", f->name);
        if (!json_is_number(m) || json_number_value(m) < f->num_lo ||
            json_number_value(m) > f->num_hi) {
            api_problem_add(p, "body", name, "must be a number from %g to %g", f->num_lo,
                            f->num_hi);
            bad = 1;
            continue;
        }
        *(f == o->fields ? &in->lo : &in->hi) = json_number_value(m);
    }
    if (!bad && !(in->lo < in->hi)) {
        api_problem_add(p, "body", "rating.max", "must be above rating.min");
        bad = 1;
    }
    return bad ? -1 : 0;
}

/* The rating's members: min first, then max (gen_rating's order). */
static const api_opt_t gen_rating_fields[] = {{.name = "min",
                                               .kind = API_OPT_NUMBER,
                                               .in = API_IN_JSON,
                                               .num_lo = 0,
                                               .num_hi = 100,
                                               .num_def = 0},
                                              {.name = "max",
                                               .kind = API_OPT_NUMBER,
                                               .in = API_IN_JSON,
                                               .num_lo = 0,
                                               .num_hi = 100,
                                               .num_def = -1}, /* none: no upper bound */
                                              {0}};

/* box: {"rows", "cols"}, each 1..API_GEN_MAX_N. */
static int gen_box(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v, void *out,
                   api_problem_t *p) {
    gen_in_t *in = out;
    (void)o, (void)req, (void)root;
    return api_json_box(v, API_GEN_MAX_N, &in->box_rows, &in->box_cols, p) != 0 ? -1 : 0;
}

/* The Killer size: one of o->only (4, 6, 9 or 16).  Every other value, an
 * integer in or out of lo..hi or no integer at all, gets the one sentence
 * o->msg, so that 5 and 16 are not told two different ranges. */
static int gen_killer_size(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                           void *out, api_problem_t *p) {
    gen_in_t *in = out;
    (void)req, (void)root;
    if (v == NULL) return 0; /* the default, 9 */
    for (const long long *k = o->only; json_is_integer(v) && *k != LLONG_MIN; k++)
        if (*k == json_integer_value(v)) {
            in->size = *k;
            return 0;
        }
    api_problem_add(p, "body", o->name, "%s", o->msg);
    return -1;
}

/* cage_size: {"min": a, "max": b}, each 1..size; absent (or a bound
 * absent), the sizes follow the difficulty asked for (the level of
 * rating.min for a window; medium's without either: cages of 2 and 3, no
 * one-cell cage, as Killers are usually drawn). */
static int gen_cage_size(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                         void *out, api_problem_t *p) {
    static const char *const keys[] = {"min", "max", NULL};
    gen_in_t *in = out;
    sudoku_grade_level_t l = in->difficulty < 0 && in->lo <= 0.0 && in->hi >= GEN_RATING_OPEN
                                 ? SUDOKU_GRADE_MEDIUM
                                 : sudoku_grade_level_of(in->lo);
    long long n = in->size;
    int bad = 0;
    (void)o, (void)req, (void)root;
    int lo, hi;
    killer_gen_cages_for_level((int)n, l, &lo, &hi);
    in->cage_min = lo;
    in->cage_max = hi;
    if (v == NULL) return 0;
    if (!json_is_object(v) || api_json_fields(v, keys, p) != 0) {
        api_problem_add(p, "body", "cage_size", "must be {\"min\": a, \"max\": b}");
        return -1;
    }
    bad |= api_json_opt_int(v, "min", 1, n, in->cage_min, &in->cage_min, p) != 0;
    bad |= api_json_opt_int(v, "max", 1, n, in->cage_max, &in->cage_max, p) != 0;
    if (!bad && p->nerrors == 0 && in->cage_min > in->cage_max) {
        api_problem_add(p, "body", "cage_size.max", "must be at least cage_size.min");
        bad = 1;
    }
    return bad ? -1 : 0;
}

/* givens: {"min": a, "max": b}, each 0..API_GEN_MAX_N^2 (the size's cell
 * count is checked with the shape, by gen_options or the variant reader),
 * min <= max; an absent bound is no bound. */
static int gen_givens(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v,
                      void *out, api_problem_t *p) {
    static const char *const keys[] = {"min", "max", NULL};
    const long long most = (long long)API_GEN_MAX_N * API_GEN_MAX_N;
    gen_in_t *in = out;
    int bad = 0;
    (void)o, (void)req, (void)root;
    if (v == NULL) return 0;
    if (!json_is_object(v) || api_json_fields(v, keys, p) != 0) {
        api_problem_add(p, "body", "givens", "must be {\"min\": a, \"max\": b}");
        return -1;
    }
    bad |= api_json_opt_int(v, "min", 0, most, 0, &in->givens_min, p) != 0;
    bad |= api_json_opt_int(v, "max", 0, most, 0, &in->givens_max, p) != 0;
    if (!bad && in->givens_max > 0 && in->givens_min > in->givens_max) {
        api_problem_add(p, "body", "givens.max", "must be at least givens.min");
        bad = 1;
    }
    return bad ? -1 : 0;
}

/* givens' members (gen_givens reads them). */
static const api_opt_t gen_givens_fields[] = {{.name = "min",
                                               .kind = API_OPT_INT,
                                               .in = API_IN_JSON,
                                               .lo = 0,
                                               .hi = API_GEN_MAX_N * API_GEN_MAX_N,
                                               .def = 0},
                                              {.name = "max",
                                               .kind = API_OPT_INT,
                                               .in = API_IN_JSON,
                                               .lo = 0,
                                               .hi = API_GEN_MAX_N * API_GEN_MAX_N,
                                               .def = 0},
                                              {0}};

/* cage_size's members (gen_cage_size reads them: 1..size). */
static const api_opt_t gen_cage_fields[] = {
    {.name = "min", .kind = API_OPT_INT, .in = API_IN_JSON, .lo = 1, .hi = LLONG_MAX, .def = 0},
    {.name = "max", .kind = API_OPT_INT, .in = API_IN_JSON, .lo = 1, .hi = LLONG_MAX, .def = 0},
    {0}};

#define GEN_AT(f) offsetof(gen_in_t, f)
/* count, timeout_ms, seed, difficulty and rating: the rows both tables begin with. */
#define GEN_COMMON_ROWS                                                                            \
    {.name = "count",                                                                              \
     .kind = API_OPT_INT,                                                                          \
     .in = API_IN_JSON,                                                                            \
     .lo = 1,                                                                                      \
     .hi = API_GEN_MAX_STREAM,                                                                     \
     .def = 1,                                                                                     \
     .at = GEN_AT(count)},                                                                         \
        {.name = "timeout_ms",                                                                     \
         .kind = API_OPT_INT,                                                                      \
         .in = API_IN_JSON,                                                                        \
         .lo = 1,                                                                                  \
         .hi = API_REQ_TIMEOUT,                                                                    \
         .def = API_REQ_TIMEOUT,                                                                   \
         .at = GEN_AT(timeout_ms)},                                                                \
        {.name = "seed",                                                                           \
         .kind = API_OPT_INT,                                                                      \
         .in = API_IN_JSON,                                                                        \
         .lo = 0,                                                                                  \
         .hi = API_GEN_SEED_MAX,                                                                   \
         .def = -1,                                                                                \
         .at = GEN_AT(seed)}, /* none: a fresh one, returned */                                    \
        {.name = "difficulty",                                                                     \
         .kind = API_OPT_ENUM,                                                                     \
         .in = API_IN_JSON,                                                                        \
         .names = gen_levels,                                                                      \
         .def = -1,                                                                                \
         .at = GEN_AT(difficulty),                                                                 \
         .json = gen_difficulty},                                                                  \
    {                                                                                              \
        .name = "rating", .kind = API_OPT_OBJECT, .in = API_IN_JSON, .fields = gen_rating_fields,  \
        .json = gen_rating                                                                         \
    }

static const api_opt_t gen_sudoku_opts[] = {
    GEN_COMMON_ROWS,
    {.name = "size",
     .kind = API_OPT_INT,
     .in = API_IN_JSON,
     .lo = API_GEN_MIN_N,
     .hi = API_GEN_MAX_N,
     .def = 9,
     .at = GEN_AT(size)},
    {.name = "box", .kind = API_OPT_DATA, .in = API_IN_JSON, .json = gen_box},
    {.name = "symmetry",
     .kind = API_OPT_ENUM,
     .in = API_IN_JSON,
     .names = gen_symmetries,
     .def = 0,
     .at = GEN_AT(symmetry)},
    {.name = "minimal", .kind = API_OPT_BOOL, .in = API_IN_JSON, .def = 0, .at = GEN_AT(minimal)},
    {.name = "givens",
     .kind = API_OPT_OBJECT,
     .in = API_IN_JSON,
     .fields = gen_givens_fields,
     .json = gen_givens},
    API_SUDOKU_VARIANT_ROWS,
    {0}};

static const api_opt_t gen_killer_opts[] = {GEN_COMMON_ROWS,
                                            {.name = "size",
                                             .kind = API_OPT_INT,
                                             .in = API_IN_JSON,
                                             .flags = API_OPT_ABSENT,
                                             .lo = 4,
                                             .hi = API_KILLER_GEN_MAX_N,
                                             .def = 9,
                                             .only = gen_killer_sizes,
                                             .msg = "must be 4, 6, 9 or 16",
                                             .at = GEN_AT(size),
                                             .json = gen_killer_size},
                                            {.name = "diagonals",
                                             .kind = API_OPT_BOOL,
                                             .in = API_IN_JSON,
                                             .def = 0,
                                             .at = GEN_AT(diagonals)},
                                            {.name = "cage_size",
                                             .kind = API_OPT_OBJECT,
                                             .in = API_IN_JSON,
                                             .flags = API_OPT_ABSENT,
                                             .fields = gen_cage_fields,
                                             .json = gen_cage_size},
                                            {0}};

/* The most bytes a job holds while it runs: its items; the grids of those
 * that hold them at once (every item of a JSON answer, until render(); in a
 * stream, the `threads` in flight); a stream's window of unsent lines and
 * the line of each item in flight (GEN_LINE_BYTES: a 25x25 line is about
 * 4 KB, 6.5 bytes a cell; a Killer line lists its cages' cells too). */
#define GEN_LINE_BYTES(nn) (16 * (nn) + 512)
static size_t gen_bytes(const gen_job_t *j, unsigned threads) {
    size_t nn = (size_t)j->n * (size_t)j->n, count = (size_t)j->count;
    size_t grids = 2 * nn, holding = j->ndjson && threads < count ? threads : count;
    if (j->killer) grids += nn * (sizeof(killer_cell_t) + sizeof(killer_cage_t));
    size_t b = count * sizeof(gen_item_t) + holding * grids;
    return j->ndjson ? b + j->window + holding * GEN_LINE_BYTES(nn) : b;
}

/* The items, through a (the request's allocator: on the server the work
 * budget, so that they count while the job holds them); their grids come
 * with their first turn (gen_grids).  0, or -1 with nothing allocated. */
static int gen_alloc(gen_job_t *j, const search_allocator_t *a) {
    size_t bytes = (size_t)j->count * sizeof *j->items; /* count <= API_GEN_MAX_STREAM */
    j->items_alloc = a;
    j->items = search_alloc(a, bytes);
    if (j->items == NULL) return -1;
    memset(j->items, 0, bytes);
    for (long long i = 0; i < j->count; i++)
        j->items[i].rc = SEARCH_TIMEOUT; /* until run() says otherwise: items the deadline
                                            kept from running are neither run nor merged */
    j->base.progress_unit = "puzzles";   /* in the background: puzzles found of count */
    return 0;
}

/* A fresh seed from the clock, mixed with salt (an address); returned in
 * stats.seed. */
static long long gen_fresh_seed(const void *salt) {
    uint64_t x = (uint64_t)search_now_ns() ^ (uint64_t)(uintptr_t)salt;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (long long)(x & (uint64_t)API_GEN_SEED_MAX);
}

int api_gen_sudoku_options(const api_request_t *req, json_t *root, api_gen_opts_t *out,
                           api_problem_t *p) {
    gen_in_t in = {.lo = 0.0, .hi = GEN_RATING_OPEN};
    int rc;
    api_opts_defaults(gen_sudoku_opts, req, &in);
    rc = api_opts_json_options(gen_sudoku_opts, req, root, NULL, &in, p);
    out->count = in.count;
    out->timeout_ms = in.timeout_ms;
    out->seed = in.seed >= 0 ? in.seed : gen_fresh_seed(out);
    out->size = in.size;
    out->rating_min = in.lo;
    out->rating_max = in.hi;
    out->minimal = in.minimal;
    out->givens_min = (int)in.givens_min;
    out->givens_max = (int)in.givens_max;
    sudoku_symmetry_parse(gen_symmetries[in.symmetry], &out->symmetry);
    return rc;
}

int api_gen_givens_check(int cells, int givens_min, int givens_max, api_problem_t *p) {
    if (givens_min <= cells && givens_max <= cells) return 0;
    api_problem_add(p, "body", givens_min > cells ? "givens.min" : "givens.max",
                    "must be at most %d, the cells of the grid", cells);
    return -1;
}

int api_gen_reach_problem(const sudoku_gen_opts_t *o, sudoku_gen_reach_t why, api_problem_t *p) {
    int n = o->shape.n;
    switch (why) {
    case SUDOKU_GEN_REACHABLE: return 0;
    case SUDOKU_GEN_FEW_GIVENS:
        api_problem_init(p, API_EUNREACHABLE,
                         "no %dx%d Sudoku with fewer than %d givens has exactly one solution", n, n,
                         sudoku_gen_min_givens(n));
        api_problem_add(p, "body", "givens.max", "must be at least %d for a %dx%d grid",
                        sudoku_gen_min_givens(n), n, n);
        break;
    case SUDOKU_GEN_RATING_GAP:
        api_problem_init(p, API_EUNREACHABLE,
                         "no puzzle rates from %g up to %g: a rating is its hardest step's "
                         "weight plus less than 0.1 (docs/generate.md lists the weights)",
                         o->rating_min, o->rating_max);
        api_problem_add(p, "body", "rating", "misses every rating the scale gives");
        break;
    case SUDOKU_GEN_SIZE_CAP:
        api_problem_init(p, API_EUNREACHABLE,
                         "every %dx%d puzzle rates below %g (all of them easy), so none is %s", n,
                         n, sudoku_gen_max_rating(&o->shape),
                         sudoku_grade_level_name(sudoku_grade_level_of(o->rating_min)));
        api_problem_add(p, "body", "size", "every %dx%d puzzle is easy", n, n);
        break;
    }
    return -1;
}

/* What killer_gen_reachable() refuses, as a 422 naming the field the
 * window came from (difficulty, or rating); 0 when it is reachable. */
static int gen_killer_reach(const killer_gen_opts_t *o, int by_level, api_problem_t *p) {
    const char *field = by_level ? "difficulty" : "rating";
    int n = o->shape.n;
    const char *most = sudoku_grade_level_name(killer_gen_max_level(n));
    switch (killer_gen_reachable(o)) {
    case KILLER_GEN_REACHABLE: return 0;
    case KILLER_GEN_RATING_GAP:
        api_problem_init(p, API_EUNREACHABLE,
                         "no Killer grade rates from %g up to %g: a rating is the weight of the "
                         "hardest technique plus a little (docs/grading.md)",
                         o->rating_min, o->rating_max);
        api_problem_add(p, "body", field, "misses every rating a Killer grade gives");
        break;
    case KILLER_GEN_SIZE_CAP:
        api_problem_init(p, API_EUNREACHABLE,
                         "no %dx%d Killer the generator makes is graded above %s (measured, "
                         "docs/generate.md)",
                         n, n, most);
        api_problem_add(p, "body", field, "a %dx%d Killer is at most %s", n, n, most);
        break;
    case KILLER_GEN_NO_SINGLES:
        api_problem_init(p, API_EUNREACHABLE,
                         "a %dx%d Killer without one-cell cages is seldom unique: none was in "
                         "three minutes of attempts (measured, docs/generate.md)",
                         n, n);
        api_problem_add(p, "body", "cage_size.min", "must be 1 on a %dx%d Killer", n, n);
        break;
    }
    return -1;
}

/* The options read into the job: the seed (a fresh one when none was
 * given), the generator's options; 0, or -1 with the problem of the shape
 * in p. */
static int gen_options(gen_job_t *j, const gen_in_t *in, api_problem_t *p) {
    int rc;
    j->count = in->count;
    j->base.timeout_ms = in->timeout_ms;
    j->seed = in->seed >= 0 ? in->seed : gen_fresh_seed(j);
    j->n = (int)in->size;
    if (j->killer) {
        killer_gen_opts_init(&j->ko);
        j->ko.diagonals = in->diagonals;
        j->ko.cage_min = (int)in->cage_min;
        j->ko.cage_max = (int)in->cage_max;
        sudoku_shape_init(&j->ko.shape, j->n, 0, 0);
        j->ko.rating_min = in->lo;
        j->ko.rating_max = in->hi;
        return gen_killer_reach(&j->ko, in->difficulty >= 0, p);
    }
    sudoku_gen_opts_init(&j->so);
    sudoku_symmetry_parse(gen_symmetries[in->symmetry], &j->so.symmetry);
    j->so.minimal = in->minimal;
    j->so.rating_min = in->lo;
    j->so.rating_max = in->hi;
    j->so.givens_min = (int)in->givens_min;
    j->so.givens_max = (int)in->givens_max;
    if (api_gen_givens_check(j->n * j->n, j->so.givens_min, j->so.givens_max, p) != 0) return -1;
    rc = sudoku_shape_init(&j->so.shape, j->n, in->box_rows, in->box_cols);
    if (rc == SUDOKU_ENOBOX) {
        api_problem_add(p, "body", "box",
                        "size %lld has no default box shape; give \"box\" explicitly", in->size);
        return -1;
    }
    if (rc != 0) {
        api_problem_add(p, "body", "box", "%d x %d boxes do not tile a %lldx%lld grid",
                        in->box_rows, in->box_cols, in->size, in->size);
        return -1;
    }
    return api_gen_reach_problem(&j->so, sudoku_gen_reachable(&j->so), p);
}

static int gen_prepare(const api_request_t *req, const api_endpoint_t *ep, int killer,
                       api_job_t **job, api_response_t *resp) {
    static const char *const none[] = {NULL};
    api_problem_t p;
    gen_job_t *j = calloc(1, sizeof *j);
    gen_in_t in = {.lo = 0.0, .hi = GEN_RATING_OPEN};
    json_t *root = NULL;
    int bad = 0, retry = 0;
    unsigned threads;
    *job = NULL;
    api_problem_init(&p, API_EINVALID, "the request is not valid");
    if (j == NULL) {
        api_problem_init(&p, API_ENOMEM, "out of memory");
        goto fail;
    }
    j->killer = killer;
    if (!api_json_content_type(req)) {
        api_endpoint_media_problem(ep, req, &p);
        goto fail;
    }
    bad |= api_params_check(req, none, &p) != 0;
    if (req->body_len == 0) {
        root = json_object(); /* an empty body asks for the defaults */
    } else if ((root = api_json_object(req, &p)) == NULL) {
        goto fail;
    }
    api_opts_defaults(ep->opts, req, &in);
    bad |= api_opts_json(ep->opts, req, root, 0, &in, &p) != 0;
    json_decref(root);
    root = NULL;
    if (bad || p.nerrors > 0 || gen_options(j, &in, &p) != 0) goto fail;
    j->ndjson = api_accepts(req->accept, "application/x-ndjson");
    if (!j->ndjson && j->count > API_GEN_MAX_COUNT) {
        api_problem_add(&p, "body", "count",
                        "must be at most %d in a JSON answer; up to %d as a stream with "
                        "Accept: application/x-ndjson",
                        API_GEN_MAX_COUNT, API_GEN_MAX_STREAM);
        goto fail;
    }
    threads = (unsigned)(j->count < (long long)req->pool_threads ? j->count : req->pool_threads);
    j->window = req->work_share != 0 && req->work_share / 4 < GEN_STREAM_WINDOW
                    ? req->work_share / 4
                    : GEN_STREAM_WINDOW;
    if (req->work_share != 0 && gen_bytes(j, threads) > req->work_share) {
        api_problem_init(&p, API_EMEMORY,
                         "%lld puzzles of %dx%d need %zu bytes while they are made, more than "
                         "the %zu one request may hold (--max-request-memory): ask for fewer",
                         j->count, j->n, j->n, gen_bytes(j, threads), req->work_share);
        goto fail;
    }
    if (gen_alloc(j, req->alloc) != 0) {
        api_problem_init(&p, API_ENOMEM,
                         req->alloc != NULL
                             ? "the server's memory for requests in flight (--max-work-memory) "
                               "is full; retry later"
                             : "out of memory");
        retry = 1;
        goto fail;
    }
    j->base.background = 1; /* long by nature: in turns with the async jobs, never in the
                               workers kept for other requests */
    j->base.turns = 1;      /* gen_run() gives its worker back every turn_ns */
    api_job_ready(&j->base, j->ndjson ? &gen_stream_ops : &gen_ops, (size_t)j->count,
                  threads < 1 ? 1 : threads, j->base.timeout_ms, job);
    return 0;
fail:
    json_decref(root);
    gen_free(j ? &j->base : NULL);
    api_response_problem(resp, &p);
    if (retry) resp->retry_after = 1; /* as the server's other full-budget 503s */
    return p.code;
}

int api_sudoku_generate_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp) {
    if (api_sudoku_variant_body(req))
        return api_endpoint_hand_over(&api_ep_sudoku_generate, req, job, resp);
    return gen_prepare(req, &api_ep_sudoku_generate, 0, job, resp);
}

int api_killer_generate_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp) {
    return gen_prepare(req, &api_ep_killer_generate, 1, job, resp);
}

const api_endpoint_t api_ep_sudoku_generate = {.method = "POST",
                                               .path = "/v1/sudoku/generate",
                                               .label = "sudoku",
                                               .media = gen_media,
                                               .opts = gen_sudoku_opts,
                                               .prepare = api_sudoku_generate_prepare};

const api_endpoint_t api_ep_killer_generate = {.method = "POST",
                                               .path = "/v1/killer/generate",
                                               .label = "killer",
                                               .media = gen_media,
                                               .opts = gen_killer_opts,
                                               .prepare = api_killer_generate_prepare};
