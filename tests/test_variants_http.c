/* test_variants_http.c -- issue 35's variants through the Sudoku endpoints
 * on a real server over loopback (tests/http_client.h): solve with every
 * method that takes a variant (and the 422 of those that do not),
 * validate's conflicts in words, grade and hint on the logic engine,
 * generate (reproducible by seed, each puzzle proved unique by a second
 * engine through /v1/sudoku/solve), and bad input named field by field.
 *
 * Every solution is checked here against its givens and the variant's rules
 * by code that does not use the model (rows, columns, regions or boxes,
 * diagonals, windows, parity, consecutive marks); overlapping layouts, whose
 * geometry is the model's, are checked with sudoku_model_check_solution() on
 * a model built from the same request.  No answer is written in this file:
 * the puzzles are docs/variants.md's examples or the server's own. */
#include <check.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/endpoint.h"
#include "api/generate_api.h"
#include "api/grid_char.h"
#include "api/killer_api.h"
#include "api/sudoku_api.h"
#include "api/sudoku_logic_api.h"
#include "api/sudoku_variant.h"
#include "tests/http_client.h"

static tsrv_t srv;

static void srv_up(void) {
    static const char *const args[] = {"--threads", "2", "--timeout-ms", "300000", NULL};
    ck_assert_int_eq(tsrv_start(&srv, args, NULL), 0);
}

static void srv_down(void) { tsrv_stop(&srv, SIGTERM, 10000); }

/* POSTs body (a JSON object, not stolen) to path; returns the answer. */
static hresp_t vpost(const char *path, json_t *body) {
    char url[256], *text = json_dumps(body, JSON_COMPACT);
    const char *headers[2] = {"Content-Type: application/json", NULL};
    hresp_t r;
    CURL *c = curl_easy_init();
    ck_assert_ptr_nonnull(text);
    snprintf(url, sizeof url, "%s%s", srv.base, path);
    http_do(c, "POST", url, text, strlen(text), headers, &r);
    curl_easy_cleanup(c);
    free(text);
    return r;
}

static json_t *vload(const char *text) {
    json_error_t e;
    json_t *j = json_loads(text, 0, &e);
    ck_assert_msg(j != NULL, "bad test JSON: %s (%s)", e.text, text);
    return j;
}

/* The answer's JSON when its status is `status`. */
static json_t *vjson(const hresp_t *r, long status) {
    json_error_t e;
    ck_assert_msg(r->status == status, "status %ld, want %ld: %s", r->status, status, r->body);
    json_t *j = json_loads(r->body, 0, &e);
    ck_assert_msg(j != NULL, "not JSON: %s", r->body);
    return j;
}

/* A problem of `status` whose errors name `field` with a detail holding
 * `words` (NULL: any). */
static void vproblem(const char *path, json_t *body, long status, const char *field,
                     const char *words) {
    hresp_t r = vpost(path, body);
    char ct[128];
    json_t *j = vjson(&r, status), *e;
    size_t i;
    int found = 0;
    ck_assert(hresp_header(&r, "Content-Type", ct, sizeof ct));
    ck_assert_str_eq(ct, "application/problem+json");
    found = field == NULL;
    json_array_foreach(json_object_get(j, "errors"), i, e) {
        const char *f = json_string_value(json_object_get(e, "field"));
        const char *d = json_string_value(json_object_get(e, "detail"));
        if (f && strcmp(f, field) == 0 && (words == NULL || (d && strstr(d, words)))) found = 1;
    }
    ck_assert_msg(found, "errors[] do not name '%s' (%s): %s", field ? field : "",
                  words ? words : "", r.body);
    json_decref(j);
    hresp_free(&r);
}

/* vproblem() on a body written as text. */
static void vproblem_text(const char *path, const char *text, long status, const char *field,
                          const char *words) {
    json_t *b = vload(text);
    vproblem(path, b, status, field, words);
    json_decref(b);
}

/* docs/variants.md's examples */
#define JIGSAW_X                                                                                   \
    "{\"variant\": [\"jigsaw\", \"x\"], \"grid\": \"...5....6...1.4..........2..........\", "      \
    "\"regions\": [[0,0,0,0,1,1],[2,0,0,1,1,1],[2,2,2,3,3,1],[4,2,3,3,3,3],[4,2,4,5,5,5],"         \
    "[4,4,4,5,5,5]]}"
#define CONSECUTIVE                                                                                \
    "{\"variant\": \"consecutive\", \"box\": {\"rows\": 1, \"cols\": 6}, "                         \
    "\"grid\": \"......................4............4\", "                                         \
    "\"pairs\": [[[0, 0], [0, 1]], [[0, 0], [1, 0]], [[0, 3], [1, 3]], [[0, 4], [0, 5]], "         \
    "[[0, 5], [1, 5]], [[2, 1], [2, 2]], [[2, 1], [3, 1]], [[3, 1], [4, 1]], [[3, 2], [4, 2]], "   \
    "[[3, 4], [4, 4]], [[4, 0], [4, 1]], [[4, 5], [5, 5]], [[5, 2], [5, 3]]]}"
#define EVEN_ODD                                                                                   \
    "{\"variant\": \"even-odd\", \"grid\": "                                                       \
    "\"........2......59.794..............................1.............34..6.....5.....\", "      \
    "\"parity\": "                                                                                 \
    "\"OEOOOEOEEEEOEEOOOOOOEOEOEOEEEOEOEOOOOOEOOEEEOOOEOOEOEEEEOEOOOOEEOOEEOEOOOOEOEOEEO\"}"

/* === An independent check of a single grid's rules === */

static int vchar(char ch) {
    int v = api_grid_char_value(ch);
    return v < 0 ? 0 : v;
}

/* A frame grid (string or arrays) into out[]; returns the cell count. */
static int vgrid(json_t *g, int *out, int cap) {
    int k = 0;
    if (json_is_string(g)) {
        const char *s = json_string_value(g);
        for (; s[k] && k < cap; k++)
            out[k] = vchar(s[k]);
        return k;
    }
    size_t i, j;
    json_t *row, *v;
    json_array_foreach(g, i, row) json_array_foreach(row, j, v) if (k < cap) out[k++] =
        json_is_integer(v) ? (int)json_integer_value(v) : 0;
    return k;
}

static int vhas_name(json_t *req, const char *name) {
    json_t *v = json_object_get(req, "variant"), *e;
    size_t i;
    if (json_is_string(v)) return strcmp(json_string_value(v), name) == 0;
    json_array_foreach(v, i, e) if (json_is_string(e) &&
                                    strcmp(json_string_value(e), name) == 0) return 1;
    return 0;
}

/* Every cell of `cells` (k of them) holds a distinct value. */
static void vdistinct(const int *sol, const int *cells, int k, const char *what) {
    for (int a = 0; a < k; a++)
        for (int b = a + 1; b < k; b++)
            ck_assert_msg(sol[cells[a]] != sol[cells[b]], "%s repeats %d", what, sol[cells[a]]);
}

/* The request's single n x n grid solved by sol: givens kept, every
 * value 1..n, rows, columns, regions (or boxes), diagonals (x), windows
 * (windoku, 9x9), parity, consecutive marks and the non-consecutive rule. */
static void vcheck_single(json_t *req, json_t *solution) {
    int puzzle[1024], sol[1024], cells[64], n, br, bc;
    json_t *box = json_object_get(req, "box"), *reg = json_object_get(req, "regions"), *pr, *e;
    size_t i;
    n = 0;
    int nc = vgrid(solution, sol, 1024);
    while (n * n < nc)
        n++;
    ck_assert_int_eq(n * n, nc);
    ck_assert_int_eq(vgrid(json_object_get(req, "grid"), puzzle, 1024), nc);
    for (int c = 0; c < nc; c++) {
        ck_assert(sol[c] >= 1 && sol[c] <= n);
        ck_assert(puzzle[c] == 0 || puzzle[c] == sol[c]);
    }
    for (int x = 0; x < n; x++) {
        for (int y = 0; y < n; y++)
            cells[y] = x * n + y;
        vdistinct(sol, cells, n, "a row");
        for (int y = 0; y < n; y++)
            cells[y] = y * n + x;
        vdistinct(sol, cells, n, "a column");
    }
    br = box ? (int)json_integer_value(json_object_get(box, "rows")) : n == 6 ? 2 : n == 4 ? 2 : 3;
    bc = box ? (int)json_integer_value(json_object_get(box, "cols")) : n / br;
    for (int id = 0; id < n; id++) { /* regions by id 0..n-1, else boxes */
        int k = 0;
        for (int c = 0; c < nc; c++) {
            int in = reg ? json_integer_value(json_array_get(json_array_get(reg, (size_t)(c / n)),
                                                             (size_t)(c % n))) == id
                         : (c / n) / br * (n / bc) + (c % n) / bc == id;
            if (in) cells[k++] = c;
        }
        ck_assert_int_eq(k, n);
        vdistinct(sol, cells, k, "a region");
    }
    if (vhas_name(req, "x")) {
        for (int d = 0; d < n; d++)
            cells[d] = d * n + d;
        vdistinct(sol, cells, n, "the main diagonal");
        for (int d = 0; d < n; d++)
            cells[d] = d * n + (n - 1 - d);
        vdistinct(sol, cells, n, "the anti-diagonal");
    }
    if (vhas_name(req, "windoku") && n == 9)
        for (int w = 0; w < 4; w++) {
            int r0 = 1 + 4 * (w / 2), c0 = 1 + 4 * (w % 2), k = 0;
            for (int r = r0; r < r0 + 3; r++)
                for (int c = c0; c < c0 + 3; c++)
                    cells[k++] = r * n + c;
            vdistinct(sol, cells, 9, "a window");
        }
    if ((pr = json_object_get(req, "parity")) != NULL) {
        const char *s = json_string_value(pr);
        for (int c = 0; c < nc; c++)
            ck_assert(s[c] == '.' || (s[c] == 'E') == (sol[c] % 2 == 0));
    }
    if (vhas_name(req, "consecutive")) {
        static char marked[1024][2]; /* [cell][0: right, 1: down] */
        memset(marked, 0, sizeof marked);
        json_array_foreach(json_object_get(req, "pairs"), i, e) {
            json_t *a = json_array_get(e, 0), *b = json_array_get(e, 1);
            int ca = (int)(json_integer_value(json_array_get(a, 0)) * n +
                           json_integer_value(json_array_get(a, 1)));
            int cb = (int)(json_integer_value(json_array_get(b, 0)) * n +
                           json_integer_value(json_array_get(b, 1)));
            int lo = ca < cb ? ca : cb;
            marked[lo][cb - ca == 1 || ca - cb == 1 ? 0 : 1] = 1;
        }
        for (int c = 0; c < nc; c++)
            for (int dir = 0; dir < 2; dir++) {
                int o = dir == 0 ? c + 1 : c + n;
                if ((dir == 0 && c % n == n - 1) || o >= nc) continue;
                int diff = abs(sol[c] - sol[o]);
                ck_assert_msg(marked[c][dir] ? diff == 1 : diff > 1,
                              "cells %d and %d differ by %d (marked %d)", c, o, diff,
                              marked[c][dir]);
            }
    }
}

/* An overlapping layout's solution against the model of the same request
 * (holes must be empty: null in arrays). */
static void vcheck_model(json_t *req, json_t *solution) {
    api_sudoku_variant_t v;
    api_problem_t p;
    sudoku_model_t *m = NULL;
    uint8_t *g, *s;
    ck_assert_int_eq(api_sudoku_variant_read(req, 0, &v, &p), 0);
    g = malloc((size_t)v.rows * (size_t)v.cols);
    s = malloc((size_t)v.rows * (size_t)v.cols);
    ck_assert_int_eq(api_sudoku_variant_grid(json_object_get(req, "grid"), &v, g, &p), 0);
    ck_assert_int_eq(api_sudoku_variant_grid(solution, &v, s, &p), 0); /* nothing on a hole */
    ck_assert_int_eq(api_sudoku_variant_model(&v, NULL, &m, &p), 0);
    ck_assert_int_eq(sudoku_model_check_solution(m, g, s), 1);
    sudoku_model_free(m);
    api_sudoku_variant_free(&v);
    free(g);
    free(s);
}

/* Solves req (with max_solutions 2 and `method`), expects one solution and
 * checks it; returns the answer (json_decref). */
static json_t *vsolve(json_t *req, const char *method) {
    json_t *body = json_deep_copy(req);
    json_object_set_new(body, "max_solutions", json_integer(2));
    if (method != NULL) json_object_set_new(body, "method", json_string(method));
    hresp_t r = vpost("/v1/sudoku/solve", body);
    json_t *j = vjson(&r, 200);
    ck_assert_msg(strcmp(json_string_value(json_object_get(j, "status")), "solved") == 0, "%s: %s",
                  method ? method : "auto", r.body);
    ck_assert(json_is_true(json_object_get(j, "unique")));
    if (json_object_get(req, "layout") != NULL || json_object_get(j, "rows") == NULL ||
        json_integer_value(json_object_get(j, "rows")) !=
            json_integer_value(json_object_get(j, "n")))
        vcheck_model(req, json_object_get(j, "solution"));
    else
        vcheck_single(req, json_object_get(j, "solution"));
    json_decref(body);
    hresp_free(&r);
    return j;
}

/* === Solve === */

START_TEST(variants_http_solve_examples) {
    const char *const reqs[] = {JIGSAW_X, CONSECUTIVE, EVEN_ODD};
    for (size_t k = 0; k < sizeof reqs / sizeof reqs[0]; k++) {
        json_t *req = vload(reqs[k]), *a = vsolve(req, NULL);
        ck_assert(json_is_object(json_object_get(a, "stats")));
        ck_assert(json_is_string(json_object_get(json_object_get(a, "stats"), "method")));
        json_decref(a);
        json_decref(req);
    }
}
END_TEST

/* Every method that takes a variant solves it alike; those that do not
 * are a 422 naming method. */
START_TEST(variants_http_solve_methods) {
    static const char *const methods[] = {"auto",       "propagation", "mrv", "backtracking",
                                          "best-first", "cdcl",        "dlx", "algorithm-x"};
    json_t *req = vload(EVEN_ODD), *first = NULL;
    for (size_t k = 0; k < sizeof methods / sizeof methods[0]; k++) {
        json_t *a = vsolve(req, methods[k]);
        if (first == NULL)
            first = json_incref(json_object_get(a, "solution"));
        else
            ck_assert(json_equal(first, json_object_get(a, "solution")));
        json_decref(a);
    }
    json_object_set_new(req, "propagation", json_string("subsets"));
    json_decref(vsolve(req, "propagation"));
    json_object_del(req, "propagation");
    json_decref(first);
    json_object_set_new(req, "method", json_string("fast"));
    vproblem("/v1/sudoku/solve", req, 422, "method", "classic 9x9");
    json_decref(req);
    req = vload(CONSECUTIVE);
    json_object_set_new(req, "method", json_string("dlx"));
    vproblem("/v1/sudoku/solve", req, 422, "method", "exact-cover");
    json_decref(req);
}
END_TEST

/* variant "classic" is the classic grid: auto picks the fast engine. */
START_TEST(variants_http_classic_variant) {
    json_t *req = vload("{\"variant\": \"classic\", \"grid\": "
                        "\"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5"
                        "....8..79\"}"),
           *a = vsolve(req, NULL);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(a, "stats"), "method")),
                     "fast");
    json_decref(a);
    json_decref(req);
}
END_TEST

/* A Samurai made by the server, solved as arrays: the frame is 21 x 21,
 * holes null, each grid's rules hold (the model's check), and cdcl agrees
 * with auto. */
START_TEST(variants_http_samurai) {
    json_t *gen = vload("{\"variant\": \"samurai\", \"seed\": 3}");
    hresp_t r = vpost("/v1/sudoku/generate", gen);
    json_t *j = vjson(&r, 200), *p = json_array_get(json_object_get(j, "puzzles"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "complete");
    ck_assert_int_eq(json_integer_value(json_object_get(p, "rows")), 21);
    json_t *req = json_pack("{s:s, s:O}", "variant", "samurai", "grid", json_object_get(p, "grid"));
    json_t *a = vsolve(req, NULL), *b = vsolve(req, "cdcl");
    json_t *sol = json_object_get(a, "solution");
    ck_assert(json_is_array(sol) && json_array_size(sol) == 21);
    ck_assert(json_is_null(json_array_get(json_array_get(sol, 0), 10))); /* a hole */
    ck_assert(json_equal(sol, json_object_get(b, "solution")));
    json_decref(a);
    json_decref(b);
    json_decref(req);
    json_decref(j);
    json_decref(gen);
    hresp_free(&r);
}
END_TEST

/* === Validate === */

START_TEST(variants_http_validate_in_words) {
    /* 1 at (0,0) and (8,8): the main diagonal */
    json_t *req = vload("{\"variant\": \"x\", \"grid\": \"1......................................."
                        "........................................1\"}"),
           *c;
    hresp_t r = vpost("/v1/sudoku/validate", req);
    json_t *j = vjson(&r, 200);
    c = json_array_get(json_object_get(j, "conflicts"), 0);
    ck_assert(json_is_false(json_object_get(j, "valid")));
    ck_assert_str_eq(json_string_value(json_object_get(c, "unit")), "the main diagonal");
    ck_assert_int_eq(json_array_size(json_object_get(c, "cells")), 2);
    json_decref(j);
    json_decref(req);
    hresp_free(&r);
    /* parity and a region, and a complete grid (the solver's) that is valid */
    req = vload(EVEN_ODD);
    json_t *a = vsolve(req, NULL), *sol = json_object_get(a, "solution");
    char grid[82];
    snprintf(grid, sizeof grid, "%s", json_string_value(sol));
    json_object_set_new(req, "grid", json_string(grid));
    r = vpost("/v1/sudoku/validate", req);
    j = vjson(&r, 200);
    ck_assert(json_is_true(json_object_get(j, "valid")) &&
              json_is_true(json_object_get(j, "complete")));
    json_decref(j);
    hresp_free(&r);
    grid[0] = grid[0] == '9' ? '8' : (char)(grid[0] + 1); /* another parity, row 1 repeats */
    json_object_set_new(req, "grid", json_string(grid));
    r = vpost("/v1/sudoku/validate", req);
    j = vjson(&r, 200);
    int parity = 0, row = 0;
    size_t i;
    json_array_foreach(json_object_get(j, "conflicts"), i, c) {
        const char *u = json_string_value(json_object_get(c, "unit"));
        parity |= strcmp(u, "the parity of grid[0][0]") == 0;
        row |= strcmp(u, "row 1") == 0;
    }
    ck_assert_msg(parity && row, "%s", r.body);
    json_decref(j);
    hresp_free(&r);
    /* the same givens to solve: a 422 naming the cell and the rule */
    vproblem("/v1/sudoku/solve", req, 422, "grid[0][0]", "parity");
    json_decref(a);
    json_decref(req);
}
END_TEST

/* === Constraints (sum and skyscraper lines) === */

/* The 36 outside clues of `sol` (81 digits) as constraints: skyscraper
 * clues over whole rows and columns, or margin sums of the first three
 * cells from each side. */
static json_t *vclues(const char *sol, int sky) {
    static const char *const sides[] = {"top", "bottom", "left", "right"};
    json_t *list = json_array();
    for (int s = 0; s < 4; s++)
        for (int i = 0; i < 9; i++) {
            json_t *cells = json_array();
            int len = sky ? 9 : 3, sum = 0, seen = 0, top = 0;
            for (int k = 0; k < len; k++) {
                int r = s == 0 ? k : s == 1 ? 8 - k : i, c = s < 2 ? i : s == 2 ? k : 8 - k;
                int v = sol[r * 9 + c] - '0';
                json_array_append_new(cells, json_pack("[i,i]", r, c));
                sum += v;
                if (v > top) top = v, seen++;
            }
            json_array_append_new(
                list, sky ? json_pack("{s:s,s:s,s:i,s:o}", "type", "skyscraper", "side", sides[s],
                                      "visible", seen, "cells", cells)
                          : json_pack("{s:s,s:i,s:o}", "type", "sum", "sum", sum, "cells", cells));
        }
    return list;
}

/* Whether grid (81 characters) keeps every clue of list, computed here. */
static int vclues_hold(json_t *list, const char *grid) {
    size_t k, i;
    json_t *e, *cell;
    json_array_foreach(list, k, e) {
        int sum = 0, seen = 0, top = 0;
        int sky = strcmp(json_string_value(json_object_get(e, "type")), "skyscraper") == 0;
        json_array_foreach(json_object_get(e, "cells"), i, cell) {
            int v = grid[json_integer_value(json_array_get(cell, 0)) * 9 +
                         json_integer_value(json_array_get(cell, 1))] -
                    '0';
            sum += v;
            if (v > top) top = v, seen++;
        }
        if ((sky ? seen : sum) != json_integer_value(json_object_get(e, sky ? "visible" : "sum")))
            return 0;
    }
    return 1;
}

/* An empty 9x9 with the 36 skyscraper clues, then the 36 margin sums, of a
 * grid: every solution the server sends keeps the Sudoku rules and every
 * clue (checked here), and the source grid is one of them when the server
 * says the answer is unique.  A broken clue is a conflict named in words;
 * other types, bad numbers and cells, the wrong method, grade and generate
 * are refused naming the field. */
START_TEST(variants_http_constraints) {
    static const char sol[] =
        "395876421764123895218549376827354619436912587951687243582731964673498152149265738";
    for (int sky = 1; sky >= 0; sky--) {
        json_t *req = json_object(), *list = vclues(sol, sky), *a, *sols, *g;
        hresp_t r;
        size_t i;
        json_object_set_new(req, "grid",
                            json_string("................................."
                                        "................................................"));
        json_object_set(req, "constraints", list);
        json_object_set_new(req, "max_solutions", json_integer(2));
        r = vpost("/v1/sudoku/solve", req);
        a = vjson(&r, 200);
        sols = json_object_get(a, "solutions");
        ck_assert_msg(json_array_size(sols) >= 1, "%s", r.body);
        json_array_foreach(sols, i, g) {
            const char *text = json_string_value(g);
            ck_assert_ptr_nonnull(text);
            ck_assert_int_eq(strlen(text), 81);
            ck_assert_msg(vclues_hold(list, text), "a solution breaks a clue: %s", text);
            for (int u = 0; u < 27; u++) { /* rows, columns, boxes: each digit once */
                int seen = 0;
                for (int k = 0; k < 9; k++) {
                    int c = u < 9    ? u * 9 + k
                            : u < 18 ? k * 9 + (u - 9)
                                     : ((u - 18) / 3 * 3 + k / 3) * 9 + (u - 18) % 3 * 3 + k % 3;
                    seen |= 1 << (text[c] - '0');
                }
                ck_assert_int_eq(seen, 0x3fe);
            }
        }
        if (json_is_true(json_object_get(a, "unique")))
            ck_assert_str_eq(json_string_value(json_array_get(sols, 0)), sol);
        json_decref(a);
        hresp_free(&r);
        /* the source grid with its first cell changed to 9 breaks a clue */
        {
            char bad[82];
            int named = 0;
            json_t *c;
            memcpy(bad, sol, 82);
            bad[0] = bad[0] == '9' ? '8' : '9';
            json_object_set_new(req, "grid", json_string(bad));
            r = vpost("/v1/sudoku/validate", req);
            a = vjson(&r, 200);
            json_array_foreach(json_object_get(a, "conflicts"), i, c) named |=
                strncmp(json_string_value(json_object_get(c, "unit")), "constraints[", 12) == 0;
            ck_assert_msg(named, "no conflict names a constraint: %s", r.body);
            json_decref(a);
            hresp_free(&r);
        }
        json_decref(list);
        json_decref(req);
    }
    vproblem_text("/v1/sudoku/solve",
                  "{\"grid\": \"................\", \"constraints\": [{\"type\": \"quad\", "
                  "\"cells\": [[0, 0], [0, 1]]}]}",
                  400, "constraints[0].type", "it reads sum, little-killer, cage");
    /* segments: none, a cell off the grid or twice, a region sum line they do not cut */
    vproblem_text("/v1/sudoku/solve",
                  "{\"grid\": \"................\", \"constraints\": [{\"type\": \"equal-sum\", "
                  "\"segments\": []}]}",
                  400, "constraints[0].segments", "1 to 256 segments");
    vproblem_text("/v1/sudoku/solve",
                  "{\"grid\": \"................\", \"constraints\": [{\"type\": \"equal-sum\", "
                  "\"segments\": [[[0, 0]], [[0, 1], [4, 0]]]}]}",
                  400, "constraints[0].segments[1][1]", "outside");
    vproblem_text("/v1/sudoku/solve",
                  "{\"grid\": \"................\", \"constraints\": [{\"type\": \"equal-sum\", "
                  "\"segments\": [[[0, 0], [0, 0]], [[0, 1]]]}]}",
                  400, "constraints[0].segments[0][1]", "distinct");
    vproblem_text("/v1/sudoku/solve",
                  "{\"grid\": \"................\", \"constraints\": [{\"type\": \"equal-sum\", "
                  "\"segments\": [[[0, 0]], []]}]}",
                  400, "constraints[0].segments[1]", "1 to 256 cells");
    vproblem_text("/v1/sudoku/solve",
                  "{\"grid\": \"................\", \"constraints\": [{\"type\": "
                  "\"region-sum-line\", \"cells\": [[0, 1], [0, 2], [0, 3]], "
                  "\"segments\": [[[0, 1]], [[0, 3], [0, 2]]]}]}",
                  400, "constraints[0].segments", "joined in order");
    vproblem_text("/v1/sudoku/solve",
                  "{\"grid\": \"................\", \"constraints\": [{\"type\": "
                  "\"region-sum-line\", \"cells\": [[0, 1], [0, 2], [0, 3]], "
                  "\"segments\": [[[0, 1]], [[0, 2]]]}]}",
                  400, "constraints[0].segments", "cover 2 of the line's 3 cells");
    vproblem_text("/v1/sudoku/solve",
                  "{\"grid\": \"................\", \"constraints\": [{\"type\": "
                  "\"region-sum-line\", \"segments\": [[[0, 1]], [[0, 2]]]}]}",
                  400, "constraints[0].cells", NULL);
    vproblem_text("/v1/sudoku/solve",
                  "{\"grid\": \"................\", \"constraints\": [{\"type\": \"sum-line\", "
                  "\"sum\": 5, \"loop\": \"yes\", \"cells\": [[0, 0], [0, 1]]}]}",
                  400, "constraints[0].loop", "true");
    { /* a group of 257 cells on a 16x16 (two segments over the same cells) */
        char empty[257];
        json_t *req =
            json_pack("{s:[{s:s,s:[[],[]]}]}", "constraints", "type", "equal-sum", "segments");
        json_t *segs =
            json_object_get(json_array_get(json_object_get(req, "constraints"), 0), "segments");
        for (int c = 0; c < 129; c++) {
            json_array_append_new(json_array_get(segs, 0), json_pack("[i,i]", c / 16, c % 16));
            if (c < 128)
                json_array_append_new(json_array_get(segs, 1), json_pack("[i,i]", c / 16, c % 16));
        }
        memset(empty, '.', 256);
        empty[256] = '\0';
        json_object_set_new(req, "grid", json_string(empty));
        vproblem("/v1/sudoku/solve", req, 400, "constraints[0].segments", "more than 256 cells");
        json_decref(req);
    }
    vproblem_text("/v1/sudoku/solve",
                  "{\"grid\": \"................\", \"constraints\": [{\"type\": \"sum\", \"sum\": "
                  "9, \"cells\": [[0, 0], [0, 1]]}]}",
                  400, "constraints[0].sum", "from 2 to 8");
    vproblem_text("/v1/sudoku/solve",
                  "{\"grid\": \"................\", \"constraints\": [{\"type\": \"skyscraper\", "
                  "\"visible\": 2, \"cells\": [[0, 0], [4, 1]]}]}",
                  400, "constraints[0].cells[1]", "outside");
    vproblem_text("/v1/sudoku/solve",
                  "{\"grid\": \"................\", \"constraints\": [{\"type\": \"sum\", \"sum\": "
                  "5, \"cells\": [[0, 0], [0, 0]]}]}",
                  400, "constraints[0]", "distinct");
    vproblem_text("/v1/sudoku/solve",
                  "{\"grid\": \"................\", \"method\": \"dlx\", \"constraints\": "
                  "[{\"type\": \"sum\", \"sum\": 5, \"cells\": [[0, 0], [0, 1]]}]}",
                  422, "method", "propagation");
    { /* grade reads constraints: this sum leaves several solutions (a 422 that says so) */
        json_t *b = vload("{\"grid\": \"1...............\", \"constraints\": [{\"type\": "
                          "\"sum\", \"sum\": 5, \"cells\": [[0, 1], [0, 2]]}]}");
        hresp_t r = vpost("/v1/sudoku/grade", b);
        json_t *j = vjson(&r, 422);
        ck_assert_str_eq(json_string_value(json_object_get(j, "type")), "/problems/not-unique");
        json_decref(j);
        hresp_free(&r);
        json_decref(b);
    }
    vproblem_text("/v1/sudoku/generate",
                  "{\"size\": 4, \"constraints\": [{\"type\": \"sum\", \"sum\": 5, \"cells\": "
                  "[[0, 1], [0, 2]]}]}",
                  400, "constraints", NULL);
    /* a short body that would make too many line rules: 400, nothing huge allocated */
    {
        json_t *req = json_pack("{s:s,s:[]}", "grid",
                                "................................."
                                "................................................",
                                "constraints");
        for (int k = 0; k < 40; k++)
            json_array_append_new(json_object_get(req, "constraints"),
                                  json_pack("{s:s}", "type", "anti-king"));
        vproblem("/v1/sudoku/solve", req, 400, "constraints", "line rules");
        json_decref(req);
    }
    /* a symmetry a non-square layout cannot have: 400, not a search that never ends */
    vproblem_text("/v1/sudoku/generate",
                  "{\"variant\": \"gattai-8\", \"symmetry\": \"rotational90\"}", 400, "symmetry",
                  "square");
}
END_TEST

/* POST /v1/killer/solve with a variant field: a Killer-Jigsaw-X made
 * here from the jigsaw example's solution (dominoes of each row, their sums
 * the cages, no givens).  Every solution keeps the jigsaw's rules (checked
 * by vcheck_single) and every cage (checked here); the example's solution
 * is the answer when it is unique.  Problems name the cages as the client
 * wrote them; the Killer engines' options are refused by name. */
START_TEST(variants_http_killer_on_variants) {
    json_t *jig = vload(JIGSAW_X), *a = vsolve(jig, NULL), *cages = json_array(), *body, *ans, *g;
    const char *sol = json_string_value(json_object_get(a, "solution"));
    hresp_t r;
    size_t i;
    ck_assert_int_eq(strlen(sol), 36);
    for (int row = 0; row < 6; row++)
        for (int c = 0; c < 6; c += 2)
            json_array_append_new(cages,
                                  json_pack("{s:i,s:[[i,i],[i,i]]}", "sum",
                                            (sol[row * 6 + c] - '0') + (sol[row * 6 + c + 1] - '0'),
                                            "cells", row, c, row, c + 1));
    body =
        json_pack("{s:[s,s],s:O,s:i,s:O,s:i}", "variant", "jigsaw", "x", "regions",
                  json_object_get(jig, "regions"), "size", 6, "cages", cages, "max_solutions", 2);
    r = vpost("/v1/killer/solve", body);
    ans = vjson(&r, 200);
    json_object_set_new(jig, "grid", json_string("...................................."));
    json_array_foreach(json_object_get(ans, "solutions"), i, g) {
        const char *t = json_string_value(g);
        size_t k;
        json_t *cage;
        vcheck_single(jig, g);
        json_array_foreach(cages, k, cage) {
            json_t *cells = json_object_get(cage, "cells");
            int x = t[json_integer_value(json_array_get(json_array_get(cells, 0), 1)) +
                      6 * json_integer_value(json_array_get(json_array_get(cells, 0), 0))] -
                    '0',
                y = t[json_integer_value(json_array_get(json_array_get(cells, 1), 1)) +
                      6 * json_integer_value(json_array_get(json_array_get(cells, 1), 0))] -
                    '0';
            ck_assert_int_eq(x + y, json_integer_value(json_object_get(cage, "sum")));
        }
    }
    ck_assert_int_ge(json_array_size(json_object_get(ans, "solutions")), 1);
    if (json_is_true(json_object_get(ans, "unique")))
        ck_assert_str_eq(json_string_value(json_array_get(json_object_get(ans, "solutions"), 0)),
                         sol);
    json_decref(ans);
    hresp_free(&r);
    /* a cage's bad sum is named as the client wrote it */
    json_object_set_new(json_array_get(cages, 2), "sum", json_integer(99));
    json_object_set(body, "cages", cages);
    vproblem("/v1/killer/solve", body, 400, "cages[2].sum", NULL);
    json_object_set_new(body, "method", json_string("advanced"));
    vproblem("/v1/killer/solve", body, 400, "method", "propagation");
    json_decref(body);
    json_decref(cages);
    json_decref(a);
    json_decref(jig);
}
END_TEST

/* One ISS constraint per type made from a known grid (cells chosen by
 * their values there), as {"type", members}; the rule each keeps, checked
 * by iss_holds() from its definition. */
static const char iss_sol[] =
    "395876421764123895218549376827354619436912587951687243582731964673498152149265738";

/* The k-th cell (0, 1, ...) of iss_sol holding value v, as [r, c]. */
static json_t *iss_cell(int v, int k) {
    for (int c = 0; c < 81; c++)
        if (iss_sol[c] - '0' == v && k-- == 0) return json_pack("[i,i]", c / 9, c % 9);
    return NULL;
}

static json_t *iss_cells(const int *vals, int n) {
    json_t *a = json_array();
    int used[10] = {0};
    for (int i = 0; i < n; i++)
        json_array_append_new(a, iss_cell(vals[i], used[vals[i]]++));
    return a;
}

#define ISS_CELLS(...)                                                                             \
    iss_cells((const int[]){__VA_ARGS__}, (int)(sizeof((const int[]){__VA_ARGS__}) / sizeof(int)))

static json_t *iss_constraints(void) {
    json_t *l = json_array();
    json_array_append_new(l, json_pack("{s:s,s:o}", "type", "thermo", "cells", ISS_CELLS(1, 3, 6)));
    json_array_append_new(l, json_pack("{s:s,s:i,s:o}", "type", "whisper", "difference", 5, "cells",
                                       ISS_CELLS(1, 7, 2)));
    json_array_append_new(
        l, json_pack("{s:s,s:o}", "type", "palindrome", "cells", ISS_CELLS(4, 9, 4)));
    json_array_append_new(l, json_pack("{s:s,s:o}", "type", "renban", "cells", ISS_CELLS(3, 5, 4)));
    json_array_append_new(
        l, json_pack("{s:s,s:o}", "type", "between", "cells", ISS_CELLS(2, 5, 3, 8)));
    json_array_append_new(l, json_pack("{s:s,s:i,s:o}", "type", "lockout", "min_diff", 4, "cells",
                                       ISS_CELLS(3, 1, 9, 8)));
    json_array_append_new(l, json_pack("{s:s,s:o,s:o}", "type", "arrow", "circle", iss_cell(9, 0),
                                       "line", ISS_CELLS(4, 5)));
    json_array_append_new(l, json_pack("{s:s,s:o,s:o}", "type", "double-arrow", "circles",
                                       ISS_CELLS(2, 7), "line", ISS_CELLS(6, 3)));
    json_array_append_new(l, json_pack("{s:s,s:o,s:o}", "type", "pill-arrow", "pill",
                                       ISS_CELLS(1, 2), "line", ISS_CELLS(9, 3)));
    json_array_append_new(l,
                          json_pack("{s:s,s:o}", "type", "kropki-white", "cells", ISS_CELLS(5, 6)));
    json_array_append_new(l,
                          json_pack("{s:s,s:o}", "type", "kropki-black", "cells", ISS_CELLS(3, 6)));
    json_array_append_new(l, json_pack("{s:s,s:o}", "type", "x", "cells", ISS_CELLS(4, 6)));
    json_array_append_new(l, json_pack("{s:s,s:o}", "type", "v", "cells", ISS_CELLS(1, 4)));
    json_array_append_new(l,
                          json_pack("{s:s,s:o}", "type", "greater-than", "cells", ISS_CELLS(8, 2)));
    json_array_append_new(
        l, json_pack("{s:s,s:i,s:o}", "type", "cage", "sum", 6, "cells", ISS_CELLS(1, 2, 3)));
    json_array_append_new(l, json_pack("{s:s,s:i,s:o}", "type", "little-killer", "sum", 18, "cells",
                                       ISS_CELLS(9, 9)));
    json_array_append_new(
        l, json_pack("{s:s,s:i,s:o}", "type", "modular", "mod", 3, "cells", ISS_CELLS(1, 2, 3, 7)));
    json_array_append_new(
        l, json_pack("{s:s,s:o}", "type", "entropic", "cells", ISS_CELLS(1, 5, 9, 2)));
    json_array_append_new(l, json_pack("{s:s,s:o}", "type", "zipper", "cells", ISS_CELLS(2, 9, 7)));
    json_array_append_new(l, json_pack("{s:s,s:i,s:i}", "type", "sandwich", "row", 0, "sum", 32));
    json_array_append_new(l, json_pack("{s:s,s:s,s:i,s:[[i,i],[i,i],[i,i],[i,i],[i,i],[i,i],[i,i],"
                                       "[i,i],[i,i]]}",
                                       "type", "x-sum", "side", "left", "sum", 17, "cells", 0, 0, 0,
                                       1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8));
    json_array_append_new(l, json_pack("{s:s,s:i,s:b,s:o}", "type", "sum-line", "sum", 6, "loop", 0,
                                       "cells", ISS_CELLS(1, 5, 2, 4)));
    /* a loop whose runs wrap: 4 | 1 5 | 2 (+ 4) */
    json_array_append_new(l, json_pack("{s:s,s:i,s:b,s:o}", "type", "sum-line", "sum", 6, "loop", 1,
                                       "cells", ISS_CELLS(4, 1, 5, 2)));
    /* through boxes 1, 2 and 5 of iss_sol: 1 + 8, 5 + 4, 5 + 4 */
    json_array_append_new(
        l, json_pack("{s:s,s:[[i,i],[i,i],[i,i],[i,i],[i,i],[i,i]],s:[[[i,i],[i,i]],[[i,i],[i,i]],"
                     "[[i,i],[i,i]]]}",
                     "type", "region-sum-line", "cells", 2, 1, 2, 2, 2, 3, 2, 4, 3, 4, 3, 5,
                     "segments", 2, 1, 2, 2, 2, 3, 2, 4, 3, 4, 3, 5));
    /* three groups adding up to 6, the first two sharing the cell of the first 1 */
    json_array_append_new(l, json_pack("{s:s,s:[o,o,o]}", "type", "equal-sum", "segments",
                                       ISS_CELLS(1, 5), ISS_CELLS(1, 2, 3), ISS_CELLS(6)));
    return l;
}

/* Whether grid g (81 digits) keeps constraint e, from the rule's text. */
static int iss_holds(json_t *e, const char *g) {
    const char *t = json_string_value(json_object_get(e, "type"));
    int v[16], n = 0, h = 0, sum = 0;
    json_t *list[3] = {json_object_get(e, "circle"), json_object_get(e, "circles"),
                       json_object_get(e, "pill")};
    size_t i;
    json_t *c;
    if (list[0] != NULL) { /* arrow: the circle, then the line */
        v[n++] = g[json_integer_value(json_array_get(list[0], 0)) * 9 +
                   json_integer_value(json_array_get(list[0], 1))] -
                 '0';
        h = 1;
    }
    for (int k = 1; k < 3; k++)
        json_array_foreach(list[k], i, c) {
            v[n++] = g[json_integer_value(json_array_get(c, 0)) * 9 +
                       json_integer_value(json_array_get(c, 1))] -
                     '0';
            h++;
        }
    json_array_foreach(json_object_get(e, json_object_get(e, "line") ? "line" : "cells"), i,
                       c) v[n++] =
        g[json_integer_value(json_array_get(c, 0)) * 9 + json_integer_value(json_array_get(c, 1))] -
        '0';
    for (int k = h; k < n; k++)
        sum += v[k];
    if (json_object_get(e, "segments") != NULL) { /* region-sum-line, equal-sum */
        json_t *seg;
        int first = -1;
        json_array_foreach(json_object_get(e, "segments"), i, seg) {
            size_t j;
            sum = 0;
            json_array_foreach(seg, j, c) sum += g[json_integer_value(json_array_get(c, 0)) * 9 +
                                                   json_integer_value(json_array_get(c, 1))] -
                                                 '0';
            if (first >= 0 && sum != first) return 0;
            first = sum;
        }
        return first >= 0;
    }
    if (strcmp(t, "thermo") == 0) return v[0] < v[1] && v[1] < v[2];
    if (strcmp(t, "whisper") == 0) return abs(v[0] - v[1]) >= 5 && abs(v[1] - v[2]) >= 5;
    if (strcmp(t, "palindrome") == 0) return v[0] == v[2];
    if (strcmp(t, "renban") == 0) {
        int lo = 10, hi = 0;
        for (int k = 0; k < n; k++)
            lo = v[k] < lo ? v[k] : lo, hi = v[k] > hi ? v[k] : hi;
        return hi - lo == n - 1 && v[0] != v[1] && v[1] != v[2] && v[0] != v[2];
    }
    if (strcmp(t, "between") == 0 || strcmp(t, "lockout") == 0) {
        int lo = v[0] < v[n - 1] ? v[0] : v[n - 1], hi = v[0] < v[n - 1] ? v[n - 1] : v[0];
        int between = t[0] == 'b';
        if (!between && hi - lo < 4) return 0;
        for (int k = 1; k < n - 1; k++)
            if (between ? !(v[k] > lo && v[k] < hi) : (v[k] >= lo && v[k] <= hi)) return 0;
        return 1;
    }
    if (strcmp(t, "arrow") == 0) return v[0] == sum;
    if (strcmp(t, "double-arrow") == 0) return v[0] + v[1] == sum;
    if (strcmp(t, "pill-arrow") == 0) return 10 * v[0] + v[1] == sum;
    if (strcmp(t, "kropki-white") == 0) return abs(v[0] - v[1]) == 1;
    if (strcmp(t, "kropki-black") == 0) return v[0] == 2 * v[1] || v[1] == 2 * v[0];
    if (strcmp(t, "x") == 0) return v[0] + v[1] == 10;
    if (strcmp(t, "v") == 0) return v[0] + v[1] == 5;
    if (strcmp(t, "greater-than") == 0) return v[0] > v[1];
    if (strcmp(t, "cage") == 0) return sum == 6 && v[0] != v[1] && v[1] != v[2] && v[0] != v[2];
    if (strcmp(t, "little-killer") == 0) return sum == 18;
    if (strcmp(t, "zipper") == 0) return v[0] + v[2] == v[1];
    if (strcmp(t, "sandwich") == 0) { /* row 0: between its 1 and its 9 */
        int in = 0;
        sum = 0;
        for (int k = 0; k < 9; k++) {
            int x = g[k] - '0';
            if (x == 1 || x == 9)
                in = !in;
            else if (in)
                sum += x;
        }
        return sum == 32;
    }
    if (strcmp(t, "x-sum") == 0) {
        sum = 0;
        for (int k = 0; k < v[0]; k++)
            sum += v[k];
        return sum == 17;
    }
    if (strcmp(t, "sum-line") == 0) { /* a loop's runs may start at any cell */
        int loop = json_is_true(json_object_get(e, "loop"));
        for (int from = 0; from < (loop ? n : 1); from++) {
            int run = 0;
            for (int k = 0; k < n && run <= 6; k++) {
                run += v[(from + k) % n];
                if (run == 6) run = 0;
            }
            if (run == 0) return 1;
        }
        return 0;
    }
    if (strcmp(t, "modular") == 0 || strcmp(t, "entropic") == 0) {
        for (int k = 0; k + 1 < n; k++)
            for (int j = k + 1; j < n && j < k + 3; j++)
                if (t[0] == 'm' ? v[k] % 3 == v[j] % 3 : (v[k] - 1) / 3 == (v[j] - 1) / 3) return 0;
        return 1;
    }
    return 0;
}

/* ISS's types on a 9x9 made from a known grid: validate calls the grid
 * valid; with the constrained cells (and a few more) blank, every solution
 * the server sends keeps every constraint by its definition here, and the
 * givens. */
START_TEST(variants_http_iss_types) {
    json_t *cons = iss_constraints(), *e, *req, *a, *g;
    char grid[82];
    size_t i, k;
    hresp_t r;
    json_array_foreach(cons, i, e) ck_assert_msg(iss_holds(e, iss_sol), "case %zu", i);
    req = json_pack("{s:s,s:O}", "grid", iss_sol, "constraints", cons);
    r = vpost("/v1/sudoku/validate", req);
    a = vjson(&r, 200);
    ck_assert_msg(json_is_true(json_object_get(a, "valid")), "%s", r.body);
    json_decref(a);
    hresp_free(&r);
    memcpy(grid, iss_sol, 82);
    json_array_foreach(cons, i, e) { /* blank every constrained cell */
        const char *keys[] = {"cells", "line", "circles", "pill"};
        json_t *c;
        for (int m = 0; m < 4; m++)
            json_array_foreach(json_object_get(e, keys[m]), k, c)
                grid[json_integer_value(json_array_get(c, 0)) * 9 +
                     json_integer_value(json_array_get(c, 1))] = '.';
        if ((c = json_object_get(e, "circle")) != NULL)
            grid[json_integer_value(json_array_get(c, 0)) * 9 +
                 json_integer_value(json_array_get(c, 1))] = '.';
        json_array_foreach(json_object_get(e, "segments"), k, c) {
            json_t *d;
            size_t j;
            json_array_foreach(c, j, d) grid[json_integer_value(json_array_get(d, 0)) * 9 +
                                             json_integer_value(json_array_get(d, 1))] = '.';
        }
    }
    json_object_set_new(req, "grid", json_string(grid));
    json_object_set_new(req, "max_solutions", json_integer(2));
    r = vpost("/v1/sudoku/solve", req);
    a = vjson(&r, 200);
    ck_assert_int_ge(json_array_size(json_object_get(a, "solutions")), 1);
    json_array_foreach(json_object_get(a, "solutions"), i, g) {
        const char *t = json_string_value(g);
        for (int c = 0; c < 81; c++)
            ck_assert(grid[c] == '.' || grid[c] == t[c]);
        json_array_foreach(cons, k, e)
            ck_assert_msg(iss_holds(e, t), "constraints[%zu] broken in %s", k, t);
    }
    json_decref(a);
    hresp_free(&r);
    json_decref(req);
    json_decref(cons);
}
END_TEST

/* === Grade and hint === */

START_TEST(variants_http_grade_and_hint) {
    json_t *req = vload(JIGSAW_X), *a = vsolve(req, NULL), *e;
    int sol[64];
    vgrid(json_object_get(a, "solution"), sol, 64);
    json_object_set_new(req, "steps", json_true());
    hresp_t r = vpost("/v1/sudoku/grade", req);
    json_t *j = vjson(&r, 200);
    size_t i, k;
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "graded");
    ck_assert(json_is_string(json_object_get(j, "level")));
    ck_assert(json_integer_value(json_object_get(j, "steps_count")) > 0);
    int named = 0;
    json_array_foreach(json_object_get(j, "steps"), i, e) { /* every placement is the solution's */
        json_t *pl, *u;
        json_array_foreach(json_object_get(e, "placements"), k, pl) {
            json_t *cell = json_object_get(pl, "cell");
            int c = (int)(json_integer_value(json_array_get(cell, 0)) * 6 +
                          json_integer_value(json_array_get(cell, 1)));
            ck_assert_int_eq(json_integer_value(json_object_get(pl, "value")), sol[c]);
        }
        json_array_foreach(json_object_get(e, "units"), k, u) named |=
            strncmp(json_string_value(u), "region ", 7) == 0;
    }
    ck_assert_msg(named, "no step names a region: %s", r.body);
    json_decref(j);
    hresp_free(&r);
    json_object_del(req, "steps");
    /* hint: the next step places the solution's value */
    r = vpost("/v1/sudoku/hint", req);
    j = vjson(&r, 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "hint");
    json_t *pl = json_array_get(json_object_get(json_object_get(j, "step"), "placements"), 0);
    if (pl != NULL) {
        json_t *cell = json_object_get(pl, "cell");
        ck_assert_int_eq(json_integer_value(json_object_get(pl, "value")),
                         sol[json_integer_value(json_array_get(cell, 0)) * 6 +
                             json_integer_value(json_array_get(cell, 1))]);
    }
    json_decref(j);
    hresp_free(&r);
    /* a wrong entry (the givens kept): "wrong", naming it */
    char grid[37];
    snprintf(grid, sizeof grid, "%s", json_string_value(json_object_get(req, "grid")));
    json_object_set(req, "givens", json_object_get(req, "grid"));
    grid[0] = (char)('0' + (sol[0] % 6) + 1);
    json_object_set_new(req, "grid", json_string(grid));
    r = vpost("/v1/sudoku/hint", req);
    j = vjson(&r, 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "wrong");
    json_decref(j);
    hresp_free(&r);
    /* the full solution: "solved" */
    json_object_set(req, "grid", json_object_get(a, "solution"));
    r = vpost("/v1/sudoku/hint", req);
    j = vjson(&r, 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "solved");
    json_decref(j);
    hresp_free(&r);
    /* a given changed: 400 on the grid's cell */
    json_object_del(req, "givens");
    json_object_set_new(req, "givens", json_string("...5....6...1.4..........2.........."));
    snprintf(grid, sizeof grid, "%s", "...4....6...1.4..........2..........");
    json_object_set_new(req, "grid", json_string(grid));
    vproblem("/v1/sudoku/hint", req, 400, "grid[0][3]", "given");
    /* several solutions: 422 */
    json_object_del(req, "givens");
    json_object_set_new(req, "grid", json_string("...................................."));
    vproblem("/v1/sudoku/grade", req, 422, NULL, NULL);
    r = vpost("/v1/sudoku/grade", req);
    j = vjson(&r, 422);
    ck_assert_str_eq(json_string_value(json_object_get(j, "type")), "/problems/not-unique");
    ck_assert_str_eq(json_string_value(json_object_get(j, "title")),
                     "The puzzle has more than one solution");
    json_decref(j);
    hresp_free(&r);
    json_decref(a);
    json_decref(req);
}
END_TEST

/* Grade and hint on constraints over HTTP: G's rows as sandwiches and a
 * thermometer, half of G given.  Every placement of the path is G's, the
 * machine step's signal is "search", the thermo's step names its
 * constraint; a hint answers a step. */
START_TEST(variants_http_grade_constraints) {
    static const char G[] =
        "395876421764123895218549376827354619436912587951687243582731964673498152149265738";
    json_t *req = json_object(), *cons = json_array(), *j, *e;
    char grid[82];
    size_t i, k;
    int thermo = 0;
    for (int c = 0; c < 81; c++)
        grid[c] = c % 2 == 0 ? G[c] : '.';
    grid[81] = '\0';
    for (int r = 0; r < 9; r++) {
        int in = 0, sum = 0;
        for (int c = 0; c < 9; c++) {
            int v = G[r * 9 + c] - '0';
            if (v == 1 || v == 9)
                in = !in;
            else if (in)
                sum += v;
        }
        json_array_append_new(cons,
                              json_pack("{s:s,s:i,s:i}", "type", "sandwich", "row", r, "sum", sum));
    }
    /* 1 < 2 < 3 < 4 in row 1 (columns 9, 8, 1, 7) */
    json_array_append_new(cons, json_pack("{s:s,s:[[i,i],[i,i],[i,i],[i,i]]}", "type", "thermo",
                                          "cells", 0, 8, 0, 7, 0, 0, 0, 6));
    json_object_set_new(req, "grid", json_string(grid));
    json_object_set_new(req, "constraints", cons);
    json_object_set_new(req, "steps", json_true());
    hresp_t r = vpost("/v1/sudoku/grade", req);
    j = vjson(&r, 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "graded");
    ck_assert_str_eq(
        json_string_value(json_object_get(j, "signal")),
        json_object_get(json_object_get(j, "techniques"), "constraint") ? "search" : "techniques");
    json_array_foreach(json_object_get(j, "steps"), i, e) {
        json_t *pl, *el;
        json_array_foreach(json_object_get(e, "placements"), k, pl) {
            json_t *cell = json_object_get(pl, "cell");
            int c = (int)(json_integer_value(json_array_get(cell, 0)) * 9 +
                          json_integer_value(json_array_get(cell, 1)));
            ck_assert_int_eq(json_integer_value(json_object_get(pl, "value")), G[c] - '0');
        }
        json_array_foreach(json_object_get(e, "eliminations"), k, el) {
            json_t *cell = json_object_get(el, "cell"), *v;
            int c = (int)(json_integer_value(json_array_get(cell, 0)) * 9 +
                          json_integer_value(json_array_get(cell, 1)));
            size_t q;
            json_array_foreach(json_object_get(el, "values"), q, v)
                ck_assert_int_ne(json_integer_value(v), G[c] - '0');
        }
        if (strcmp(json_string_value(json_object_get(e, "technique")), "thermo") == 0) {
            ck_assert_int_eq(json_integer_value(json_object_get(e, "constraint")), 9);
            ck_assert(strstr(json_string_value(json_object_get(e, "explanation")),
                             "thermo on constraints[9]") != NULL);
            thermo++;
        }
    }
    ck_assert_int_gt(thermo, 0);
    json_decref(j);
    hresp_free(&r);
    json_object_del(req, "steps");
    r = vpost("/v1/sudoku/hint", req);
    j = vjson(&r, 200);
    ck_assert_str_eq(json_string_value(json_object_get(j, "status")), "hint");
    ck_assert(json_is_boolean(json_object_get(json_object_get(j, "step"), "machine")));
    json_decref(j);
    hresp_free(&r);
    json_decref(req);
}
END_TEST

/* === Generate === */

/* Each kind of variant the generator draws: the same seed gives the same
 * puzzle, and the puzzle with its variant fields is a solve request that
 * cdcl (not the generator's engine) proves unique with the generator's
 * solution. */
START_TEST(variants_http_generate) {
    static const char *const bodies[] = {
        "{\"variant\": [\"jigsaw\", \"x\"], \"size\": 6, \"seed\": 6, \"count\": 2}",
        "{\"variant\": \"windoku\", \"seed\": 4}",
        "{\"variant\": \"even-odd\", \"seed\": 11}",
        ("{\"variant\": \"consecutive\", \"size\": 6, \"box\": {\"rows\": 1, \"cols\": 6}, "
         "\"seed\": 5}"),
        "{\"variant\": \"x\", \"size\": 4, \"seed\": 2, \"difficulty\": \"easy\"}",
    };
    for (size_t k = 0; k < sizeof bodies / sizeof bodies[0]; k++) {
        json_t *body = vload(bodies[k]), *p;
        hresp_t r1 = vpost("/v1/sudoku/generate", body), r2 = vpost("/v1/sudoku/generate", body);
        json_t *j1 = vjson(&r1, 200), *j2 = vjson(&r2, 200);
        size_t i;
        ck_assert_msg(strcmp(json_string_value(json_object_get(j1, "status")), "complete") == 0,
                      "%s", r1.body);
        ck_assert(json_equal(json_object_get(j1, "puzzles"), json_object_get(j2, "puzzles")));
        json_array_foreach(json_object_get(j1, "puzzles"), i, p) {
            json_t *req = json_object(), *a;
            const char *keys[] = {"variant", "box", "regions", "parity", "pairs", NULL};
            for (int f = 0; keys[f]; f++)
                if (json_object_get(p, keys[f]))
                    json_object_set(req, keys[f], json_object_get(p, keys[f]));
            json_object_set(req, "grid", json_object_get(p, "puzzle"));
            a = vsolve(req, "cdcl");
            ck_assert(json_equal(json_object_get(a, "solution"), json_object_get(p, "solution")));
            json_decref(a);
            json_decref(req);
        }
        json_decref(j1);
        json_decref(j2);
        hresp_free(&r1);
        hresp_free(&r2);
        json_decref(body);
    }
    /* puzzle 1's reported seed (not 6 + 1: generate_api.h's hash) with
     * count 1 regenerates it, regions and all */
    {
        json_t *body = vload(bodies[0]);
        hresp_t r = vpost("/v1/sudoku/generate", body);
        json_t *j = vjson(&r, 200), *p1 = json_array_get(json_object_get(j, "puzzles"), 1);
        json_int_t seed1 = json_integer_value(json_object_get(p1, "seed"));
        ck_assert_int_eq(seed1, api_gen_item_seed(6, 1));
        ck_assert_int_ne(seed1, 7);
        json_object_set_new(body, "seed", json_integer(seed1));
        json_object_set_new(body, "count", json_integer(1));
        hresp_t r1 = vpost("/v1/sudoku/generate", body);
        json_t *j1 = vjson(&r1, 200);
        ck_assert(json_equal(json_array_get(json_object_get(j1, "puzzles"), 0), p1));
        json_decref(j1);
        hresp_free(&r1);
        json_decref(j);
        hresp_free(&r);
        json_decref(body);
    }
    vproblem_text("/v1/sudoku/generate", "{\"variant\": \"even-odd\", \"parity\": \"E\"}", 400,
                  "parity", "draws");
    vproblem_text("/v1/sudoku/generate", "{\"variant\": \"nope\"}", 400, "variant", NULL);
    vproblem_text("/v1/sudoku/generate", "{\"variant\": [\"jigsaw\", \"nope\"]}", 400, "variant[1]",
                  "nope");
    vproblem_text("/v1/sudoku/generate", "{\"variant\": \"jigsaw\", \"layout\": \"samurai\"}", 400,
                  "variant", "one grid");
}
END_TEST

/* === Bad input, field by field === */

START_TEST(variants_http_bad_fields) {
    static const struct {
        const char *body, *field;
        long status;
    } cases[] = {
        /* region 0 has 5 cells, region 1 has 7 */
        {"{\"variant\": \"jigsaw\", \"grid\": \"....................................\", "
         "\"regions\": \"000001111111222222333333444444555555\"}",
         NULL, 400},
        {"{\"variant\": \"jigsaw\", \"grid\": \"....................................\"}", "regions",
         400},
        {"{\"variant\": \"even-odd\", \"grid\": \"................\", \"parity\": "
         "\"EX..............\"}",
         "parity[0][1]", 400},
        {"{\"variant\": [\"x\", \"nope\"], \"grid\": \"................\"}", "variant[1]", 400},
        {"{\"variant\": \"consecutive\", \"grid\": \"................\", \"pairs\": [[[0, 0], [2, "
         "2]]]}",
         "pairs[0]", 400},
        {"{\"extra_units\": [[[0, 0], [0, 0]]], \"grid\": \"................\"}",
         "extra_units[0][1]", 400},
        {"{\"variant\": \"samurai\", \"grid\": \"1\"}", "grid", 400},
        {"{\"variant\": \"x\", \"grid\": \"................\", \"symbols\": [1, 2, 3, 4]}",
         "symbols", 400},
        {"{\"variant\": \"x\", \"grid\": \"................\", \"method\": \"warp\"}", "method",
         400},
        {"{\"variant\": \"x\", \"grid\": \"1....1..........\"}", "grid[1][1]", 422},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        json_t *b = vload(cases[k].body);
        if (cases[k].field != NULL) {
            vproblem("/v1/sudoku/solve", b, cases[k].status, cases[k].field, NULL);
        } else { /* the region sizes: some regions[r][c] is named */
            hresp_t r = vpost("/v1/sudoku/solve", b);
            json_t *j = vjson(&r, 400);
            ck_assert_msg(strstr(r.body, "\"field\":\"regions[") != NULL, "%s", r.body);
            json_decref(j);
            hresp_free(&r);
        }
        json_decref(b);
    }
}
END_TEST

/* The detail of the error naming `field` in the 400 that `body` gets at
 * path (a fresh string; the test fails when there is none). */
static char *vdetail(const char *path, const char *body, const char *field) {
    json_t *b = vload(body), *j, *e;
    hresp_t r = vpost(path, b);
    char *out = NULL;
    size_t i;
    j = vjson(&r, 400);
    json_array_foreach(json_object_get(j, "errors"), i, e) {
        const char *f = json_string_value(json_object_get(e, "field"));
        const char *d = json_string_value(json_object_get(e, "detail"));
        if (out == NULL && f && d && strcmp(f, field) == 0) out = strdup(d);
    }
    ck_assert_msg(out != NULL, "%s %s: no error names '%s': %s", path, body, field, r.body);
    json_decref(j);
    json_decref(b);
    hresp_free(&r);
    return out;
}

/* A variant's options are read by the classic endpoint's table rows, so a
 * bad option gets the same words with and without a variant. */
START_TEST(variants_http_options_as_classic) {
    static const struct {
        const char *path, *opt, *field;
    } cases[] = {
        {"/v1/sudoku/solve", "\"max_solutions\": 0", "max_solutions"},
        {"/v1/sudoku/solve", "\"timeout_ms\": \"soon\"", "timeout_ms"},
        {"/v1/sudoku/solve", "\"method\": \"warp\"", "method"},
        {"/v1/sudoku/solve", "\"propagation\": \"all\"", "propagation"},
        {"/v1/sudoku/solve", "\"trace\": 3", "trace"},
        {"/v1/sudoku/solve", "\"colour\": 3", "colour"},
        {"/v1/sudoku/validate", "\"timeout_ms\": -1", "timeout_ms"},
        {"/v1/sudoku/grade", "\"steps\": 2", "steps"},
        {"/v1/sudoku/grade", "\"method\": \"dlx\"", "method"},
        {"/v1/sudoku/hint", "\"timeout_ms\": 0", "timeout_ms"},
        {"/v1/sudoku/generate", "\"count\": 0", "count"},
        {"/v1/sudoku/generate", "\"symmetry\": \"spiral\"", "symmetry"},
        {"/v1/sudoku/generate", "\"minimal\": 1", "minimal"},
        {"/v1/sudoku/generate", "\"seed\": -1", "seed"},
        {"/v1/sudoku/generate", "\"difficulty\": \"fiendish\"", "difficulty"},
        {"/v1/sudoku/generate", "\"rating\": {\"min\": 5, \"max\": 2}", "rating.max"},
        {"/v1/sudoku/generate", "\"colour\": 3", "colour"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int gen = strstr(cases[k].path, "generate") != NULL;
        char classic[256], variant[256];
        snprintf(classic, sizeof classic, "{%s%s}", gen ? "" : "\"grid\": \"1...............\", ",
                 cases[k].opt);
        snprintf(variant, sizeof variant, "{\"variant\": \"x\", %s%s}",
                 gen ? "\"size\": 4, " : "\"grid\": \"1...............\", ", cases[k].opt);
        char *want = vdetail(cases[k].path, classic, cases[k].field);
        char *got = vdetail(cases[k].path, variant, cases[k].field);
        ck_assert_msg(strcmp(want, got) == 0, "%s %s: classic '%s', variant '%s'", cases[k].path,
                      cases[k].opt, want, got);
        free(want);
        free(got);
    }
}
END_TEST

/* A variant field whose key the hand-over's byte scan cannot see (a \u
 * escape) reaches the endpoint's own table, which lists it and refuses it
 * by name instead of reading the body as a classic grid. */
START_TEST(variants_http_escaped_key) {
    static const char *const paths[] = {"/v1/sudoku/solve", "/v1/sudoku/validate",
                                        "/v1/sudoku/grade", "/v1/sudoku/hint",
                                        "/v1/sudoku/generate"};
    const char *headers[2] = {"Content-Type: application/json", NULL};
    for (size_t k = 0; k < sizeof paths / sizeof paths[0]; k++) {
        const char *text = k < 4 ? "{\"\\u0076ariant\": \"x\", \"grid\": \"1...............\"}"
                                 : "{\"\\u0076ariant\": \"x\"}";
        char url[256];
        hresp_t r;
        CURL *c = curl_easy_init();
        json_t *j, *e;
        size_t i;
        int found = 0;
        snprintf(url, sizeof url, "%s%s", srv.base, paths[k]);
        http_do(c, "POST", url, text, strlen(text), headers, &r);
        curl_easy_cleanup(c);
        j = vjson(&r, 400);
        json_array_foreach(json_object_get(j, "errors"), i, e) {
            const char *f = json_string_value(json_object_get(e, "field"));
            const char *d = json_string_value(json_object_get(e, "detail"));
            found |= f && d && strcmp(f, "variant") == 0 && strstr(d, "a variant field") != NULL;
        }
        ck_assert_msg(found, "%s: %s", paths[k], r.body);
        json_decref(j);
        hresp_free(&r);
    }
}
END_TEST

/* The hand-over list: the five Sudoku endpoints and Killer's solve each hand over, to one
 * reader, only endpoints that are routed do, and an endpoint without one
 * that handed over would answer a 500 naming itself, never crash. */
START_TEST(variants_http_handovers) {
    const api_endpoint_t *const want[] = {&api_ep_sudoku_solve,    &api_ep_sudoku_validate,
                                          &api_ep_sudoku_grade,    &api_ep_sudoku_hint,
                                          &api_ep_sudoku_generate, &api_ep_killer_solve,
                                          &api_ep_killer_grade,    &api_ep_killer_hint};
    api_request_t req = {.method = "POST", .path = "/v1/killer/generate"};
    api_response_t resp = {0};
    api_job_t *job = (api_job_t *)&req;
    size_t n = 0;
    for (size_t i = 0; api_handovers[i] != NULL; i++, n++) {
        const api_endpoint_t *ep = api_handovers[i]->ep;
        ck_assert_ptr_nonnull(api_handovers[i]->prepare);
        ck_assert_ptr_eq(api_endpoint_find(ep->method, ep->path), ep);
        for (size_t k = 0; k < i; k++)
            ck_assert_ptr_ne(api_handovers[k]->ep, ep);
    }
    ck_assert_uint_eq(n, sizeof want / sizeof want[0]);
    for (size_t k = 0; k < n; k++) {
        int found = 0;
        for (size_t i = 0; api_handovers[i] != NULL; i++)
            found |= api_handovers[i]->ep == want[k];
        ck_assert_msg(found, "%s has no hand-over", want[k]->path);
    }
    ck_assert_int_eq(api_endpoint_hand_over(&api_ep_killer_generate, &req, &job, &resp),
                     API_EINTERNAL);
    ck_assert_ptr_null(job);
    ck_assert_int_eq(resp.status, 500);
    ck_assert_ptr_nonnull(strstr(resp.body, "/v1/killer/generate"));
    api_response_destroy(&resp);
}
END_TEST

Suite *variants_http_suite(void);
Suite *variants_http_suite(void) {
    Suite *s = suite_create("variants_http");
    TCase *tc = tcase_create("http");
    tcase_set_timeout(tc, 300);
    tcase_add_unchecked_fixture(tc, srv_up, srv_down);
    tcase_add_test(tc, variants_http_solve_examples);
    tcase_add_test(tc, variants_http_solve_methods);
    tcase_add_test(tc, variants_http_classic_variant);
    tcase_add_test(tc, variants_http_samurai);
    tcase_add_test(tc, variants_http_validate_in_words);
    tcase_add_test(tc, variants_http_grade_and_hint);
    tcase_add_test(tc, variants_http_grade_constraints);
    tcase_add_test(tc, variants_http_generate);
    tcase_add_test(tc, variants_http_bad_fields);
    tcase_add_test(tc, variants_http_escaped_key);
    tcase_add_test(tc, variants_http_options_as_classic);
    tcase_add_test(tc, variants_http_constraints);
    tcase_add_test(tc, variants_http_killer_on_variants);
    tcase_add_test(tc, variants_http_iss_types);
    tcase_add_test(tc, variants_http_handovers);
    suite_add_tcase(s, tc);
    return s;
}
