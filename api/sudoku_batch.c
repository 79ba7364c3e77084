/* sudoku_batch.c -- POST /v1/sudoku/batch.
 *
 * Request: a text/plain body, one 9x9 puzzle per line: 81 characters, '1'-'9'
 * a given, '.' or '0' an empty cell.  Blank lines and lines starting with '#'
 * are skipped; surrounding spaces, tabs and a CR are trimmed.  Query:
 * max_solutions (1, or 2 to prove uniqueness), threads (default: every
 * worker), timeout_ms (for the whole batch).
 *
 * Answer: 200 and one line per puzzle line, in input order, streamed while
 * the batch runs:
 *   text/plain (default)       the solution (81 digits), or `multiple`,
 *                              `unsolvable`, `invalid: <reason>`, `timeout`,
 *                              `cancelled`, `error: <reason>` (the server
 *                              could not search this line: out of memory)
 *   application/x-ndjson       {"line":L,"status":S,...}: S is one of solved,
 *                              multiple, unsolvable, invalid, timeout,
 *                              cancelled, error; with solution (the first
 *                              found), unique (when max_solutions is 2),
 *                              guesses, and error (the reason) for invalid
 *                              and error lines.  L counts every input
 *                              line from 1, comments included.
 * A bad line answers `invalid` and the batch goes on; only the request as a
 * whole can fail (400 bad query or no puzzle at all, 413 more puzzles than
 * --max-batch-lines or a body over --max-batch-body, 415 media type).
 *
 * Design.  prepare() parses the whole body in one pass (on the HTTP thread;
 * about 25 ns a byte) into entries of 81 cell values, or a parse error, and
 * cuts them into chunks of at most API_BATCH_CHUNK_MAX puzzles: a chunk is a
 * job item.  run(i) solves chunk i with sudoku9_solve() into the chunk's own
 * buffer; merge(i) publishes it (state store with release).  The stream, on
 * the HTTP thread, copies published chunks in input order (acquire load) and
 * frees each buffer once sent.  A chunk's buffer comes from run()'s ctl
 * allocator (on the server: charged to the request's share and the work
 * budget), and while BT_WINDOW bytes of published answer (a quarter of the
 * share when smaller) wait for a slow reader the job holds
 * (api_job_ops_t.hold): the pool starts no new chunk until the client
 * reads.  Answer memory is so bounded by the window plus the chunks in
 * flight.
 *
 * Chunk states: PENDING -> READY (run() wrote `out`) or SKIPPED (run() never
 * ran: the deadline passed, the client left, shutdown; `rc` says which).
 * finish() runs after the last merge: from then on a chunk still PENDING will
 * never run, and the stream renders it as SKIPPED with the task's code.
 * Invalid lines answer `invalid` even in a skipped chunk: that needs no work.
 *
 * Ownership: the job owns entries and chunks; a READY chunk's buffer passes
 * to the stream, which alone frees or replaces it from then on. */
#include "api/sudoku_batch.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/grid_char.h"
#include "solvers/sudoku/sudoku.h"
#include "solvers/sudoku/sudoku9.h"

#define BT_TEXT_LINE 128 /* longest text answer line, newline included */
#define BT_JSON_LINE 320 /* longest NDJSON answer line */

enum { BT_OK, BT_BAD_LENGTH, BT_BAD_CHAR };
enum { BT_PENDING, BT_READY, BT_SKIPPED };

typedef struct bt_entry_s {
    uint8_t cells[SUDOKU9_CELLS];
    uint8_t bad;     /* BT_OK or why the line is not a puzzle */
    uint8_t badchar; /* BT_BAD_CHAR: the offending byte */
    uint32_t line;   /* 1-based input line */
    size_t arg;      /* BT_BAD_LENGTH: characters; BT_BAD_CHAR: 1-based position */
} bt_entry_t;

typedef struct bt_chunk_s {
    atomic_int state;
    int rc;    /* SKIPPED: why */
    char *out; /* READY: the answer lines */
    size_t len;
    const search_allocator_t *alloc; /* what made out: run()'s ctl allocator (on the server:
                                        charged to the request), NULL for malloc */
    size_t counted;                  /* bytes of out in the job's `unread` */
    uint64_t nodes;
} bt_chunk_t;

typedef struct bt_job_s {
    api_job_t base;
    bt_entry_t *entries;
    size_t nentries;
    bt_chunk_t *chunks;
    size_t nchunks, chunk_size;
    uint32_t max_solutions;
    int ndjson;
    atomic_int finished; /* finish() ran; finish_rc is valid */
    int finish_rc;
    size_t rd, rd_off; /* the stream's position: chunk, byte within it */
    /* Bytes of published chunks not yet sent: merge() adds, the stream
     * subtracts, hold() reads; at `window` the pool starts no new chunk. */
    atomic_size_t unread;
    size_t window;
} bt_job_t;

/* A batch runs at most this many bytes of answer ahead of its reader (a
 * quarter of the request's share when that is smaller). */
#define BT_WINDOW ((size_t)1 << 20)

/* Frees a chunk's answer through whatever made it. */
static void bt_out_free(bt_chunk_t *ch) {
    search_free(ch->alloc, ch->out);
    ch->out = NULL;
    ch->alloc = NULL;
}

/* === Parsing === */

/* Fills e from one trimmed puzzle line. */
static void bt_parse_line(const char *s, size_t n, uint32_t line, bt_entry_t *e) {
    memset(e, 0, sizeof *e);
    e->line = line;
    if (n != SUDOKU9_CELLS) {
        e->bad = BT_BAD_LENGTH;
        e->arg = n;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        int v = api_grid_char_value(s[i]);
        if (v == API_GRID_BAD || v > 9) { /* a 9x9 line: '.', '0' and 1-9 only */
            e->bad = BT_BAD_CHAR;
            e->badchar = (uint8_t)s[i];
            e->arg = i + 1;
            return;
        }
        e->cells[i] = (uint8_t)(v == API_GRID_EMPTY ? 0 : v);
    }
}

static int bt_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Counts (out == NULL) or parses the puzzle lines of the body; stops past
 * `cap` puzzles.  Returns how many it saw. */
static size_t bt_scan(const char *body, size_t len, bt_entry_t *out, size_t cap) {
    size_t n = 0, pos = 0;
    uint32_t line = 0;
    while (pos < len && n <= cap) {
        const char *nl = memchr(body + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - body) : len, a = pos, b = end;
        line++;
        pos = end + 1;
        while (a < b && bt_blank(body[a]))
            a++;
        while (b > a && bt_blank(body[b - 1]))
            b--;
        if (a == b || body[a] == '#') continue;
        if (out != NULL && n < cap) bt_parse_line(body + a, b - a, line, &out[n]);
        n++;
    }
    return n;
}

/* === Answers === */

/* Why a well-formed line breaks the rules: the first two clashing givens. */
static void bt_conflict(const uint8_t *c, char *buf, size_t cap) {
    for (int i = 0; i < SUDOKU9_CELLS; i++) {
        if (!c[i]) continue;
        for (int j = i + 1; j < SUDOKU9_CELLS; j++) {
            if (c[j] != c[i]) continue;
            const char *unit = i / 9 == j / 9                                 ? "row"
                               : i % 9 == j % 9                               ? "column"
                               : (i / 27 == j / 27 && i % 9 / 3 == j % 9 / 3) ? "box"
                                                                              : NULL;
            if (unit == NULL) continue;
            snprintf(buf, cap, "digit %d at characters %d and %d (same %s)", c[i], i + 1, j + 1,
                     unit);
            return;
        }
    }
    snprintf(buf, cap, "the givens break the rules");
}

static void bt_reason(const bt_entry_t *e, char *buf, size_t cap) {
    if (e->bad == BT_BAD_LENGTH) {
        snprintf(buf, cap, "%zu characters, a puzzle has 81", e->arg);
    } else if (e->badchar > 0x20 && e->badchar < 0x7f && e->badchar != '"' && e->badchar != '\\') {
        snprintf(buf, cap,
                 "character '%c' at position %zu; use 1-9 for givens, '.' or '0' for empty",
                 e->badchar, e->arg);
    } else {
        snprintf(buf, cap, "byte 0x%02x at position %zu; use 1-9 for givens, '.' or '0' for empty",
                 e->badchar, e->arg);
    }
}

/* What a line answers; bt_status_name spells it. */
enum { BT_SOLVED, BT_MULTIPLE, BT_UNSOLVABLE, BT_INVALID, BT_TIMEOUT, BT_CANCELLED, BT_ERROR };
static const char *const bt_status_name[] = {"solved",  "multiple",  "unsolvable", "invalid",
                                             "timeout", "cancelled", "error"};

typedef struct bt_outcome_s {
    int status;              /* BT_SOLVED ... */
    const uint8_t *solution; /* NULL when none */
    const char *error;       /* invalid only */
    int has_stats;
    uint64_t guesses;
} bt_outcome_t;

static int bt_stop_status(int rc) {
    return rc == SEARCH_TIMEOUT ? BT_TIMEOUT : rc == SEARCH_CANCELLED ? BT_CANCELLED : BT_ERROR;
}

/* Appends one answer line; returns its length (always < the line cap). */
static size_t bt_emit(const bt_job_t *j, const bt_entry_t *e, const bt_outcome_t *o, char *dst) {
    char sol[SUDOKU9_CELLS + 1] = "";
    int n;
    if (o->solution != NULL) {
        for (int i = 0; i < SUDOKU9_CELLS; i++)
            sol[i] = (char)('0' + o->solution[i]);
        sol[SUDOKU9_CELLS] = '\0';
    }
    if (!j->ndjson) {
        if (o->status == BT_SOLVED)
            n = snprintf(dst, BT_TEXT_LINE, "%s\n", sol);
        else if (o->error)
            n = snprintf(dst, BT_TEXT_LINE, "%s: %s\n", bt_status_name[o->status], o->error);
        else
            n = snprintf(dst, BT_TEXT_LINE, "%s\n", bt_status_name[o->status]);
        return n < BT_TEXT_LINE ? (size_t)n : BT_TEXT_LINE - 1;
    }
    n = snprintf(dst, BT_JSON_LINE, "{\"line\":%u,\"status\":\"%s\"", (unsigned)e->line,
                 bt_status_name[o->status]);
    if (o->solution != NULL)
        n += snprintf(dst + n, BT_JSON_LINE - (size_t)n, ",\"solution\":\"%s\"", sol);
    if (o->has_stats && j->max_solutions >= 2 && o->solution != NULL)
        n += snprintf(dst + n, BT_JSON_LINE - (size_t)n, ",\"unique\":%s",
                      o->status == BT_SOLVED ? "true" : "false");
    if (o->has_stats)
        n += snprintf(dst + n, BT_JSON_LINE - (size_t)n, ",\"guesses\":%llu",
                      (unsigned long long)o->guesses);
    if (o->error) n += snprintf(dst + n, BT_JSON_LINE - (size_t)n, ",\"error\":\"%s\"", o->error);
    n += snprintf(dst + n, BT_JSON_LINE - (size_t)n, "}\n");
    return (size_t)n;
}

/* The answer for a line that needs no search (invalid), or for one whose
 * search was stopped by `rc` (< 0). */
static size_t bt_emit_unsolved(const bt_job_t *j, const bt_entry_t *e, int rc, char *dst) {
    char why[160];
    bt_outcome_t o = {bt_stop_status(rc), NULL, NULL, 0, 0};
    if (o.status == BT_ERROR) o.error = search_code_str(rc); /* "out of memory ..." */
    if (e->bad != BT_OK) {
        bt_reason(e, why, sizeof why);
        o.status = BT_INVALID;
        o.error = why;
    }
    return bt_emit(j, e, &o, dst);
}

static size_t bt_line_cap(const bt_job_t *j) { return j->ndjson ? BT_JSON_LINE : BT_TEXT_LINE; }

static void bt_chunk_range(const bt_job_t *j, size_t item, size_t *first, size_t *end) {
    *first = item * j->chunk_size;
    *end = *first + j->chunk_size < j->nentries ? *first + j->chunk_size : j->nentries;
}

/* === Job === */

static int bt_run(api_job_t *base, size_t item, const search_ctl_t *ctl) {
    bt_job_t *j = (bt_job_t *)base;
    bt_chunk_t *ch = &j->chunks[item];
    size_t first, end, len = 0, cap = bt_line_cap(j);
    uint8_t sols[2 * SUDOKU9_CELLS];
    int rc = 0;

    bt_chunk_range(j, item, &first, &end);
    const search_allocator_t *a = search_allocator_of(NULL, ctl);
    char *out = search_alloc(a, (end - first) * cap);
    if (out == NULL) return SEARCH_ENOMEM;
    ch->alloc = a;
    for (size_t k = first; k < end; k++) {
        const bt_entry_t *e = &j->entries[k];
        sudoku9_result_t res;
        int r;
        if (e->bad != BT_OK || rc != 0) {
            len += bt_emit_unsolved(j, e, rc, out + len);
            continue;
        }
        r = sudoku9_solve(e->cells, j->max_solutions, sols, ctl, &res);
        ch->nodes += res.stats.nodes;
        if (r == SUDOKU_ECONFLICT) {
            char why[160];
            bt_outcome_t o = {BT_INVALID, NULL, why, 0, 0};
            bt_conflict(e->cells, why, sizeof why);
            len += bt_emit(j, e, &o, out + len);
        } else if (r < 0) { /* stopped: this line and the rest of the chunk */
            rc = r;
            len += bt_emit_unsolved(j, e, rc, out + len);
        } else {
            bt_outcome_t o = {res.solutions_found == 0   ? BT_UNSOLVABLE
                              : res.solutions_found == 1 ? BT_SOLVED
                                                         : BT_MULTIPLE,
                              res.solutions_found ? sols : NULL, NULL, 1, res.guesses};
            len += bt_emit(j, e, &o, out + len);
        }
    }
    ch->out = out;
    ch->len = len;
    return rc;
}

/* Loop thread: publish the chunk. */
static int bt_merge(api_job_t *base, size_t item, int rc) {
    bt_job_t *j = (bt_job_t *)base;
    bt_chunk_t *ch = &j->chunks[item];
    size_t first, end;
    ch->rc = rc;
    j->base.nodes += ch->nodes;
    bt_chunk_range(j, item, &first, &end);
    j->base.progress_done += end - first; /* answered, solved or not */
    if (ch->out != NULL) {
        ch->counted = ch->len;
        atomic_fetch_add(&j->unread, ch->len);
    }
    atomic_store_explicit(&ch->state, ch->out != NULL ? BT_READY : BT_SKIPPED,
                          memory_order_release);
    return API_JOB_CONTINUE;
}

static void bt_finish(api_job_t *base, int rc) {
    bt_job_t *j = (bt_job_t *)base;
    j->finish_rc = rc < 0 ? rc : SEARCH_CANCELLED;
    atomic_store_explicit(&j->finished, 1, memory_order_release);
}

/* Renders a chunk that never ran; 0 or -1 (out of memory). */
static int bt_render_skipped(bt_job_t *j, size_t item) {
    bt_chunk_t *ch = &j->chunks[item];
    size_t first, end, len = 0;
    bt_chunk_range(j, item, &first, &end);
    ch->out = malloc((end - first) * bt_line_cap(j));
    ch->alloc = NULL;
    if (ch->out == NULL) return -1;
    for (size_t k = first; k < end; k++)
        len += bt_emit_unsolved(j, &j->entries[k], ch->rc, ch->out + len);
    ch->len = len;
    return 0;
}

/* HTTP thread: the next bytes in input order; 0 = wait for the pool. */
static long bt_stream(void *cls, char *buf, size_t max) {
    bt_job_t *j = cls;
    size_t w = 0;
    while (w < max && j->rd < j->nchunks) {
        bt_chunk_t *ch = &j->chunks[j->rd];
        int st = atomic_load_explicit(&ch->state, memory_order_acquire);
        if (st == BT_PENDING) {
            if (!atomic_load_explicit(&j->finished, memory_order_acquire)) break;
            /* finish() follows every merge: look again before calling it lost */
            st = atomic_load_explicit(&ch->state, memory_order_acquire);
            if (st == BT_PENDING) { /* never ran: answer for it here */
                st = BT_SKIPPED;
                ch->rc = j->finish_rc;
            }
        }
        if (st == BT_SKIPPED && ch->out == NULL && bt_render_skipped(j, j->rd) != 0)
            return w > 0 ? (long)w : -1; /* out of memory: end the answer short */
        size_t n = ch->len - j->rd_off < max - w ? ch->len - j->rd_off : max - w;
        memcpy(buf + w, ch->out + j->rd_off, n);
        w += n;
        j->rd_off += n;
        if (j->rd_off == ch->len) {
            atomic_fetch_sub(&j->unread, ch->counted);
            ch->counted = 0;
            bt_out_free(ch);
            j->rd++;
            j->rd_off = 0;
        }
    }
    if (w > 0) return (long)w;
    return j->rd == j->nchunks ? -1 : 0;
}

static void bt_render(api_job_t *base, api_response_t *out) {
    bt_job_t *j = (bt_job_t *)base;
    api_response_destroy(out);
    out->status = 200;
    out->content_type = j->ndjson ? "application/x-ndjson" : "text/plain; charset=utf-8";
    out->stream = bt_stream;
    out->stream_cls = j;
    out->stream_free = NULL; /* the job owns everything the stream reads */
}

static void bt_free(api_job_t *base) {
    bt_job_t *j = (bt_job_t *)base;
    if (j == NULL) return;
    for (size_t i = 0; j->chunks != NULL && i < j->nchunks; i++)
        bt_out_free(&j->chunks[i]);
    free(j->chunks);
    free(j->entries);
    free(j);
}

/* A chunk's answer for another server (see api_job_ops_t): "b1 <nodes>\n"
 * and its answer lines as they are.  The lines move out of this copy (the
 * copy that ran a chunk never sends it), so a server running chunks of a
 * large batch holds only those in flight. */
static char *bt_encode(api_job_t *base, size_t item, size_t *len, api_item_info_t *info) {
    bt_job_t *j = (bt_job_t *)base;
    bt_chunk_t *ch = &j->chunks[item];
    size_t first, end;
    char head[32];
    int hn = snprintf(head, sizeof head, "b1 %llu\n", (unsigned long long)ch->nodes);
    char *buf = ch->out != NULL ? malloc((size_t)hn + ch->len) : NULL;
    if (buf == NULL) return NULL;
    memcpy(buf, head, (size_t)hn);
    memcpy(buf + hn, ch->out, ch->len);
    *len = (size_t)hn + ch->len;
    bt_chunk_range(j, item, &first, &end);
    info->nodes = ch->nodes;
    info->units = end - first; /* progress counts lines */
    bt_out_free(ch);
    ch->len = 0;
    return buf;
}

static int bt_decode(api_job_t *base, size_t item, const char *bytes, size_t len) {
    bt_job_t *j = (bt_job_t *)base;
    const char *nl = memchr(bytes, '\n', len < 32 ? len : 32);
    char head[32], *end;
    if (item >= j->nchunks || nl == NULL || len < 4 || memcmp(bytes, "b1 ", 3) != 0) return -1;
    memcpy(head, bytes, (size_t)(nl - bytes));
    head[nl - bytes] = '\0';
    unsigned long long nodes = strtoull(head + 3, &end, 10);
    if (end == head + 3 || *end != '\0') return -1;
    size_t n = len - (size_t)(nl + 1 - bytes);
    char *out = malloc(n ? n : 1);
    if (out == NULL) return -1;
    memcpy(out, nl + 1, n);
    bt_chunk_t *ch = &j->chunks[item];
    bt_out_free(ch);
    ch->out = out; /* malloc'd: alloc stays NULL */
    ch->len = n;
    ch->nodes = nodes;
    return 0;
}

/* Loop thread: start no new chunk while the reader is a window behind. */
static int bt_hold(api_job_t *base) {
    bt_job_t *j = (bt_job_t *)base;
    return atomic_load(&j->unread) >= j->window;
}

static const api_job_ops_t bt_ops = {"sudoku", bt_run,    bt_merge,  bt_render, bt_free,
                                     1,        bt_finish, bt_encode, bt_decode, bt_hold};

/* === Entry point === */

typedef struct bt_in_s {
    long long max_solutions, threads, timeout_ms;
} bt_in_t;

static const char *const bt_media[] = {"text/plain", NULL};

static const api_opt_t bt_opts[] = {{.name = "max_solutions",
                                     .kind = API_OPT_INT,
                                     .in = API_IN_QUERY,
                                     .lo = 1,
                                     .hi = 2,
                                     .def = 1,
                                     .at = offsetof(bt_in_t, max_solutions)},
                                    {.name = "threads",
                                     .kind = API_OPT_INT,
                                     .in = API_IN_QUERY,
                                     .lo = 1,
                                     .hi = API_REQ_THREADS,
                                     .def = API_REQ_THREADS,
                                     .at = offsetof(bt_in_t, threads)},
                                    {.name = "timeout_ms",
                                     .kind = API_OPT_INT,
                                     .in = API_IN_QUERY,
                                     .lo = 1,
                                     .hi = API_REQ_TIMEOUT,
                                     .def = API_REQ_TIMEOUT,
                                     .at = offsetof(bt_in_t, timeout_ms)},
                                    {0}};

int api_sudoku_batch_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp) {
    api_problem_t p;
    bt_in_t in = {0};
    bt_job_t *j = NULL;
    size_t n;

    *job = NULL;
    api_problem_init(&p, API_EINVALID, "the query string has errors");
    api_opts_defaults(bt_opts, req, &in);
    if (api_opts_query(bt_opts, req, 0, 0, &in, &p) != 0) goto fail;
    if (req->content_type != NULL && !api_media_is(req->content_type, "text/plain") &&
        !api_media_is(req->content_type, "application/x-www-form-urlencoded")) {
        api_problem_init(
            &p, API_EMEDIA,
            "send text/plain: one puzzle per line, 81 characters, '.' or '0' for empty");
        goto fail;
    }
    n = bt_scan(req->body, req->body_len, NULL, req->max_batch_lines);
    if (n > req->max_batch_lines) {
        api_problem_init(&p, API_ETOOLARGE,
                         "the batch holds more than %zu puzzles (--max-batch-lines)",
                         req->max_batch_lines);
        goto fail;
    }
    if (n == 0) {
        api_problem_init(&p, API_EINVALID,
                         "the body holds no puzzle: one per line, '#' starts a comment");
        api_problem_add(&p, "body", "body", "no puzzle lines");
        goto fail;
    }

    j = calloc(1, sizeof *j);
    if (j == NULL) goto nomem;
    j->entries = malloc(n * sizeof *j->entries);
    if (j->entries == NULL) goto nomem;
    j->nentries = bt_scan(req->body, req->body_len, j->entries, n);
    j->max_solutions = (uint32_t)in.max_solutions;
    j->ndjson = api_accepts(req->accept, "application/x-ndjson");
    j->chunk_size = (n + (size_t)in.threads * 8 - 1) / ((size_t)in.threads * 8);
    if (j->chunk_size > API_BATCH_CHUNK_MAX) j->chunk_size = API_BATCH_CHUNK_MAX;
    j->nchunks = (n + j->chunk_size - 1) / j->chunk_size;
    j->chunks = calloc(j->nchunks, sizeof *j->chunks);
    if (j->chunks == NULL) goto nomem;
    for (size_t i = 0; i < j->nchunks; i++)
        atomic_init(&j->chunks[i].state, BT_PENDING);
    atomic_init(&j->finished, 0);
    atomic_init(&j->unread, 0);
    j->window =
        req->work_share != 0 && req->work_share / 4 < BT_WINDOW ? req->work_share / 4 : BT_WINDOW;
    j->base.progress_unit = "lines";
    j->base.progress_total = j->nentries;
    api_job_ready(&j->base, &bt_ops, j->nchunks, (unsigned)in.threads, in.timeout_ms, job);
    return 0;

nomem:
    bt_free(j ? &j->base : NULL);
    api_problem_init(&p, API_ENOMEM, "not enough memory for this batch");
fail:
    api_response_problem(resp, &p);
    return p.code;
}

const api_endpoint_t api_ep_sudoku_batch = {.method = "POST",
                                            .path = "/v1/sudoku/batch",
                                            .label = "sudoku",
                                            .media = bt_media,
                                            .opts = bt_opts,
                                            .prepare = api_sudoku_batch_prepare,
                                            .flags = API_EP_BATCH};
