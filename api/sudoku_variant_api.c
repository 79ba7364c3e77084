/* sudoku_variant_api.c -- the Sudoku endpoints on a variant: solve,
 * validate, grade, hint and generate over a model of
 * solvers/sudoku/model.h.
 *
 * The classic endpoints (sudoku_api.c, sudoku_logic_api.c, generate_api.c)
 * hand a request over when api_sudoku_variant_body() finds a variant field
 * among the body's keys, and solve and validate a body of ISS's text
 * (API_SUDOKU_ISS_MEDIA); everything after that is here.  Every request is
 * JSON (options in the body, none in the query) but ISS's text, which
 * api/sudoku_iss.c turns into that JSON (options in the query, as for the
 * other text bodies; its problems renamed to places in the text), and is
 * read in one way (vx_read): the options by the classic endpoint's own table rows
 * (api_opts_json_options: the same ranges, defaults and words as without a
 * variant), the variant fields by api/sudoku_variant.c, the grid in the
 * variant's frame, then the model.  Errors name
 * the field as the client wrote it (regions[3][4], pairs[2], layout.grids[1],
 * method); givens that break a rule are a 422 naming each cell and, in
 * words, the unit or rule it breaks (api_sudoku_variant_describe).
 *
 * What each endpoint does with the model:
 *   solve     sudoku_model_solve() with the request's method: auto,
 *             propagation (every level), best-first, backtracking, mrv,
 *             cdcl, dlx and algorithm-x.  Refused with a 422 naming
 *             `method`: fast on anything but the classic 9x9 grid, dlx and
 *             algorithm-x with consecutive marks (not an exact cover).
 *             One thread (no cdcl portfolio: `threads` is refused), symbols
 *             1..n (`symbols` is refused).
 *   validate  sudoku_model_find_conflicts(), each conflict's unit or rule
 *             in words; a body of ISS's text also gets back the JSON it
 *             was read into (`puzzle`), so a client (the web page) draws
 *             the puzzle without a second reader of ISS's text.
 *   grade, hint  the solver proves the puzzle unique (sudoku_model_count2's
 *             search, its nodes kept), then the logic engine on the model
 *             (sudoku_logic_new_model) grades it or finds the next step;
 *             steps name their units in words ("region 3", "row 4 of grid
 *             2") and the constraint a line technique read
 *             ("constraints[2]"); a grade says its signal: "techniques"
 *             when every step is a person's, "search" when a rule needed
 *             the machine step (docs/constraints.md).  hint takes `givens`
 *             and `pencil` (the player's marks, in the frame).  Also
 *             POST /v1/killer/grade and /hint (vk_prepare): the
 *             Killer body rewritten as for the Killer solve's hand-over,
 *             its steps naming cages[k].
 *   generate  sudoku_generate_variant(): jigsaw (regions drawn, or the
 *             request's), x, windoku, disjoint, even-odd (parity drawn),
 *             consecutive (marks drawn), non-consecutive, extra units, the
 *             layouts; item i's seed as the classic generator's
 *             (api_gen_item_seed: the request's for item 0, a hash of it
 *             and i after).
 *
 * Answers keep the frame (rows x cols, which the answers state): a string
 * grid answers strings, arrays answer arrays; holes and empty cells are '.'
 * or null.  Every solution is checked against the givens and every rule of
 * the model before it is sent (a failure is a 500: a solver bug).
 *
 * Memory: each job owns its request (the variant's arrays, the model, the
 * grids) and frees it in one place; the searches allocate through their
 * control block's allocator (the server's work budget), and a model larger
 * than the request's work share is a 422 before any search.  Threads: run()
 * writes only its item's slot; merge() and render() run on the loop thread. */
#include "api/sudoku_variant_api.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/endpoint.h"
#include "api/generate_api.h"
#include "api/grid_char.h"
#include "api/json_util.h"
#include "api/killer_api.h"
#include "api/sudoku_api.h"
#include "api/sudoku_iss.h"
#include "api/sudoku_logic_api.h"
#include "api/sudoku_variant.h"
#include "solvers/killer/killer.h"
#include "solvers/rng.h"
#include "solvers/sudoku/generate.h"
#include "solvers/sudoku/logic.h"
#include "solvers/xcover/xcover.h"

#define VX_CONFLICTS_CAP 256

/* === Reading ============================================================ */

/* One variant request: the description, the model, the grid. */
typedef struct vx_req_s {
    api_sudoku_variant_t v;
    sudoku_model_t *m;
    uint8_t *grid; /* [m->ncells]: the puzzle (hint: the player's grid) */
    int arrays;    /* the grid came as arrays: answer arrays */
    /* The endpoint's options, read by the classic endpoint's table (the
     * indices are in its rows' names, -1 none). */
    long long timeout_ms, max_solutions;
    int method_ix, level_ix, trace, steps;
    api_sudoku_iss_t iss; /* a body of ISS's text: what it was read into, and from where */
} vx_req_t;

static void vx_req_free(vx_req_t *q) {
    api_sudoku_iss_destroy(&q->iss);
    api_sudoku_variant_free(&q->v);
    sudoku_model_free(q->m);
    free(q->grid);
}

/* The name a request's ENUM option chose (ix, an index in the row's
 * names), or dflt when it chose none. */
static const char *vx_enum_name(const api_endpoint_t *ep, const char *row, int ix,
                                const char *dflt) {
    const api_opt_t *o = api_opts_find(ep->opts, row, API_IN_JSON);
    return o != NULL && o->names != NULL && ix >= 0 ? o->names[ix] : dflt;
}

/* The query options of a body of ISS's text, read as text and CSV bodies
 * read theirs; threads and box (the text gives the boxes) refused by name.
 * 0, or -1 with problems in p. */
static int vx_query_options(const api_request_t *req, const api_endpoint_t *ep,
                            api_sudoku_puzzle_t *o, api_problem_t *p) {
    int rc = api_opts_query(ep->opts, req, 0, 0, o, p);
    if (api_param(req, "threads") != NULL) {
        api_problem_add(p, "query", "threads", "a variant is solved on one thread; leave it out");
        rc = -1;
    }
    if (api_param(req, "box") != NULL) {
        api_problem_add(p, "query", "box",
                        "ISS's text gives the boxes (its Shape, NoBoxes); leave box out");
        rc = -1;
    }
    return rc;
}

/* The options of ep's table (the classic endpoint's: every option is read
 * by its row there) into q: from the body, or from the query string for
 * ISS's text.  symbols and threads are refused by name (vx_refuse_classic),
 * the puzzle's data (grid, box, the variant fields, hint's givens and
 * pencil) is read here.  0, -1 with problems in p, or -2 (out of memory). */
static int vx_options(const api_request_t *req, const api_endpoint_t *ep, json_t *root, vx_req_t *q,
                      api_problem_t *p) {
    static const char *const refused[] = {"symbols", "threads", NULL};
    api_sudoku_puzzle_t *o = calloc(1, sizeof *o);
    int rc;
    if (o == NULL) return -2;
    o->method_ix = o->level_ix = -1;
    api_opts_defaults(ep->opts, req, o);
    if (api_media_is(req->content_type, API_SUDOKU_ISS_MEDIA))
        rc = vx_query_options(req, ep, o, p);
    else
        rc = api_opts_json_options(ep->opts, req, root, refused, o, p);
    q->timeout_ms = o->timeout_ms;
    q->max_solutions = o->max_solutions;
    q->method_ix = o->method_ix;
    q->level_ix = o->level_ix;
    q->trace = o->trace;
    q->steps = o->steps;
    free(o);
    return rc;
}

/* Classic fields a variant does not take, with the reason. */
static int vx_refuse_classic(json_t *root, api_problem_t *p) {
    int bad = 0;
    if (json_object_get(root, "symbols") != NULL) {
        api_problem_add(p, "body", "symbols", "a variant's symbols are 1..n; leave symbols out");
        bad = 1;
    }
    if (json_object_get(root, "threads") != NULL) {
        api_problem_add(p, "body", "threads", "a variant is solved on one thread; leave it out");
        bad = 1;
    }
    return bad;
}

/* Reads a variant request: the body (kept in *rootp for the endpoint's own
 * fields; json_decref it), the variant, the grid and the model.  A body of
 * ISS's text (API_SUDOKU_ISS_MEDIA, given NULL) is read into q->iss first,
 * and the JSON it became is the body; its options come from the query.
 * Returns 0, or an API_E* code with the problem in p (API_EINVALID with
 * every field error found, API_EMEDIA, API_ENOMEM).  The givens' conflicts
 * are not checked here.  q is freed by vx_req_free() either way. */
/* A variant is read from JSON only: 0, or API_EMEDIA with the problem in p. */
static int vx_json_only(const api_request_t *req, api_problem_t *p) {
    if (api_json_content_type(req)) return 0;
    api_problem_init(p, API_EMEDIA, "send application/json");
    api_problem_add(p, "header", "Content-Type", "a variant is read from JSON only");
    return API_EMEDIA;
}

static int vx_read(const api_request_t *req, const api_endpoint_t *ep, json_t *given,
                   json_t **rootp, vx_req_t *q, api_problem_t *p) {
    static const char *const none[] = {NULL};
    json_t *root, *grid;
    int bad, rc;
    api_problem_init(p, API_EINVALID, "the request is not valid");
    *rootp = NULL;
    if (given == NULL && api_media_is(req->content_type, API_SUDOKU_ISS_MEDIA)) {
        if ((rc = api_sudoku_iss_read(req->body, req->body_len, &q->iss, p)) == API_ENOMEM)
            return rc;
        if (rc != 0) { /* the text's problems, and the options' */
            if (vx_options(req, ep, NULL, q, p) != -2) return API_EINVALID;
            api_problem_nomem(p, "reading the options");
            return API_ENOMEM;
        }
        bad = 0;
        root = json_incref(q->iss.body);
    } else {
        if (vx_json_only(req, p) != 0) return API_EMEDIA;
        bad = api_params_check(req, none, p) != 0; /* options live in the body */
        if (given != NULL)
            root = json_incref(given);
        else if ((root = api_json_object(req, p)) == NULL)
            return p->code;
    }
    *rootp = root;
    bad |= vx_refuse_classic(root, p);
    if ((rc = vx_options(req, ep, root, q, p)) == -2) {
        api_problem_nomem(p, "reading the options");
        return API_ENOMEM;
    }
    bad |= rc != 0;
    if ((rc = api_sudoku_variant_read(root, 0, &q->v, p)) != 0) return rc;
    if ((grid = json_object_get(root, "grid")) == NULL) {
        api_problem_add(p, "body", "grid", "required");
        return API_EINVALID;
    }
    q->arrays = json_is_array(grid);
    if ((q->grid = calloc((size_t)q->v.rows * (size_t)q->v.cols, 1)) == NULL) {
        api_problem_nomem(p, "reading the grid");
        return API_ENOMEM;
    }
    rc = api_sudoku_variant_grid(grid, &q->v, q->grid, p);
    if (rc != 0 || bad) return p->code == API_ENOMEM ? API_ENOMEM : API_EINVALID;
    return api_sudoku_variant_model(&q->v, NULL, &q->m, p);
}

/* 422 when the model (and what the request keeps besides, `extra` bytes)
 * is more than the request may hold. */
static int vx_memory(const api_request_t *req, const vx_req_t *q, size_t extra, api_problem_t *p) {
    if (req->work_share == 0 || q->m->bytes + extra <= req->work_share) return 0;
    api_problem_init(p, API_EMEMORY,
                     "this variant needs %zu bytes; a request may hold %zu on this server",
                     q->m->bytes + extra, req->work_share);
    return API_EMEMORY;
}

/* A frame cell as a field, "grid[r][c]". */
static void vx_cell_field(const sudoku_model_t *m, const char *name, int cell, char *buf,
                          size_t cap) {
    snprintf(buf, cap, "%s[%d][%d]", name, cell / m->cols, cell % m->cols);
}

/* 422 when the givens (`name`: "grid" or "givens") break a rule, naming
 * every cell and, in words, what it breaks.  Returns 0, API_EUNPROCESSABLE
 * or API_ENOMEM (p filled). */
static int vx_conflicts_problem(const sudoku_model_t *m, const uint8_t *grid, const char *name,
                                api_problem_t *p) {
    sudoku_conflict_t *cf = malloc(VX_CONFLICTS_CAP * sizeof *cf);
    size_t count = 0;
    if (cf == NULL) {
        api_problem_nomem(p, "checking the givens");
        return API_ENOMEM;
    }
    sudoku_model_find_conflicts(m, grid, cf, VX_CONFLICTS_CAP, &count);
    if (count > 0) {
        api_problem_init(p, API_EUNPROCESSABLE, "the givens break the rules in %zu place%s", count,
                         count == 1 ? "" : "s");
        for (size_t k = 0; k < count && k < VX_CONFLICTS_CAP; k++) {
            char what[96], f[48];
            int unit = cf[k].unit < SUDOKU_UNIT_KINDS;
            api_sudoku_variant_describe(m, &cf[k], what, sizeof what);
            for (size_t c = 0; c < cf[k].ncells; c++) {
                vx_cell_field(m, name, cf[k].cells[c], f, sizeof f);
                api_problem_add(p, "body", f, "%d %s %s", grid[cf[k].cells[c]],
                                unit ? "repeats in" : "breaks", what);
            }
        }
    }
    free(cf);
    return count > 0 ? API_EUNPROCESSABLE : 0;
}

/* === Answers ============================================================ */

/* A frame grid in the request's form: a string ('.' empty and on holes) or
 * rows arrays (null).  NULL when out of memory. */
static json_t *vx_grid_json(const sudoku_model_t *m, const uint8_t *g, int arrays) {
    if (!arrays) {
        char s[SUDOKU_MODEL_MAX_CELLS];
        for (int i = 0; i < m->ncells; i++)
            s[i] = g[i] ? api_grid_value_char(g[i]) : '.';
        return json_stringn(s, (size_t)m->ncells);
    }
    json_t *rows = json_array();
    int ok = 1;
    for (int r = 0; r < m->rows && ok; r++) {
        json_t *row = json_array();
        for (int c = 0; c < m->cols && row != NULL; c++) {
            uint8_t v = g[r * m->cols + c];
            api_jpush(row, v ? json_integer(v) : json_null(), &ok);
        }
        api_jpush(rows, row, &ok);
    }
    if (!ok) {
        json_decref(rows);
        return NULL;
    }
    return rows;
}

static json_t *vx_cell_json(const sudoku_model_t *m, int cell) {
    return json_pack("[i,i]", cell / m->cols, cell % m->cols);
}

/* What every answer says of the puzzle: n, box (the boxes' shape; absent
 * when regions replace them), the frame's rows and cols. */
static void vx_head(json_t *root, const sudoku_model_t *m, int *ok) {
    api_jset(root, "n", json_integer(m->n), ok);
    if (m->shape.box_rows > 0) /* none when regions replace the boxes */
        api_jset(root, "box",
                 json_pack("{s:i, s:i}", "rows", m->shape.box_rows, "cols", m->shape.box_cols), ok);
    api_jset(root, "rows", json_integer(m->rows), ok);
    api_jset(root, "cols", json_integer(m->cols), ok);
}

static void vx_problem(api_response_t *out, int code, const char *field, const char *detail) {
    api_problem_t p;
    api_problem_init(&p, code, "%s", detail);
    if (field != NULL) api_problem_add(&p, "body", field, "%s", detail);
    api_response_problem(out, &p);
}

/* === Solve ============================================================== */

typedef struct vs_job_s {
    api_job_t base;
    vx_req_t q;
    sudoku_method_t method;
    sudoku_level_t level;
    long long max_solutions;
    int trace;
    uint8_t *solutions;   /* max_solutions * ncells */
    sudoku_step_t *steps; /* trace */
    /* written by run() (one item), read by render() */
    sudoku_result_t res;
    int rc;
} vs_job_t;

static int vs_run(api_job_t *job, size_t item, const search_ctl_t *ctl) {
    vs_job_t *j = (vs_job_t *)job;
    sudoku_opts_t o;
    (void)item;
    sudoku_opts_init(&o);
    o.method = j->method;
    o.level = j->level;
    o.max_solutions = (uint32_t)j->max_solutions;
    o.solutions = j->solutions;
    o.ctl = ctl;
    o.trace = j->steps;
    o.trace_cap = j->steps != NULL ? API_SUDOKU_TRACE_CAP : 0;
    return sudoku_model_solve(j->q.m, j->q.grid, &o, &j->res);
}

static int vs_merge(api_job_t *job, size_t item, int rc) {
    vs_job_t *j = (vs_job_t *)job;
    (void)item;
    j->rc = rc;
    job->nodes += j->res.stats.nodes;
    return API_JOB_STOP;
}

static const char *vs_status(const vs_job_t *j) {
    if (j->res.solutions_found >= 2) return "multiple";
    if (j->res.solutions_found == 1) return "solved";
    if (j->rc == 0) return "unsolvable";
    if (j->rc == SEARCH_CANCELLED) return "cancelled";
    return "timeout";
}

static json_t *vs_stats(const vs_job_t *j) {
    const sudoku_result_t *r = &j->res;
    json_t *s = json_pack(
        "{s:s, s:I, s:I, s:I, s:I, s:f, s:i}", "method", sudoku_method_name(r->method), "nodes",
        (json_int_t)r->stats.nodes, "backtracks", (json_int_t)r->stats.backtracks, "propagations",
        (json_int_t)r->stats.propagations, "max_depth", (json_int_t)r->stats.max_depth,
        "elapsed_ms", api_elapsed_ms(j->base.start_ns, search_now_ns()), "threads", 1);
    int ok = 1;
    if (r->level != 0) api_jset(s, "propagation", json_string(sudoku_level_name(r->level)), &ok);
    if (r->method == SUDOKU_METHOD_CDCL) {
        api_jset(s, "conflicts", json_integer((json_int_t)r->cdcl.conflicts), &ok);
        api_jset(s, "learned", json_integer((json_int_t)r->cdcl.learned), &ok);
        api_jset(s, "restarts", json_integer((json_int_t)r->cdcl.restarts), &ok);
    }
    if (!ok) {
        json_decref(s);
        return NULL;
    }
    return s;
}

static json_t *vs_trace(const vs_job_t *j) {
    const sudoku_model_t *m = j->q.m;
    json_t *list = json_array();
    int ok = 1;
    for (size_t k = 0; k < j->res.trace_len && ok; k++) {
        const sudoku_step_t *s = &j->steps[k];
        api_jpush(list,
                  json_pack("{s:s, s:i, s:i, s:i}", "step",
                            sudoku_step_kind_name((sudoku_step_kind_t)s->kind), "row",
                            s->cell / m->cols, "col", s->cell % m->cols, "value", s->value),
                  &ok);
    }
    if (!ok) {
        json_decref(list);
        return NULL;
    }
    return list;
}

/* A solver stop that is no answer: the problem, or NULL. */
static const char *vs_refused(int rc, int *code, const char **field) {
    *field = NULL;
    *code = API_EINTERNAL;
    if (rc == SUDOKU_EMETHOD || rc == XCOVER_ELIMIT) {
        *code = API_EUNPROCESSABLE;
        *field = "method";
        return rc == SUDOKU_EMETHOD ? "this method cannot solve this variant; use auto, "
                                      "propagation, mrv or cdcl"
                                    : "the exact cover of this variant is over the exact-cover "
                                      "engines' limits; use auto, propagation or cdcl";
    }
    if (rc == SEARCH_ENOMEM) {
        *code = API_ENOMEM;
        return "out of memory while solving";
    }
    if (rc == SEARCH_EINVAL || rc == SUDOKU_ECONFLICT) return "the solver refused the puzzle";
    return NULL;
}

static void vs_render(api_job_t *job, api_response_t *out) {
    vs_job_t *j = (vs_job_t *)job;
    const sudoku_model_t *m = j->q.m;
    const sudoku_result_t *r = &j->res;
    size_t nc = (size_t)m->ncells;
    const char *why, *field;
    int code, ok = 1;
    if ((why = vs_refused(j->rc, &code, &field)) != NULL) {
        vx_problem(out, code, field, why);
        return;
    }
    for (uint32_t k = 0; k < r->solutions_found; k++)
        if (sudoku_model_check_solution(m, j->q.grid, j->solutions + k * nc) != 1) {
            vx_problem(out, API_EINTERNAL, NULL, "a solution fails verification (a solver bug)");
            return;
        }
    json_t *root = json_object();
    api_jset(root, "status", json_string(vs_status(j)), &ok);
    vx_head(root, m, &ok);
    api_jset(root, "solutions_found", json_integer(r->solutions_found), &ok);
    if (r->solutions_found >= 2 || (r->exhausted && r->code == 0 && r->solutions_found == 0))
        api_jset(root, "unique", json_false(), &ok);
    else
        api_jset(root, "unique", sudoku_result_unique(r) ? json_true() : json_null(), &ok);
    api_jset(root, "complete", json_boolean(j->rc == 0), &ok);
    api_jset(root, "stats", vs_stats(j), &ok);
    if (r->solutions_found > 0)
        api_jset(root, "solution", vx_grid_json(m, j->solutions, j->q.arrays), &ok);
    if (j->max_solutions > 1) {
        json_t *list = json_array();
        for (uint32_t k = 0; k < r->solutions_found && list != NULL; k++)
            api_jpush(list, vx_grid_json(m, j->solutions + k * nc, j->q.arrays), &ok);
        api_jset(root, "solutions", list, &ok);
    }
    if (j->steps != NULL) {
        api_jset(root, "trace", vs_trace(j), &ok);
        api_jset(root, "trace_truncated", json_boolean(r->trace_truncated), &ok);
    }
    api_response_json_ok(out, 200, root, ok);
}

static void vs_free(api_job_t *job) {
    vs_job_t *j = (vs_job_t *)job;
    if (j == NULL) return;
    vx_req_free(&j->q);
    free(j->solutions);
    free(j->steps);
    free(j);
}

static const api_job_ops_t vs_ops = {"sudoku", vs_run, vs_merge, vs_render, vs_free,
                                     0,        NULL,   NULL,     NULL,      NULL};

/* Solve's options (read by solve's table: vx_options) in the solver's
 * terms; a propagation level that names none is the table's. */
static void vs_options(vs_job_t *j) {
    const api_endpoint_t *ep = &api_ep_sudoku_solve;
    sudoku_method_parse(vx_enum_name(ep, "method", j->q.method_ix, "auto"), &j->method);
    j->level = SUDOKU_LEVEL_DEFAULT;
    if (j->q.level_ix >= 0)
        sudoku_level_parse(vx_enum_name(ep, "propagation", j->q.level_ix, NULL), &j->level);
    j->max_solutions = j->q.max_solutions;
    j->trace = j->q.trace;
}

/* The methods that do not take this model: 422 naming `method`. */
static int vs_method_check(vs_job_t *j, api_problem_t *p) {
    const sudoku_model_t *m = j->q.m;
    const char *why = NULL;
    int consecutive = 0;
    sudoku_opts_t o;
    for (int k = 0; k < m->nmarked; k++)
        consecutive |= m->pairs[k].rule == SUDOKU_PAIR_CONSECUTIVE;
    if (j->method == SUDOKU_METHOD_FAST &&
        !(m->classic && m->n == 9 && m->shape.box_rows == 3 && m->shape.box_cols == 3))
        why = "fast solves the classic 9x9 grid only; use auto, propagation, mrv, cdcl or dlx";
    else if (m->nrules > 0 && j->method != SUDOKU_METHOD_AUTO &&
             j->method != SUDOKU_METHOD_PROPAGATION && j->method != SUDOKU_METHOD_BEST_FIRST)
        why = "constraints are read by the propagation engine only; use auto, propagation or "
              "best-first";
    else if ((j->method == SUDOKU_METHOD_DLX || j->method == SUDOKU_METHOD_ALGORITHM_X) &&
             consecutive)
        why = "consecutive marks are no exact-cover constraint, so dlx and algorithm-x cannot "
              "solve them; use auto, propagation, mrv or cdcl";
    if (why != NULL) {
        api_problem_init(p, API_EUNPROCESSABLE, "the method cannot solve this variant");
        api_problem_add(p, "body", "method", "%s", why);
        return API_EUNPROCESSABLE;
    }
    sudoku_opts_init(&o);
    o.method = j->method;
    o.level = j->level;
    o.trace_cap = j->trace ? API_SUDOKU_TRACE_CAP : 0; /* as vs_run() will ask */
    if (j->trace && (j->method == SUDOKU_METHOD_DLX || j->method == SUDOKU_METHOD_ALGORITHM_X ||
                     sudoku_model_method_for(m, j->q.grid, &o) == SUDOKU_METHOD_CDCL)) {
        api_problem_init(p, API_EINVALID, "the request is not valid");
        api_problem_add(p, "body", "trace",
                        "the exact-cover and cdcl methods do not trace; use propagation, mrv or "
                        "backtracking");
        return API_EINVALID;
    }
    return 0;
}

/* Solve's prepare with the problem left in *pp (not rendered): 0 and *job,
 * or the code.  given: the body already read (the Killer hand-over's
 * rewrite), or NULL to read req's. */
static int vs_prepare(const api_request_t *req, json_t *given, api_job_t **job, api_problem_t *pp) {
    api_problem_t p;
    vs_job_t *j = calloc(1, sizeof *j);
    json_t *root = NULL;
    size_t bytes;
    int rc;
    *job = NULL;
    if (j == NULL) {
        api_problem_init(&p, API_ENOMEM, "out of memory");
        goto fail;
    }
    rc = vx_read(req, &api_ep_sudoku_solve, given, &root, &j->q, &p);
    if (rc != 0) goto fail;
    vs_options(j);
    bytes = (size_t)j->max_solutions * (size_t)j->q.m->ncells;
    if (bytes > API_SUDOKU_SOLUTION_BYTES) {
        api_problem_add(&p, "body", "max_solutions", "at most %u for this %dx%d frame",
                        API_SUDOKU_SOLUTION_BYTES / (unsigned)j->q.m->ncells, j->q.m->rows,
                        j->q.m->cols);
        goto fail;
    }
    if (vs_method_check(j, &p) != 0 || vx_memory(req, &j->q, bytes, &p) != 0 ||
        vx_conflicts_problem(j->q.m, j->q.grid, "grid", &p) != 0)
        goto fail;
    j->solutions = malloc(bytes);
    j->steps = j->trace ? malloc(API_SUDOKU_TRACE_CAP * sizeof *j->steps) : NULL;
    if (j->solutions == NULL || (j->trace && j->steps == NULL)) {
        api_problem_init(&p, API_ENOMEM, "out of memory for the solutions");
        goto fail;
    }
    json_decref(root);
    /* sudoku_model_solve() sets its result from nothing: a try on the HTTP
     * thread may be cut and run again */
    j->base.inline_ok = j->q.m->ncells <= 81;
    api_job_ready(&j->base, &vs_ops, 1, 1, j->q.timeout_ms, job);
    return 0;
fail:
    if (j != NULL) api_sudoku_iss_rename(&j->q.iss, &p);
    json_decref(root);
    vs_free(j ? &j->base : NULL);
    *pp = p;
    return p.code;
}

int api_sudoku_variant_solve_prepare(const api_request_t *req, api_job_t **job,
                                     api_response_t *resp) {
    api_problem_t p;
    int rc = vs_prepare(req, NULL, job, &p);
    if (rc != 0) api_response_problem(resp, &p);
    return rc;
}

/* === Killer on a variant ================================================ */

/* POST /v1/killer/solve with a variant field (Killer-Jigsaw, Killer-X on a
 * jigsaw, Killer-Windoku, a Killer Samurai...): the body is rewritten as
 * the Sudoku solve of a variant whose first constraints are the cages
 * ({"type": "cage", "sum", "cells"}: a unit that adds up), and solved as
 * /v1/sudoku/solve solves it; problems naming constraints[k] of a cage
 * name cages[k] again.  size (when there is no grid) becomes an empty
 * grid, diagonals an "x" in the variant list; the Killer engines' options
 * (method, value_order) are refused by name: the propagation engine solves
 * it.  With logic set (grade and hint) those options are left in the
 * body, for the Killer table to refuse as a solve's.  The prepare that
 * uses it, vk_prepare(), follows grade and hint below. */
static json_t *vk_body(json_t *root, int logic, size_t *ncages, int *bad, api_problem_t *p) {
    json_t *out = json_object(), *cons = json_array(), *v, *var = NULL;
    const char *key;
    long long n = 9;
    int ok = out != NULL && cons != NULL;
    *ncages = 0;
    *bad = 0;
    json_object_foreach(root, key, v) {
        if (strcmp(key, "cages") == 0) {
            size_t k;
            json_t *c;
            if (!json_is_array(v)) {
                api_problem_add(p, "body", "cages", "must be a list of cages {\"sum\", \"cells\"}");
                *bad = 1;
                continue;
            }
            json_array_foreach(v, k, c) {
                json_t *e = json_is_object(c) ? json_deep_copy(c) : json_object();
                if (e == NULL || json_object_set_new(e, "type", json_string("cage")) != 0) ok = 0;
                api_jpush(cons, e, &ok);
            }
            *ncages = json_array_size(v);
        } else if (strcmp(key, "size") == 0) {
            if (!json_is_integer(v) || json_integer_value(v) < SUDOKU_MIN_N ||
                json_integer_value(v) > SUDOKU_MAX_N) {
                api_problem_add(p, "body", "size", "must be an integer from %d to %d", SUDOKU_MIN_N,
                                SUDOKU_MAX_N);
                *bad = 1;
            } else {
                n = json_integer_value(v);
            }
        } else if (strcmp(key, "diagonals") == 0) {
            if (!json_is_boolean(v)) {
                api_problem_add(p, "body", "diagonals", "must be true or false");
                *bad = 1;
            }
        } else if (!logic && (strcmp(key, "method") == 0 || strcmp(key, "value_order") == 0) &&
                   !(json_is_string(v) && strcmp(json_string_value(v), "auto") == 0)) {
            api_problem_add(p, "body", key,
                            "a Killer with a variant field is solved by the propagation engine "
                            "(cages as constraints); leave %s out or auto",
                            key);
            *bad = 1;
        } else if ((logic || (strcmp(key, "method") != 0 && strcmp(key, "value_order") != 0)) &&
                   strcmp(key, "constraints") != 0) {
            api_jset(out, key, json_incref(v), &ok);
        }
    }
    if ((v = json_object_get(root, "constraints")) != NULL && !json_is_array(v)) {
        api_problem_add(p, "body", "constraints", "must be a list of constraints");
        *bad = 1;
    } else if (v != NULL && json_array_extend(cons, v) != 0) {
        ok = 0;
    }
    if (json_array_size(cons) > 0) api_jset(out, "constraints", json_incref(cons), &ok);
    if (json_is_true(json_object_get(root, "diagonals"))) {
        json_t *given = json_object_get(root, "variant");
        var = json_is_array(given) ? json_deep_copy(given) : json_array();
        if (json_is_string(given)) api_jpush(var, json_incref(given), &ok);
        api_jpush(var, json_string("x"), &ok);
        api_jset(out, "variant", var, &ok);
    }
    if (json_object_get(root, "grid") == NULL && json_object_get(root, "layout") == NULL &&
        n <= API_SUDOKU_STRING_MAX_N) {
        char *dots = malloc((size_t)(n * n) + 1);
        if (dots == NULL) {
            ok = 0;
        } else {
            memset(dots, '.', (size_t)(n * n));
            dots[n * n] = '\0';
            api_jset(out, "grid", json_string(dots), &ok);
            free(dots);
        }
    } else if (json_object_get(root, "grid") == NULL && json_object_get(root, "layout") == NULL) {
        json_t *rows = json_array(); /* past the string form: n arrays of n empty cells */
        for (long long r = 0; r < n && ok; r++) {
            json_t *row = json_array();
            for (long long c = 0; c < n; c++)
                api_jpush(row, json_integer(0), &ok);
            api_jpush(rows, row, &ok);
        }
        api_jset(out, "grid", rows, &ok);
    }
    json_decref(cons);
    if (!ok) {
        json_decref(out);
        return NULL;
    }
    return out;
}

/* The fields of the rewritten body back to the Killer's: constraints[k]...
 * of a cage (k < ncages) to cages[k]..., of the body's own constraints to
 * constraints[k - ncages]...; and "grid" to "size" when the grid was made
 * from size (sized). */
static void vk_rename(api_problem_t *p, size_t ncages, int sized) {
    for (size_t i = 0; i < p->nerrors; i++) {
        char *f = p->errors[i].field, rest[sizeof p->errors[i].field];
        unsigned k;
        int used = 0;
        if (sized && strcmp(f, "grid") == 0) {
            snprintf(f, sizeof p->errors[i].field, "size");
            continue;
        }
        if (sscanf(f, "constraints[%u]%n", &k, &used) != 1 || used == 0) continue;
        snprintf(rest, sizeof rest, "%s", f + used);
        if (k < ncages)
            snprintf(f, sizeof p->errors[i].field, "cages[%u]%.40s", k, rest);
        else
            snprintf(f, sizeof p->errors[i].field, "constraints[%u]%.40s", k - (unsigned)ncages,
                     rest);
    }
}

/* Whether the Killer body's grid is made from its size (vk_body). */
static int vk_sized(json_t *root) {
    return json_object_get(root, "grid") == NULL && json_object_get(root, "layout") == NULL;
}

/* === Validate =========================================================== */

static json_t *vv_conflict_json(const sudoku_model_t *m, const sudoku_conflict_t *cf) {
    char what[96];
    json_t *cells = json_array();
    int ok = 1;
    api_sudoku_variant_describe(m, cf, what, sizeof what);
    for (size_t c = 0; c < cf->ncells && ok; c++)
        api_jpush(cells, vx_cell_json(m, cf->cells[c]), &ok);
    if (!ok) {
        json_decref(cells);
        return NULL;
    }
    return json_pack("{s:s, s:i, s:o}", "unit", what, "value", cf->value, "cells", cells);
}

int api_sudoku_variant_validate_prepare(const api_request_t *req, api_job_t **job,
                                        api_response_t *resp) {
    api_problem_t p;
    vx_req_t q;
    json_t *root = NULL, *list = NULL, *answer = NULL;
    sudoku_conflict_t *cf = NULL;
    size_t count = 0;
    int ok = 1, filled = 1;
    *job = NULL;
    memset(&q, 0, sizeof q);
    if (vx_read(req, &api_ep_sudoku_validate, NULL, &root, &q, &p) != 0) goto fail;
    if ((cf = malloc(VX_CONFLICTS_CAP * sizeof *cf)) == NULL) {
        api_problem_nomem(&p, "checking the grid");
        goto fail;
    }
    sudoku_model_find_conflicts(q.m, q.grid, cf, VX_CONFLICTS_CAP, &count);
    list = json_array();
    for (size_t k = 0; k < count && k < VX_CONFLICTS_CAP; k++)
        api_jpush(list, vv_conflict_json(q.m, &cf[k]), &ok);
    for (int i = 0; i < q.m->ncells; i++)
        if (q.m->live[i] && q.grid[i] == 0) filled = 0;
    answer = json_object();
    api_jset(answer, "valid", json_boolean(count == 0), &ok);
    api_jset(answer, "complete", json_boolean(count == 0 && filled), &ok);
    vx_head(answer, q.m, &ok);
    api_jset(answer, "conflicts", list, &ok);
    api_jset(answer, "conflicts_total", json_integer((json_int_t)count), &ok);
    if (q.iss.used) /* what the text was read into, for a client to draw or send as JSON */
        api_jset(answer, "puzzle", json_incref(q.iss.body), &ok);
    api_response_json_ok(resp, 200, answer, ok);
    free(cf);
    json_decref(root);
    vx_req_free(&q);
    return 0;
fail:
    api_sudoku_iss_rename(&q.iss, &p);
    free(cf);
    json_decref(root);
    vx_req_free(&q);
    api_response_problem(resp, &p);
    return p.code;
}

/* === Grade and hint ===================================================== */

/* A step's units worth naming: how many of step->unit[] are units. */
static int vl_named_units(const sudoku_logic_step_t *s) {
    switch ((sudoku_tech_t)s->tech) {
    case SUDOKU_TECH_POINTING:
    case SUDOKU_TECH_CLAIMING: return 2;
    case SUDOKU_TECH_FULL_HOUSE:
    case SUDOKU_TECH_HIDDEN_SINGLE:
    case SUDOKU_TECH_NAKED_PAIR:
    case SUDOKU_TECH_NAKED_TRIPLE:
    case SUDOKU_TECH_NAKED_QUAD:
    case SUDOKU_TECH_HIDDEN_PAIR:
    case SUDOKU_TECH_HIDDEN_TRIPLE:
    case SUDOKU_TECH_HIDDEN_QUAD:
    case SUDOKU_TECH_X_WING:
    case SUDOKU_TECH_SWORDFISH:
    case SUDOKU_TECH_JELLYFISH:
    case SUDOKU_TECH_FINNED_X_WING:
    case SUDOKU_TECH_FINNED_SWORDFISH:
    case SUDOKU_TECH_FINNED_JELLYFISH: return 1;
    case SUDOKU_TECH_INNIES_OUTIES:
    case SUDOKU_TECH_CAGE_SPLITTING: return s->unit[1] >= 0 ? 2 : 1; /* a union: first, last */
    default: return 0;
    }
}

/* Appends to buf[cap] at *len (truncating). */
static void vl_cat(char *buf, size_t cap, size_t *len, const char *s) {
    size_t k = strlen(s);
    if (*len + 1 >= cap) return;
    if (k > cap - *len - 1) k = cap - *len - 1;
    memcpy(buf + *len, s, k);
    *len += k;
    buf[*len] = '\0';
}

/* What a line technique read, after "<technique> on constraints[k]"
 * (the step's fields: logic.h). */
static void vl_line_words(const sudoku_model_t *m, const sudoku_logic_step_t *s, char *part,
                          size_t cap) {
    size_t len;
    switch ((sudoku_tech_t)s->tech) {
    case SUDOKU_TECH_CAGE_COMBINATION:
        snprintf(part, cap, ": its %d open cells can only use", s->size);
        for (int d = 1; d <= m->n; d++)
            if (s->digits >> (d - 1) & 1) {
                len = strlen(part);
                snprintf(part + len, cap - len, " %d", d);
            }
        break;
    case SUDOKU_TECH_CAGE_LOCKED:
        snprintf(part, cap,
                 ": every combination holds %d, so a cell that sees all its places "
                 "in the cage cannot",
                 s->digit);
        break;
    case SUDOKU_TECH_PAIR_RELATION:
        snprintf(part, cap,
                 ": a cell's candidates leave its partner only what the rule allows "
                 "next to them");
        break;
    case SUDOKU_TECH_THERMO:
        snprintf(part, cap,
                 ": each cell is larger than the one before it, so the cells' bounds "
                 "carry along the line");
        break;
    case SUDOKU_TECH_ARROW:
        snprintf(part, cap,
                 ": the circle is the sum of the arrow's cells, so each bounds the "
                 "other");
        break;
    default:
        snprintf(part, cap,
                 " (a machine step: no assignment of the line's cells from their "
                 "candidates keeps its rule with these values)");
        break;
    }
}

/* The field of the constraint tagged t: "constraints[t]", or for a Killer
 * (the rewritten body's first ncages constraints are its cages, vk_body)
 * "cages[t]" and "constraints[t - ncages]". */
static void vl_line_field(unsigned t, size_t ncages, char *buf, size_t cap) {
    if (t < ncages)
        snprintf(buf, cap, "cages[%u]", t);
    else
        snprintf(buf, cap, "constraints[%u]", t - (unsigned)ncages);
}

/* The step in one sentence: the technique, where, and what it does:
 * "hidden-single in region 3: r2c5 takes 7", "pointing from window 2
 * to row 4 of grid 1: 5 leaves r4c1, r4c2" or "thermo on constraints[2]:
 * ...; 9 leaves r1c1" (a Killer's cage: "on cages[4]").  Cells count from
 * 1, in the frame. */
static void vl_explain(const sudoku_model_t *m, size_t ncages, const sudoku_logic_step_t *s,
                       char *buf, size_t cap) {
    char field[48];
    char part[256];
    size_t len = 0;
    int nu = vl_named_units(s), first = 1;
    buf[0] = '\0';
    vl_cat(buf, cap, &len, sudoku_tech_name((sudoku_tech_t)s->tech));
    for (int u = 0; u < nu; u++) {
        if (s->tech == SUDOKU_TECH_INNIES_OUTIES || s->tech == SUDOKU_TECH_CAGE_SPLITTING)
            /* "in row 3 to row 4": a union */
            vl_cat(buf, cap, &len, u == 0 ? " in " : " to ");
        else
            vl_cat(buf, cap, &len, u == 0 ? (nu == 2 ? " from " : " in ") : " to ");
        api_sudoku_variant_unit_name(m, s->unit[u], part, sizeof part);
        vl_cat(buf, cap, &len, part);
    }
    if (s->tech == SUDOKU_TECH_INNIES_OUTIES) {
        if (s->digit) /* outies */
            snprintf(part, sizeof part,
                     ": the cages that meet it add up to its digits and %u more, which their %d "
                     "cells outside it make",
                     (unsigned)s->digits, (int)s->size);
        else
            snprintf(part, sizeof part,
                     ": its %d cell%s outside the cages inside it add%s up to %u", (int)s->size,
                     s->size == 1 ? "" : "s", s->size == 1 ? "s" : "", (unsigned)s->digits);
        vl_cat(buf, cap, &len, part);
        first = 0;
    }
    if (s->tech == SUDOKU_TECH_CAGE_SPLITTING) { /* "r1c1 + r1c2 - r2c9 = 3" */
        int k = 0;
        vl_cat(buf, cap, &len, ": the cages that cross its edge, cut there, give ");
        for (int i = 0; i < s->nitems; i++) {
            const sudoku_logic_item_t *it = &s->items[i];
            if (it->kind != SUDOKU_ITEM_CELL) continue;
            snprintf(part, sizeof part, "%sr%dc%d",
                     k == 0 ? (it->value ? "-" : "") : (it->value ? " - " : " + "),
                     it->cell / m->cols + 1, it->cell % m->cols + 1);
            vl_cat(buf, cap, &len, part);
            k++;
        }
        snprintf(part, sizeof part, " = %d", (int)(int32_t)s->digits);
        vl_cat(buf, cap, &len, part);
        first = 0;
    }
    if (s->line >= 0 && s->line < m->nlines) {
        vl_line_field(m->lines[s->line].tag, ncages, field, sizeof field);
        snprintf(part, sizeof part, " on %s", field);
        vl_cat(buf, cap, &len, part);
        vl_line_words(m, s, part, sizeof part);
        vl_cat(buf, cap, &len, part);
        first = 0;
    }
    for (int i = 0; i < s->nitems; i++) {
        const sudoku_logic_item_t *it = &s->items[i];
        int r = it->cell / m->cols + 1, c = it->cell % m->cols + 1;
        if (it->kind == SUDOKU_ITEM_PLACE)
            snprintf(part, sizeof part, "%sr%dc%d takes %d", first ? ": " : "; ", r, c, it->value);
        else if (it->kind == SUDOKU_ITEM_ELIM)
            snprintf(part, sizeof part, "%s%d leaves r%dc%d", first ? ": " : "; ", it->value, r, c);
        else
            continue;
        vl_cat(buf, cap, &len, part);
        first = 0;
    }
}

static json_t *vl_cell_value(const sudoku_model_t *m, int cell, int v) {
    return json_pack("{s:o, s:i}", "cell", vx_cell_json(m, cell), "value", v);
}

/* Whether item i is the first elimination of its cell (the answer lists
 * eliminations by cell, in the order the cells first appear). */
static int vl_first_elim(const sudoku_logic_step_t *s, int i) {
    for (int k = 0; k < i; k++)
        if (s->items[k].kind == SUDOKU_ITEM_ELIM && s->items[k].cell == s->items[i].cell) return 0;
    return 1;
}

/* A step as JSON: technique, placements, eliminations (by cell), cells,
 * candidates, units (in words), explanation, trial, the line it reads
 * (constraint, or a Killer's cage: ncages as vl_line_field).  NULL when out
 * of memory. */
static json_t *vl_step_json(const sudoku_model_t *m, size_t ncages, const sudoku_logic_step_t *s) {
    json_t *place = json_array(), *elim = json_array(), *cells = json_array(),
           *cands = json_array(), *units = json_array();
    char text[1024], name[96];
    int ok = 1;
    for (int i = 0; i < s->nitems; i++) {
        const sudoku_logic_item_t *it = &s->items[i];
        if (it->kind == SUDOKU_ITEM_PLACE)
            api_jpush(place, vl_cell_value(m, it->cell, it->value), &ok);
        else if (it->kind == SUDOKU_ITEM_CAND)
            api_jpush(cands, vl_cell_value(m, it->cell, it->value), &ok);
        else if (it->kind == SUDOKU_ITEM_CELL)
            api_jpush(cells, vx_cell_json(m, it->cell), &ok);
        else if (vl_first_elim(s, i)) {
            json_t *vals = json_array();
            for (int k = i; k < s->nitems; k++)
                if (s->items[k].kind == SUDOKU_ITEM_ELIM && s->items[k].cell == it->cell)
                    api_jpush(vals, json_integer(s->items[k].value), &ok);
            api_jpush(elim,
                      json_pack("{s:o, s:o}", "cell", vx_cell_json(m, it->cell), "values", vals),
                      &ok);
        }
    }
    for (int u = 0; u < vl_named_units(s); u++) {
        api_sudoku_variant_unit_name(m, s->unit[u], name, sizeof name);
        api_jpush(units, json_string(name), &ok);
    }
    vl_explain(m, ncages, s, text, sizeof text);
    json_t *o = json_object();
    api_jset(o, "technique", json_string(sudoku_tech_name((sudoku_tech_t)s->tech)), &ok);
    api_jset(o, "placements", place, &ok);
    api_jset(o, "eliminations", elim, &ok);
    api_jset(o, "cells", cells, &ok);
    api_jset(o, "candidates", cands, &ok);
    api_jset(o, "units", units, &ok);
    api_jset(o, "explanation", json_string(text), &ok);
    api_jset(o, "trial", json_boolean(s->trial), &ok);
    if (s->line >= 0 && s->line < m->nlines) {
        unsigned t = m->lines[s->line].tag;
        if (t < ncages)
            api_jset(o, "cage", json_integer(t), &ok);
        else
            api_jset(o, "constraint", json_integer(t - (json_int_t)ncages), &ok);
    }
    api_jset(o, "machine", json_boolean(s->tech == SUDOKU_TECH_CONSTRAINT), &ok);
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

typedef struct vl_job_s {
    api_job_t base;
    int hint;  /* 0 grade, 1 hint */
    int steps; /* grade: return the path */
    vx_req_t q;
    size_t ncages;    /* a Killer's: the first constraints are its cages (vk_body) */
    uint8_t *puzzle;  /* the givens (hint with givens) or the grid */
    uint8_t *sols;    /* 2 * ncells: sudoku_model_count2's buffer; the first is the solution */
    uint32_t *pencil; /* hint: ncells masks of the player's marks (0 none), or NULL */
    /* written by run() (one item), read by render() */
    int rc, nsol, bad_path;
    sudoku_grade_t grade;
    json_t *path;   /* grade with steps */
    json_t *answer; /* hint */
    double solve_ms;
    uint64_t search_nodes; /* the uniqueness solve's nodes: the signal beyond the techniques */
} vl_job_t;

static int vl_on_step(void *ud, const sudoku_logic_t *st, const sudoku_logic_step_t *step) {
    vl_job_t *j = ud;
    json_t *js = vl_step_json(j->q.m, j->ncages, step);
    (void)st;
    if (js == NULL || json_array_append_new(j->path, js) != 0) return SEARCH_ENOMEM;
    return 0;
}

static int vl_grade(vl_job_t *j, sudoku_logic_t *st, const search_ctl_t *ctl) {
    if (j->steps && (j->path = json_array()) == NULL) return SEARCH_ENOMEM;
    return api_logic_grade_run(st, j->puzzle, j->sols, (size_t)j->q.m->ncells, ctl,
                               j->steps ? vl_on_step : NULL, j, &j->grade, &j->bad_path);
}

/* The player's entries against the solution: the "wrong" answer, or NULL
 * with *empty the cells left (and *rc SEARCH_ENOMEM when out of memory). */
static json_t *vl_wrong(const vl_job_t *j, int *empty, int *rc) {
    const sudoku_model_t *m = j->q.m;
    json_t *wrong = json_array(), *miss = json_array();
    int ok = 1, n = 0, nmiss = 0, first = -1;
    char text[160];
    *empty = 0;
    *rc = 0;
    for (int c = 0; c < m->ncells; c++) {
        int v = j->q.grid[c], s = j->sols[c];
        if (m->live[c] && v == 0) (*empty)++;
        if (v != 0 && v != s) {
            api_jpush(wrong, vl_cell_value(m, c, v), &ok);
            if (n++ == 0) first = c;
        }
        if (v == 0 && j->pencil != NULL && j->pencil[c] != 0 && !(j->pencil[c] & (1u << (s - 1)))) {
            api_jpush(miss, vl_cell_value(m, c, s), &ok);
            if (n == 0 && nmiss == 0)
                snprintf(text, sizeof text, "the pencil marks of r%dc%d leave out its value",
                         c / m->cols + 1, c % m->cols + 1);
            nmiss++;
        }
    }
    if (!ok || n + nmiss == 0) {
        json_decref(wrong);
        json_decref(miss);
        *rc = ok ? 0 : SEARCH_ENOMEM;
        return NULL;
    }
    if (n > 1)
        snprintf(text, sizeof text, "%d entries do not match the solution", n);
    else if (n == 1)
        snprintf(text, sizeof text, "r%dc%d does not hold %d in the solution", first / m->cols + 1,
                 first % m->cols + 1, j->q.grid[first]);
    json_t *a = json_pack("{s:s, s:o, s:o, s:s}", "status", "wrong", "wrong", wrong, "pencil", miss,
                          "explanation", text);
    if (a == NULL) *rc = SEARCH_ENOMEM;
    return a;
}

static json_t *vl_hint_json(const void *ud, const sudoku_logic_step_t *step) {
    const vl_job_t *j = ud;
    return vl_step_json(j->q.m, j->ncages, step);
}

static int vl_hint(vl_job_t *j, sudoku_logic_t *st, const search_ctl_t *ctl) {
    int empty, rc;
    if ((j->answer = vl_wrong(j, &empty, &rc)) != NULL || rc != 0) return rc;
    if (empty == 0) {
        j->answer = json_pack("{s:s}", "status", "solved");
        return j->answer ? 0 : SEARCH_ENOMEM;
    }
    if (sudoku_logic_load(st, j->q.grid) != 0) return SEARCH_EINVAL; /* entries all true */
    for (int c = 0; j->pencil != NULL && c < j->q.m->ncells; c++)
        if (j->q.grid[c] == 0 && j->pencil[c] != 0 && sudoku_logic_restrict(st, c, j->pencil[c]))
            return SEARCH_EINVAL; /* cannot happen: the marks hold the solution's value */
    return api_logic_hint_step(st, j->sols, ctl, vl_hint_json, j, &j->answer, &j->bad_path);
}

/* sudoku_model_count2() (generate.h), keeping the search's nodes. */
/* Whether the model is a plain Killer the Killer solver takes: one n x n
 * grid with its boxes, no holes, no variant rule but Killer-X's
 * diagonals, every line one of the body's cages and each with a total. */
static int vl_plain_killer(const vl_job_t *j) {
    const sudoku_model_t *m = j->q.m;
    if (j->ncages == 0 || (size_t)m->nlines != j->ncages || m->rows != m->n || m->cols != m->n ||
        m->nlive != m->ncells || m->ngrids > 1 || m->shape.box_rows <= 0 ||
        (m->extras & ~SUDOKU_EXTRA_X) != 0 || m->npairs != 0 || m->nextra != 0 || m->nonconsecutive)
        return 0;
    for (int c = 0; c < m->ncells; c++)
        if (m->allowed[c] != m->full) return 0; /* parity, or another cell rule */
    for (int k = 0; k < m->nlines; k++)
        if (m->lines[k].kind != SUDOKU_LINE_CAGE || m->lines[k].value <= 0) return 0;
    return 1;
}

/* The uniqueness count of a plain Killer by the Killer solver (its sum
 * propagation and 45-rule constraints prove a hard Killer unique in
 * milliseconds where the generic propagation took a second or more):
 * 0 with j->nsol, 1 when it declines the body (the caller counts it the
 * generic way), < 0 stopped. */
static int vl_count2_killer(vl_job_t *j, const search_ctl_t *ctl) {
    const sudoku_model_t *m = j->q.m;
    const search_allocator_t *a = search_allocator_of(NULL, ctl);
    killer_cage_t *cages = search_alloc(a, (size_t)m->nlines * sizeof *cages);
    killer_cell_t *cells = search_alloc(a, (size_t)m->ncells * sizeof *cells);
    killer_puzzle_t pz;
    killer_opts_t o;
    killer_result_t r;
    size_t at = 0;
    int rc = SEARCH_ENOMEM;
    if (cages == NULL || cells == NULL) goto done;
    for (int k = 0; k < m->nlines; k++) {
        const sudoku_line_t *ln = &m->lines[k];
        if (at + ln->len > (size_t)m->ncells) { /* cages overlap: not a Killer */
            rc = 1;
            goto done;
        }
        cages[k].sum = ln->value;
        cages[k].ncells = (int)ln->len;
        cages[k].cells = cells + at;
        for (uint32_t i = 0; i < ln->len; i++, at++) {
            cells[at].r = m->line_cells[ln->first + i] / m->n;
            cells[at].c = m->line_cells[ln->first + i] % m->n;
        }
    }
    memset(&pz, 0, sizeof pz);
    pz.shape = m->shape;
    pz.cages = cages;
    pz.ncages = m->nlines;
    pz.givens = j->puzzle;
    pz.diagonals = (m->extras & SUDOKU_EXTRA_X) != 0;
    killer_opts_init(&o);
    o.max_solutions = 2;
    o.solutions = j->sols;
    o.ctl = ctl;
    o.alloc = a;
    memset(&r, 0, sizeof r);
    rc = killer_solve(&pz, &o, &r);
    if (r.problem.code != 0 || rc == SEARCH_EINVAL) { /* refused: the generic count says */
        rc = 1;
        goto done;
    }
    j->nsol = (int)r.solutions_found;
    j->search_nodes = r.stats.nodes;
done:
    search_free(a, cages);
    search_free(a, cells);
    return rc;
}

static int vl_count2(vl_job_t *j, const search_ctl_t *ctl) {
    sudoku_opts_t o;
    sudoku_result_t r;
    int rc;
    if (vl_plain_killer(j) && (rc = vl_count2_killer(j, ctl)) <= 0) return rc;
    sudoku_opts_init(&o);
    o.max_solutions = 2;
    o.solutions = j->sols;
    o.ctl = ctl;
    rc = sudoku_model_solve(j->q.m, j->puzzle, &o, &r);
    j->nsol = (int)r.solutions_found;
    j->search_nodes = r.stats.nodes;
    if (rc == SUDOKU_ECONFLICT) { /* givens that break a rule: no solution */
        j->nsol = 0;
        rc = 0;
    }
    return rc;
}

static int vl_run(api_job_t *job, size_t item, const search_ctl_t *ctl) {
    vl_job_t *j = (vl_job_t *)job;
    sudoku_logic_t *st;
    int64_t t0 = search_now_ns();
    int rc;
    (void)item;
    rc = vl_count2(j, ctl);
    j->solve_ms = api_elapsed_ms(t0, search_now_ns());
    if (rc != 0 || j->nsol != 1) return rc;
    if ((st = sudoku_logic_new_model_alloc(j->q.m, search_allocator_of(NULL, ctl))) == NULL)
        return SEARCH_ENOMEM;
    rc = j->hint ? vl_hint(j, st, ctl) : vl_grade(j, st, ctl);
    sudoku_logic_free(st);
    return rc;
}

static int vl_merge(api_job_t *job, size_t item, int rc) {
    vl_job_t *j = (vl_job_t *)job;
    (void)item;
    j->rc = rc;
    job->nodes += j->grade.work;
    return API_JOB_STOP;
}

static json_t *vl_grade_json(const vl_job_t *j, double ms) {
    const sudoku_grade_t *g = &j->grade;
    json_t *hist = json_object(), *root = json_object();
    int ok = 1;
    for (int t = 0; t < SUDOKU_TECH_COUNT; t++)
        if (g->counts[t])
            api_jset(hist, sudoku_tech_name((sudoku_tech_t)t), json_integer(g->counts[t]), &ok);
    api_jset(root, "status", json_string("graded"), &ok);
    vx_head(root, j->q.m, &ok);
    api_jset(root, "rating", json_real((double)(long long)(g->rating * 1000.0 + 0.5) / 1000.0),
             &ok);
    api_jset(root, "level", json_string(sudoku_grade_level_name(g->level)), &ok);
    api_jset(root, "hardest", json_string(sudoku_tech_name(g->hardest)), &ok);
    api_jset(root, "techniques", hist, &ok);
    api_jset(root, "steps_count", json_integer(g->steps), &ok);
    api_jset(root, "solved_by_logic", json_boolean(g->solved_by_logic), &ok);
    /* techniques: every step is a person's; search: some rule needed the
     * machine step, and the search's nodes say more than the rating */
    api_jset(root, "signal",
             json_string(g->counts[SUDOKU_TECH_CONSTRAINT] ? "search" : "techniques"), &ok);
    api_jset(root, "stats",
             json_pack("{s:f, s:f, s:I, s:I}", "elapsed_ms", ms, "solve_ms", j->solve_ms, "work",
                       (json_int_t)g->work, "search_nodes", (json_int_t)j->search_nodes),
             &ok);
    if (j->path != NULL) api_jset(root, "steps", json_incref(j->path), &ok);
    if (!ok) {
        json_decref(root);
        return NULL;
    }
    return root;
}

static void vl_render(api_job_t *job, api_response_t *out) {
    vl_job_t *j = (vl_job_t *)job;
    double ms = api_elapsed_ms(job->start_ns, search_now_ns());
    int ok = 1;
    if (j->rc == SEARCH_TIMEOUT || j->rc == SEARCH_CANCELLED || j->rc == SEARCH_BUDGET) {
        json_t *root = json_object();
        api_jset(root, "status", json_string(j->rc == SEARCH_CANCELLED ? "cancelled" : "timeout"),
                 &ok);
        vx_head(root, j->q.m, &ok);
        api_jset(root, "stats", json_pack("{s:f}", "elapsed_ms", ms), &ok);
        api_response_json_ok(out, 200, root, ok);
    } else if (api_logic_failed(out, j->rc, j->nsol, j->bad_path)) {
        return;
    } else if (j->hint) {
        api_response_json(out, 200, j->answer);
        j->answer = NULL;
    } else {
        json_t *root = vl_grade_json(j, ms);
        api_response_json_ok(out, 200, root, root != NULL);
    }
}

static void vl_free(api_job_t *job) {
    vl_job_t *j = (vl_job_t *)job;
    if (j == NULL) return;
    vx_req_free(&j->q);
    json_decref(j->path);
    json_decref(j->answer);
    free(j->puzzle);
    free(j->sols);
    free(j->pencil);
    free(j);
}

static const api_job_ops_t vl_ops = {"sudoku", vl_run, vl_merge, vl_render, vl_free,
                                     0,        NULL,   NULL,     NULL,      NULL};

/* hint's givens: read in the variant's frame, kept by the grid.  0 or an
 * API_E* code with p filled. */
static int vl_givens(vl_job_t *j, json_t *givens, api_problem_t *p) {
    const sudoku_model_t *m = j->q.m;
    int rc = api_sudoku_variant_grid(givens, &j->q.v, j->puzzle, p);
    for (size_t i = 0; rc != 0 && i < p->nerrors; i++)
        if (strncmp(p->errors[i].field, "grid", 4) == 0) {
            char f[64];
            snprintf(f, sizeof f, "givens%s", p->errors[i].field + 4);
            snprintf(p->errors[i].field, sizeof p->errors[i].field, "%s", f);
        }
    if (rc != 0) return rc;
    if ((rc = vx_conflicts_problem(m, j->puzzle, "givens", p)) != 0) return rc;
    for (int c = 0; c < m->ncells; c++)
        if (j->puzzle[c] && j->q.grid[c] != j->puzzle[c]) {
            char f[48];
            vx_cell_field(m, "grid", c, f, sizeof f);
            api_problem_add(p, "body", f, "the given %d is missing or changed", j->puzzle[c]);
        }
    return p->nerrors ? API_EINVALID : 0;
}

/* Grade's or hint's prepare with the problem left in *pp (not rendered):
 * 0 and *job, or the code.  ep: the table the options are read by (the
 * Sudoku endpoint's, or the Killer's); given: the body already read (the
 * Killer's rewrite, whose first ncages constraints are its cages), or NULL
 * to read req's. */
static int vl_prepare(const api_request_t *req, int hint, const api_endpoint_t *ep, json_t *given,
                      size_t ncages, api_job_t **job, api_problem_t *pp) {
    api_problem_t p;
    vl_job_t *j = calloc(1, sizeof *j);
    json_t *root = NULL, *v;
    size_t nc;
    int rc;
    *job = NULL;
    if (j == NULL) {
        api_problem_init(&p, API_ENOMEM, "out of memory");
        goto fail;
    }
    j->hint = hint;
    j->ncages = ncages;
    rc = vx_read(req, ep, given, &root, &j->q, &p);
    j->steps = j->q.steps;
    if (rc != 0) goto fail;
    if (j->q.m->n > API_LOGIC_MAX_N) {
        api_problem_add(&p, "body", "grid",
                        "the logic endpoints take up to %d symbols; this has %d", API_LOGIC_MAX_N,
                        j->q.m->n);
        goto fail;
    }
    nc = (size_t)j->q.m->ncells;
    if (vx_memory(req, &j->q, (hint ? 7 : 3) * nc, &p) != 0) goto fail; /* + pencil */
    j->puzzle = malloc(nc);
    j->sols = malloc(2 * nc);
    if (j->puzzle == NULL || j->sols == NULL) {
        api_problem_init(&p, API_ENOMEM, "out of memory");
        goto fail;
    }
    memcpy(j->puzzle, j->q.grid, nc);
    if (hint && (v = json_object_get(root, "givens")) != NULL) {
        if (vl_givens(j, v, &p) != 0) goto fail;
    } else if (vx_conflicts_problem(j->q.m, j->q.grid, "grid", &p) != 0) {
        goto fail;
    }
    if (hint && (v = json_object_get(root, "pencil")) != NULL) { /* the player's marks */
        if ((j->pencil = calloc(nc, sizeof *j->pencil)) == NULL) {
            api_problem_init(&p, API_ENOMEM, "out of memory");
            goto fail;
        }
        api_problem_init(&p, API_EINVALID, "the request is not valid");
        if (api_logic_read_pencil(v, j->q.m->rows, j->q.m->cols, j->q.m->n, j->q.grid, j->q.m->live,
                                  NULL, j->pencil, &p) != 0)
            goto fail;
    }
    json_decref(root);
    api_job_ready(&j->base, &vl_ops, 1, 1, j->q.timeout_ms, job);
    return 0;
fail:
    json_decref(root);
    vl_free(j ? &j->base : NULL);
    *pp = p;
    return p.code;
}

int api_sudoku_variant_grade_prepare(const api_request_t *req, api_job_t **job,
                                     api_response_t *resp) {
    api_problem_t p;
    int rc = vl_prepare(req, 0, &api_ep_sudoku_grade, NULL, 0, job, &p);
    if (rc != 0) api_response_problem(resp, &p);
    return rc;
}

int api_sudoku_variant_hint_prepare(const api_request_t *req, api_job_t **job,
                                    api_response_t *resp) {
    api_problem_t p;
    int rc = vl_prepare(req, 1, &api_ep_sudoku_hint, NULL, 0, job, &p);
    if (rc != 0) api_response_problem(resp, &p);
    return rc;
}

/* A Killer handed over (api/killer_api.c): POST /v1/killer/solve with a
 * variant field (which 0), /v1/killer/grade (1) and /v1/killer/hint (2).
 * The body is rewritten by vk_body (cages first among the constraints,
 * size an empty grid, diagonals the x variant; grade and hint leave the
 * solve's options in, for the Killer table to refuse by name), then
 * prepared as the Sudoku variant it is (solve: read by the Sudoku solve's
 * table; grade and hint: by the Killer endpoint's); problems and steps
 * name cages[k] as written. */
static int vk_prepare(const api_request_t *req, int which, api_job_t **job, api_response_t *resp) {
    api_problem_t p;
    json_t *root, *body = NULL;
    size_t ncages = 0;
    int rc, bad = 0, sized;
    *job = NULL;
    api_problem_init(&p, API_EINVALID, "the request is not valid");
    if (which != 0 && !api_json_content_type(req)) { /* grade and hint read JSON only */
        api_endpoint_media_problem(which == 2 ? &api_ep_killer_hint : &api_ep_killer_grade, req,
                                   &p);
        goto fail;
    }
    if (vx_json_only(req, &p) != 0 || (root = api_json_object(req, &p)) == NULL) goto fail;
    body = vk_body(root, which != 0, &ncages, &bad, &p);
    sized = vk_sized(root);
    if (json_object_get(root, "cages") == NULL) {
        api_problem_add(&p, "body", "cages", "required");
        bad = 1;
    }
    json_decref(root);
    if (body == NULL) {
        api_problem_nomem(&p, "reading the Killer");
        goto fail;
    }
    if (bad) goto fail; /* size, diagonals, method, value_order, cages or constraints */
    if (which == 0)     /* the rewritten body, read as it stands */
        rc = vs_prepare(req, body, job, &p);
    else
        rc = vl_prepare(req, which == 2, which == 2 ? &api_ep_killer_hint : &api_ep_killer_grade,
                        body, ncages, job, &p);
    json_decref(body);
    if (rc == 0) return 0;
    vk_rename(&p, ncages, sized);
    api_response_problem(resp, &p);
    return rc;
fail:
    json_decref(body);
    api_response_problem(resp, &p);
    return p.code;
}

int api_killer_variant_solve_prepare(const api_request_t *req, api_job_t **job,
                                     api_response_t *resp) {
    return vk_prepare(req, 0, job, resp);
}

int api_killer_variant_grade_prepare(const api_request_t *req, api_job_t **job,
                                     api_response_t *resp) {
    return vk_prepare(req, 1, job, resp);
}

int api_killer_variant_hint_prepare(const api_request_t *req, api_job_t **job,
                                    api_response_t *resp) {
    return vk_prepare(req, 2, job, resp);
}

/* === Generate =========================================================== */

typedef struct vg_item_s {
    /* Written by run() on a worker, one turn at a time (the pool never runs
     * two turns of an item at once, and each turn's start follows the last
     * one's end on the loop thread); read by render() on the loop thread
     * after the last turn. */
    rng_t rng; /* the item's stream between its turns (begun: seeded) */
    int begun;
    uint64_t attempts; /* over all its turns */
    int rc;
    uint8_t *puzzle, *solution, *parity; /* ncells each */
    int *regions;                        /* ncells */
    sudoku_pair_t *pairs;                /* 2 * ncells */
    int npairs;
    sudoku_gen_result_t res;
} vg_item_t;

typedef struct vg_job_s {
    api_job_t base;
    api_sudoku_variant_t v;
    sudoku_vgen_opts_t o; /* shared by the items (seed per item); o.spec reads v's arrays */
    json_t *echo;         /* the request's variant fields, copied into every puzzle */
    long long seed, count;
    int rows, cols;
    vg_item_t *items;
    /* on the loop thread: merge(), then render() */
    uint64_t attempts; /* summed over the items by render() */
    int worst;
    /* reading: variant[k] of the list the reader saw is variant[kept[k]] of
     * the request (vg_drawn took the names the generator draws for out) */
    int kept[64];
} vg_job_t;

static int vg_run(api_job_t *job, size_t i, const search_ctl_t *ctl) {
    vg_job_t *j = (vg_job_t *)job;
    vg_item_t *it = &j->items[i];
    sudoku_vgen_opts_t o = j->o;
    sudoku_vgen_out_t out = {it->puzzle, it->solution, it->regions, it->parity, it->pairs, 0};
    o.gen.seed = (uint64_t)api_gen_item_seed(j->seed, i);
    o.gen.ctl = ctl;
    if (!it->begun) {
        rng_seed(&it->rng, o.gen.seed, 0);
        it->begun = 1;
    }
    o.gen.resume = &it->rng; /* turns: as the classic generator's (generate_api.c) */
    o.gen.turn_end_ns = job->turn_ns > 0 ? search_now_ns() + job->turn_ns : 0;
    it->rc = sudoku_generate_variant(&o, &out, &it->res);
    it->attempts += it->res.attempts;
    it->npairs = out.npairs;
    return it->rc == SEARCH_TURN ? API_JOB_AGAIN : it->rc;
}

static int vg_merge(api_job_t *job, size_t i, int rc) {
    vg_job_t *j = (vg_job_t *)job;
    vg_item_t *it = &j->items[i];
    if (rc != 0) it->rc = rc; /* also for items that never ran */
    if (rc != 0 && (j->worst == 0 || rc == SEARCH_ENOMEM)) j->worst = rc;
    return API_JOB_CONTINUE;
}

/* The drawn regions as rows arrays (null on holes). */
static json_t *vg_regions_json(const vg_job_t *j, const int *reg) {
    json_t *rows = json_array();
    int ok = 1;
    for (int r = 0; r < j->rows && ok; r++) {
        json_t *row = json_array();
        for (int c = 0; c < j->cols && row != NULL; c++) {
            int id = reg[r * j->cols + c];
            api_jpush(row, id >= 0 ? json_integer(id) : json_null(), &ok);
        }
        api_jpush(rows, row, &ok);
    }
    if (!ok) {
        json_decref(rows);
        return NULL;
    }
    return rows;
}

static json_t *vg_parity_json(const vg_job_t *j, const uint8_t *par) {
    char s[SUDOKU_MODEL_MAX_CELLS];
    int nc = j->rows * j->cols;
    for (int i = 0; i < nc; i++)
        s[i] = par[i] == SUDOKU_PARITY_EVEN ? 'E' : par[i] == SUDOKU_PARITY_ODD ? 'O' : '.';
    return json_stringn(s, (size_t)nc);
}

static json_t *vg_pairs_json(const vg_job_t *j, const vg_item_t *it) {
    json_t *list = json_array();
    int ok = 1;
    for (int k = 0; k < it->npairs && ok; k++)
        api_jpush(list,
                  json_pack("[[i,i],[i,i]]", it->pairs[k].a / j->cols, it->pairs[k].a % j->cols,
                            it->pairs[k].b / j->cols, it->pairs[k].b % j->cols),
                  &ok);
    if (!ok) {
        json_decref(list);
        return NULL;
    }
    return list;
}

/* Puzzle i as an object that is also a solve request for it: the grid and
 * the variant fields (the request's, and the regions, parity and marks
 * drawn for it), then what the generator says of it. */
static json_t *vg_item_json(const vg_job_t *j, size_t i, const sudoku_model_t *frame) {
    const vg_item_t *it = &j->items[i];
    json_t *o = json_deep_copy(j->echo);
    int ok = o != NULL;
    api_jset(o, "puzzle", vx_grid_json(frame, it->puzzle, 0), &ok);
    api_jset(o, "grid", vx_grid_json(frame, it->puzzle, 1), &ok);
    api_jset(o, "solution", vx_grid_json(frame, it->solution, 0), &ok);
    if (j->o.random_regions) api_jset(o, "regions", vg_regions_json(j, it->regions), &ok);
    if (j->o.parity) api_jset(o, "parity", vg_parity_json(j, it->parity), &ok);
    if (j->o.consecutive) api_jset(o, "pairs", vg_pairs_json(j, it), &ok);
    api_jset(o, "rows", json_integer(j->rows), &ok);
    api_jset(o, "cols", json_integer(j->cols), &ok);
    api_jset(o, "rating",
             json_real((double)(long long)(it->res.grade.rating * 1000.0 + 0.5) / 1000.0), &ok);
    api_jset(o, "level", json_string(sudoku_grade_level_name(it->res.grade.level)), &ok);
    api_jset(o, "hardest", json_string(sudoku_tech_name(it->res.grade.hardest)), &ok);
    api_jset(o, "seed", json_integer((json_int_t)api_gen_item_seed(j->seed, i)), &ok);
    api_jset(o, "givens", json_integer(it->res.givens), &ok);
    api_jset(o, "symmetry", json_string(sudoku_symmetry_name(j->o.gen.symmetry)), &ok);
    api_jset(o, "minimal", it->res.minimal == 1 ? json_true() : json_null(), &ok);
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static void vg_render(api_job_t *job, api_response_t *out) {
    vg_job_t *j = (vg_job_t *)job;
    /* vx_grid_json() reads only the frame of a model */
    sudoku_model_t frame = {
        .n = j->v.spec.n, .rows = j->rows, .cols = j->cols, .ncells = j->rows * j->cols};
    json_t *list = json_array(), *root;
    size_t found = 0;
    int ok = 1;
    for (size_t i = 0; i < (size_t)j->count; i++)
        if (j->items[i].rc == 0) {
            api_jpush(list, vg_item_json(j, i, &frame), &ok);
            found++;
        }
    for (size_t i = 0; i < (size_t)j->count; i++)
        j->attempts += j->items[i].attempts; /* also those the deadline cut short */
    if (j->worst == SEARCH_ENOMEM && found < (size_t)j->count) {
        json_decref(list);
        vx_problem(out, API_ENOMEM, NULL, "out of memory while generating");
        return;
    }
    root = json_pack("{s:s, s:o, s:{s:I, s:f, s:i, s:I, s:I}}", "status",
                     found == (size_t)j->count      ? "complete"
                     : j->worst == SEARCH_CANCELLED ? "cancelled"
                                                    : "timeout",
                     "puzzles", ok ? list : NULL, "stats", "attempts", (json_int_t)j->attempts,
                     "elapsed_ms", api_elapsed_ms(job->start_ns, search_now_ns()), "threads",
                     (int)job->threads, "requested", (json_int_t)j->count, "seed",
                     (json_int_t)j->seed);
    if (!ok) json_decref(list);
    api_response_json_ok(out, 200, root, root != NULL);
}

static void vg_free(api_job_t *job) {
    vg_job_t *j = (vg_job_t *)job;
    if (j == NULL) return;
    for (long long i = 0; j->items != NULL && i < j->count; i++) {
        free(j->items[i].puzzle);
        free(j->items[i].solution);
        free(j->items[i].parity);
        free(j->items[i].regions);
        free(j->items[i].pairs);
    }
    free(j->items);
    json_decref(j->echo);
    api_sudoku_variant_free(&j->v);
    free(j);
}

static const api_job_ops_t vg_ops = {
    .puzzle = "generate", .run = vg_run, .merge = vg_merge, .render = vg_render, .free = vg_free};

/* The names the generator draws for: jigsaw (without regions), even-odd,
 * consecutive.  They leave `variant` (the reader would ask for what they
 * draw) and set j->o's flags; a field they draw is refused. */
static int vg_drawn(json_t *body, vg_job_t *j, api_problem_t *p) {
    json_t *var = json_object_get(body, "variant"), *keep;
    size_t i, count;
    int bad = 0, nkept = 0;
    if (!json_is_string(var) && !json_is_array(var)) return 0; /* the reader says what is wrong */
    count = json_is_string(var) ? 1 : json_array_size(var);
    if ((keep = json_array()) == NULL) return -1;
    for (i = 0; i < count && bad >= 0; i++) {
        json_t *e = json_is_string(var) ? var : json_array_get(var, i);
        const char *s = json_is_string(e) ? json_string_value(e) : "";
        if ((strcmp(s, "jigsaw") == 0 || strcmp(s, "irregular") == 0) &&
            json_object_get(body, "regions") == NULL)
            j->o.random_regions = 1;
        else if (strcmp(s, "even-odd") == 0)
            j->o.parity = 1;
        else if (strcmp(s, "consecutive") == 0)
            j->o.consecutive = 1;
        else if (json_array_append(keep, e) != 0)
            bad = -1;
        else if (nkept < 64)
            j->kept[nkept++] = (int)i;
    }
    if (bad == 0 && j->o.parity && json_object_get(body, "parity") != NULL) {
        api_problem_add(p, "body", "parity", "even-odd draws the parity; leave it out");
        bad = 1;
    }
    if (bad == 0 && j->o.consecutive && json_object_get(body, "pairs") != NULL) {
        api_problem_add(p, "body", "pairs", "consecutive draws the marks; leave them out");
        bad = 1;
    }
    if (bad >= 0 && json_array_size(keep) < count &&
        (json_array_size(keep) > 0 ? json_object_set(body, "variant", keep)
                                   : json_object_del(body, "variant")) != 0)
        bad = -1;
    json_decref(keep);
    return bad;
}

/* The reader's errors on variant[k] renamed to the request's index. */
static void vg_rename(const vg_job_t *j, api_problem_t *p) {
    for (size_t i = 0; i < p->nerrors; i++) {
        int k;
        if (sscanf(p->errors[i].field, "variant[%d]", &k) == 1 && k >= 0 && k < 64)
            snprintf(p->errors[i].field, sizeof p->errors[i].field, "variant[%d]", j->kept[k]);
    }
}

/* The generator's own options (generate's table: api_gen_sudoku_options),
 * unknown members named, into the job.  Returns whether any was bad
 * (generate's rows allocate nothing: no out-of-memory case). */
static int vg_options(const api_request_t *req, json_t *root, vg_job_t *j, long long *size,
                      api_problem_t *p) {
    api_gen_opts_t g;
    int rc = api_gen_sudoku_options(req, root, &g, p);
    j->o.gen.rating_min = g.rating_min;
    j->o.gen.rating_max = g.rating_max;
    j->o.gen.symmetry = g.symmetry;
    j->o.gen.minimal = g.minimal;
    j->o.gen.givens_min = g.givens_min;
    j->o.gen.givens_max = g.givens_max;
    j->count = g.count;
    if (j->count > API_GEN_MAX_COUNT) { /* the classic table allows a stream's count */
        api_problem_add(p, "body", "count", "must be at most %d for a variant", API_GEN_MAX_COUNT);
        rc = -1;
    }
    j->base.timeout_ms = g.timeout_ms;
    j->seed = g.seed;
    *size = g.size;
    return rc != 0;
}

/* The copy of the request's variant fields (and box) that every puzzle
 * carries, so that a puzzle with them is a solve request. */
static json_t *vg_echo(json_t *root) {
    json_t *echo = json_object(), *v;
    int ok = 1;
    for (int i = 0; api_sudoku_variant_fields[i] != NULL; i++)
        if ((v = json_object_get(root, api_sudoku_variant_fields[i])) != NULL)
            api_jset(echo, api_sudoku_variant_fields[i], json_incref(v), &ok);
    if ((v = json_object_get(root, "box")) != NULL) api_jset(echo, "box", json_incref(v), &ok);
    if (!ok) {
        json_decref(echo);
        return NULL;
    }
    return echo;
}

static int vg_alloc(vg_job_t *j) {
    size_t nc = (size_t)j->rows * (size_t)j->cols;
    if ((j->items = calloc((size_t)j->count, sizeof *j->items)) == NULL) return -1;
    for (long long i = 0; i < j->count; i++) {
        vg_item_t *it = &j->items[i];
        it->rc = SEARCH_TIMEOUT; /* until run() says otherwise */
        it->puzzle = malloc(nc);
        it->solution = malloc(nc);
        it->parity = calloc(nc, 1);
        it->regions = malloc(nc * sizeof *it->regions);
        it->pairs = malloc(2 * nc * sizeof *it->pairs);
        if (!it->puzzle || !it->solution || !it->parity || !it->regions || !it->pairs) return -1;
    }
    j->base.progress_unit = "puzzles";
    return 0;
}

int api_sudoku_variant_generate_prepare(const api_request_t *req, api_job_t **job,
                                        api_response_t *resp) {
    static const char *const none[] = {NULL};
    api_problem_t p;
    vg_job_t *j = calloc(1, sizeof *j);
    json_t *root = NULL;
    sudoku_model_t *m = NULL;
    long long size = 9;
    int bad, rc;
    unsigned threads;
    *job = NULL;
    api_problem_init(&p, API_EINVALID, "the request is not valid");
    if (j == NULL) {
        api_problem_init(&p, API_ENOMEM, "out of memory");
        goto fail;
    }
    bad = api_params_check(req, none, &p) != 0;
    if ((root = api_json_object(req, &p)) == NULL) goto fail;
    sudoku_vgen_opts_init(&j->o);
    bad |= vg_options(req, root, j, &size, &p) != 0;
    if (json_object_get(root, "constraints") != NULL) {
        api_problem_add(&p, "body", "constraints",
                        "the generator draws no sum or skyscraper constraints (yet)");
        bad = 1;
    }
    if ((j->echo = vg_echo(root)) == NULL || (rc = vg_drawn(root, j, &p)) < 0) {
        api_problem_nomem(&p, "reading the variant");
        goto fail;
    }
    bad |= rc;
    /* a layout sets n itself (the reader says when size disagrees) */
    rc = api_sudoku_variant_read(root,
                                 json_object_get(root, "layout") != NULL &&
                                         json_object_get(root, "size") == NULL
                                     ? 0
                                     : (int)size,
                                 &j->v, &p);
    vg_rename(j, &p);
    if (rc != 0 || bad) goto fail;
    if (j->o.random_regions && j->v.spec.layout != SUDOKU_LAYOUT_SINGLE) {
        api_problem_add(&p, "body", "variant", "jigsaw regions are drawn for one grid only");
        goto fail;
    }
    if (api_sudoku_variant_model(&j->v, NULL, &m, &p) != 0) goto fail; /* the spec's errors */
    j->rows = m->rows;
    j->cols = m->cols;
    int live = m->nlive;
    sudoku_model_free(m);
    if (api_gen_givens_check(live, j->o.gen.givens_min, j->o.gen.givens_max, &p) != 0 ||
        api_gen_reach_problem(&j->o.gen,
                              sudoku_grade_rating_possible(j->o.gen.rating_min, j->o.gen.rating_max)
                                  ? SUDOKU_GEN_REACHABLE
                                  : SUDOKU_GEN_RATING_GAP,
                              &p) != 0)
        goto fail;
    if (j->rows != j->cols &&
        (j->o.gen.symmetry == SUDOKU_SYM_ROT90 || j->o.gen.symmetry == SUDOKU_SYM_DIAG)) {
        api_problem_add(&p, "body", "symmetry",
                        "rotational90 and diagonal need a square frame; this layout is %d x %d",
                        j->rows, j->cols);
        goto fail;
    }
    j->o.spec = j->v.spec;
    if (vg_alloc(j) != 0) {
        api_problem_init(&p, API_ENOMEM, "out of memory");
        goto fail;
    }
    json_decref(root);
    threads = (unsigned)(j->count < (long long)req->pool_threads ? j->count : req->pool_threads);
    j->base.background = 1;
    j->base.turns = 1; /* vg_run() gives its worker back every turn_ns */
    api_job_ready(&j->base, &vg_ops, (size_t)j->count, threads < 1 ? 1 : threads,
                  j->base.timeout_ms, job);
    return 0;
fail:
    json_decref(root);
    vg_free(j ? &j->base : NULL);
    api_response_problem(resp, &p);
    return p.code;
}

/* === The hand-overs (api/endpoint.h) ===================================== */

const api_handover_t api_ho_sudoku_solve = {&api_ep_sudoku_solve, api_sudoku_variant_solve_prepare};
const api_handover_t api_ho_killer_solve = {&api_ep_killer_solve, api_killer_variant_solve_prepare};
const api_handover_t api_ho_killer_grade = {&api_ep_killer_grade, api_killer_variant_grade_prepare};
const api_handover_t api_ho_killer_hint = {&api_ep_killer_hint, api_killer_variant_hint_prepare};
const api_handover_t api_ho_sudoku_validate = {&api_ep_sudoku_validate,
                                               api_sudoku_variant_validate_prepare};
const api_handover_t api_ho_sudoku_grade = {&api_ep_sudoku_grade, api_sudoku_variant_grade_prepare};
const api_handover_t api_ho_sudoku_hint = {&api_ep_sudoku_hint, api_sudoku_variant_hint_prepare};
const api_handover_t api_ho_sudoku_generate = {&api_ep_sudoku_generate,
                                               api_sudoku_variant_generate_prepare};
