/* sudoku_logic_api.c -- POST /v1/sudoku/grade and POST /v1/sudoku/hint: the
 * logic engine (solvers/sudoku/logic.h) over HTTP.
 *
 * Both read the puzzle with the solve endpoint's reader (api_sudoku_read:
 * JSON string or arrays, box, symbols; grade also text/plain and text/csv),
 * refuse N above API_LOGIC_MAX_N, and run as one pool item because both
 * start with a uniqueness check (the solver, max 2 solutions): grading and
 * hints presume exactly one solution, so none or several is a 422 that
 * says which: none is /problems/unprocessable ("The puzzle contradicts
 * itself"), several /problems/not-unique ("The puzzle has more than one
 * solution"), so that a client can tell them apart by type.
 *
 * grade: the engine from the givens to the end (trial and guess allowed,
 *   unique rectangles allowed), rating/level/hardest/histogram; with
 *   steps=true every step as JSON, built on the worker while the engine
 *   runs (the on_step callback).  The engine's final grid is compared with
 *   the solver's solution: a difference is a 500 (an engine bug), never an
 *   answer.
 * hint: grid = the player's grid, givens = the puzzle (absent: the grid is
 *   the puzzle).  In this order: entries that differ from the solution
 *   ("wrong", with pencil marks that leave out the solution's value); a
 *   full correct grid ("solved"); otherwise the engine's next step from the
 *   player's position (their pencil marks narrowing the candidates).
 *   Conflicting entries are not a 422 here when givens are given: they are
 *   wrong entries, and the answer says so.
 *
 * Explanations are written here (solvers/ has no stdio): one sentence per
 * step from the step's data, rows/columns/boxes numbered from 1, cells as
 * r4c5, values in the request's symbols. */
#include "api/sudoku_logic_api.h"

#include <jansson.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/json_util.h"
#include "api/sudoku_variant.h"
#include "solvers/sudoku/generate.h"

/* === Steps as JSON, and their sentences === */

/* Appends v (stolen) to arr; 0, or -1 when either is NULL or the append
 * fails.  Every JSON answer here is built through this and lg_set so that a
 * failed allocation makes the whole answer NULL (a 503), never a 200 with a
 * piece silently missing. */
static int lg_push(json_t *arr, json_t *v) {
    if (arr == NULL || v == NULL) {
        json_decref(v);
        return -1;
    }
    return json_array_append_new(arr, v) != 0 ? -1 : 0;
}

static int lg_set(json_t *obj, const char *key, json_t *v) {
    if (obj == NULL || v == NULL) {
        json_decref(v);
        return -1;
    }
    return json_object_set_new(obj, key, v) != 0 ? -1 : 0;
}

static json_t *lg_cell(const api_sudoku_puzzle_t *pz, int cell) {
    return json_pack("[i,i]", cell / pz->n, cell % pz->n);
}

static long long lg_sym(const api_sudoku_puzzle_t *pz, int d) { return pz->symbols[d - 1]; }

/* Appends printf-style text to buf[cap] at *len. */
static void lg_cat(char *buf, size_t cap, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void lg_cat(char *buf, size_t cap, size_t *len, const char *fmt, ...) {
    va_list ap;
    if (*len >= cap) return;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *len, cap - *len, fmt, ap);
    va_end(ap);
    if (k > 0) *len += (size_t)k < cap - *len ? (size_t)k : cap - *len - 1;
}

static void lg_unit(const api_sudoku_puzzle_t *pz, int u, char *out, size_t cap) {
    static const char *const kinds[] = {"row", "column", "box"};
    int n = pz->n;
    if (u < 0)
        snprintf(out, cap, "the grid");
    else
        snprintf(out, cap, "%s %d", kinds[u / n], u % n + 1);
}

/* Distinct cells of one kind of item, in order. */
static int lg_cells(const sudoku_logic_step_t *s, int kind, int *out, int cap) {
    int k = 0;
    for (int i = 0; i < s->nitems; i++) {
        if (s->items[i].kind != kind) continue;
        int c = s->items[i].cell, dup = 0;
        for (int j = 0; j < k; j++)
            if (out[j] == c) dup = 1;
        if (!dup && k < cap) out[k++] = c;
    }
    return k;
}

static void lg_cell_list(const api_sudoku_puzzle_t *pz, const int *cells, int k, char *buf,
                         size_t cap, size_t *len) {
    for (int i = 0; i < k; i++)
        lg_cat(buf, cap, len, "%sr%dc%d",
               i == 0       ? ""
               : i == k - 1 ? " and "
                            : ", ",
               cells[i] / pz->n + 1, cells[i] % pz->n + 1);
}

static void lg_digit_list(const api_sudoku_puzzle_t *pz, uint32_t digits, char *buf, size_t cap,
                          size_t *len) {
    int k = __builtin_popcount(digits), i = 0;
    for (int d = 1; d <= pz->n; d++)
        if (digits & (1u << (d - 1))) {
            lg_cat(buf, cap, len, "%s%lld",
                   i == 0       ? ""
                   : i == k - 1 ? " and "
                                : ", ",
                   lg_sym(pz, d));
            i++;
        }
}

/* The lines (rows or columns) of a fish's base and cover, 1-based lists. */
static void lg_lines(const api_sudoku_puzzle_t *pz, const int *cells, int k, int kind, char *buf,
                     size_t cap, size_t *len) {
    int seen[SUDOKU_LOGIC_MAX_N] = {0}, m = 0, total = 0;
    for (int i = 0; i < k; i++) {
        int x = kind == 0 ? cells[i] / pz->n : cells[i] % pz->n;
        if (!seen[x]) total++;
        seen[x] = 1;
    }
    for (int x = 0; x < pz->n; x++)
        if (seen[x]) {
            lg_cat(buf, cap, len, "%s%d", m == 0 ? "" : m == total - 1 ? " and " : ", ", x + 1);
            m++;
        }
}

/* A finned fish's sentence: the base lines, the cover (the base cells
 * that are not fins), the fins (CAND items), and "sashimi" when a base
 * line keeps one place or none without its fins. */
static void lg_finned(const api_sudoku_puzzle_t *pz, const sudoku_logic_step_t *s, char *buf,
                      size_t cap, size_t *len) {
    static const char *const fish[5] = {"", "", "x-wing", "swordfish", "jellyfish"};
    int cells[SUDOKU_LOGIC_STEP_ITEMS], fins[SUDOKU_LOGIC_STEP_ITEMS],
        body[SUDOKU_LOGIC_STEP_ITEMS];
    int n = pz->n, base = s->unit[0] / n, nc, nf, nb = 0, sashimi = 0;
    int keep[SUDOKU_LOGIC_MAX_N] = {0}, has[SUDOKU_LOGIC_MAX_N] = {0};
    long long d = lg_sym(pz, s->digit);
    const char *lines = base == 0 ? "rows" : "columns", *other = base == 0 ? "columns" : "rows";
    nc = lg_cells(s, SUDOKU_ITEM_CELL, cells, SUDOKU_LOGIC_STEP_ITEMS);
    nf = lg_cells(s, SUDOKU_ITEM_CAND, fins, SUDOKU_LOGIC_STEP_ITEMS);
    for (int i = 0; i < nc; i++) {
        int fin = 0, line = base == 0 ? cells[i] / n : cells[i] % n;
        for (int j = 0; j < nf; j++)
            fin |= fins[j] == cells[i];
        has[line] = 1;
        if (!fin) {
            body[nb++] = cells[i];
            keep[line]++;
        }
    }
    for (int x = 0; x < n; x++)
        sashimi |= has[x] && keep[x] <= 1;
    lg_cat(buf, cap, len, "In %s ", lines);
    lg_lines(pz, cells, nc, base, buf, cap, len);
    lg_cat(buf, cap, len, ", %lld can only go in %s ", d, other);
    lg_lines(pz, body, nb, 1 - base, buf, cap, len);
    lg_cat(buf, cap, len, " or in the fin%s ", nf > 1 ? "s" : "");
    lg_cell_list(pz, fins, nf, buf, cap, len);
    lg_cat(buf, cap, len,
           " (a %s%s): either a fin is %lld or the %s holds, so cells of those %s that see every "
           "fin lose %lld",
           sashimi ? "sashimi " : "finned ", fish[s->size <= 4 ? s->size : 0], d,
           fish[s->size <= 4 ? s->size : 0], other, d);
}

/* The chain's nodes with their links: 5r1c1 = 5r1c7 - 5r4c7 = 5r4c3. */
static void lg_chain(const api_sudoku_puzzle_t *pz, const sudoku_logic_step_t *s, char *buf,
                     size_t cap, size_t *len) {
    int k = 0;
    for (int i = 0; i < s->nitems; i++) {
        const sudoku_logic_item_t *it = &s->items[i];
        if (it->kind != SUDOKU_ITEM_CAND) continue;
        lg_cat(buf, cap, len, "%s%lldr%dc%d",
               k == 0    ? ""
               : (k % 2) ? " = "
                         : " - ",
               lg_sym(pz, it->value), it->cell / pz->n + 1, it->cell % pz->n + 1);
        k++;
    }
}

/* One node of a grouped chain: "6r3c4", or a group "6r45c4" (one row),
 * "6r4c78" (one column), "6{r4c7 r5c8}" otherwise. */
static void lg_group(const api_sudoku_puzzle_t *pz, const sudoku_logic_item_t *it, int k, char *buf,
                     size_t cap, size_t *len) {
    int n = pz->n, row = 1, col = 1;
    for (int i = 1; i < k; i++) {
        row &= it[i].cell / n == it[0].cell / n;
        col &= it[i].cell % n == it[0].cell % n;
    }
    lg_cat(buf, cap, len, "%lld", lg_sym(pz, it[0].value));
    if (k == 1 || row || col) {
        lg_cat(buf, cap, len, "r");
        for (int i = 0; i < (row ? 1 : k); i++)
            lg_cat(buf, cap, len, "%d", it[i].cell / n + 1);
        lg_cat(buf, cap, len, "c");
        for (int i = 0; i < (col ? 1 : k); i++)
            lg_cat(buf, cap, len, "%d", it[i].cell % n + 1);
        return;
    }
    for (int i = 0; i < k; i++)
        lg_cat(buf, cap, len, "%sr%dc%d", i ? " " : "{", it[i].cell / n + 1, it[i].cell % n + 1);
    lg_cat(buf, cap, len, "}");
}

/* A grouped chain (logic.h: a CELL item of value k before a group's k
 * CAND items), its ends first: "Either 6r3c4 or 6r6c3 is true (...)". */
static void lg_grouped(const api_sudoku_puzzle_t *pz, const sudoku_logic_step_t *s, char *buf,
                       size_t cap, size_t *len) {
    int start[SUDOKU_LOGIC_STEP_ITEMS], size[SUDOKU_LOGIC_STEP_ITEMS], nodes = 0;
    for (int i = 0; i < s->nitems; i++) {
        const sudoku_logic_item_t *it = &s->items[i];
        int k = 1;
        if (it->kind == SUDOKU_ITEM_CELL && it->value > 0) {
            k = it->value;
            i++;
        } else if (it->kind != SUDOKU_ITEM_CAND) {
            continue;
        }
        if (i + k > s->nitems) break;
        start[nodes] = i;
        size[nodes++] = k;
        i += k - 1;
    }
    if (nodes < 2) return;
    lg_cat(buf, cap, len, "Either ");
    lg_group(pz, &s->items[start[0]], size[0], buf, cap, len);
    lg_cat(buf, cap, len, " or ");
    lg_group(pz, &s->items[start[nodes - 1]], size[nodes - 1], buf, cap, len);
    lg_cat(buf, cap, len, " is true (");
    for (int j = 0; j < nodes; j++) {
        lg_cat(buf, cap, len, "%s", j == 0 ? "" : (j % 2) ? " = " : " - ");
        lg_group(pz, &s->items[start[j]], size[j], buf, cap, len);
    }
    lg_cat(buf, cap, len,
           "; a group is true when one of its cells is), so candidates that see "
           "both ends go");
}

/* Almost locked sets: the sets (parts[] of the CELL items), the
 * restricted common value(s) and what goes. */
static void lg_als(const api_sudoku_puzzle_t *pz, const sudoku_logic_step_t *s, const int *cells,
                   int nc, char *buf, size_t cap, size_t *len) {
    int at = 0, sets = s->tech == SUDOKU_TECH_ALS_XY_WING ? 3 : 2;
    lg_cat(buf, cap, len, "%s", sets == 3 ? "The almost locked sets " : "Cells ");
    for (int k = 0; k < sets; k++) {
        int m = s->parts[k];
        if (at + m > nc) m = nc - at;
        lg_cat(buf, cap, len, "%s{", k == 0 ? "" : k == sets - 1 ? " and " : ", ");
        lg_cell_list(pz, cells + at, m, buf, cap, len);
        lg_cat(buf, cap, len, "}");
        at += m;
    }
    if (sets == 2) {
        lg_cat(buf, cap, len,
               " are almost locked sets (one value more than cells); every place of ");
        lg_digit_list(pz, s->digits, buf, cap, len);
        lg_cat(buf, cap, len,
               " in one sees every place in the other, so one set at most holds it and the other "
               "is locked: cells that see every place of another value they share, in both, "
               "lose it");
    } else {
        lg_cat(buf, cap, len,
               ": the last (the pivot) shares a value with each of the others whose places all "
               "see each other (");
        lg_digit_list(pz, s->digits, buf, cap, len);
        lg_cat(buf, cap, len,
               "), so one of the first two sets is locked; cells that see every place of a value "
               "both of them hold lose it");
    }
}

/* Forcing chains: the branches (CAND items), and how each was followed. */
static void lg_forcing(const api_sudoku_puzzle_t *pz, const sudoku_logic_step_t *s, char *buf,
                       size_t cap, size_t *len) {
    int cells[SUDOKU_LOGIC_STEP_ITEMS],
        k = lg_cells(s, SUDOKU_ITEM_CAND, cells, SUDOKU_LOGIC_STEP_ITEMS);
    const char *by = s->size ? "singles, locked candidates and pairs" : "singles";
    char u[32];
    if (k == 0) return;
    if (s->unit[0] < 0) {
        uint32_t vals = 0;
        for (int i = 0; i < s->nitems; i++)
            if (s->items[i].kind == SUDOKU_ITEM_CAND) vals |= 1u << (s->items[i].value - 1);
        lg_cat(buf, cap, len, "r%dc%d holds one of ", cells[0] / pz->n + 1, cells[0] % pz->n + 1);
        lg_digit_list(pz, vals, buf, cap, len);
    } else {
        lg_unit(pz, s->unit[0], u, sizeof u);
        lg_cat(buf, cap, len, "%lld goes in one of ", lg_sym(pz, s->digit));
        lg_cell_list(pz, cells, k, buf, cap, len);
        lg_cat(buf, cap, len, " in %s", u);
    }
    lg_cat(buf, cap, len,
           ", and each followed by %s leads to the same placements and eliminations, so they "
           "hold whichever is true",
           by);
}

/* The sentence for step s (see the header).  One piece: one case and one
 * sentence per technique, read as a table; split up, the sentences of
 * related techniques would no longer stand side by side. */
void api_logic_explain(const api_sudoku_puzzle_t *pz, const sudoku_logic_step_t *s, char *buf,
                       size_t cap) {
    char u0[32], u1[32];
    int cells[SUDOKU_LOGIC_STEP_ITEMS], nc, n = pz->n;
    size_t len = 0;
    long long d = s->digit ? lg_sym(pz, s->digit) : 0;
    buf[0] = '\0';
    lg_unit(pz, s->unit[0], u0, sizeof u0);
    lg_unit(pz, s->unit[1], u1, sizeof u1);
    nc = lg_cells(s, SUDOKU_ITEM_CELL, cells, SUDOKU_LOGIC_STEP_ITEMS);
    switch ((sudoku_tech_t)s->tech) {
    case SUDOKU_TECH_FULL_HOUSE:
        lg_cat(buf, cap, &len, "r%dc%d is the last empty cell of %s, so it takes %lld",
               cells[0] / n + 1, cells[0] % n + 1, u0, d);
        break;
    case SUDOKU_TECH_NAKED_SINGLE:
        lg_cat(buf, cap, &len, "r%dc%d can only be %lld: every other value is ruled out",
               cells[0] / n + 1, cells[0] % n + 1, d);
        break;
    case SUDOKU_TECH_HIDDEN_SINGLE:
        lg_cat(buf, cap, &len, "In %s, %lld can only go in r%dc%d", u0, d, cells[0] / n + 1,
               cells[0] % n + 1);
        break;
    case SUDOKU_TECH_POINTING:
    case SUDOKU_TECH_CLAIMING:
        lg_cat(buf, cap, &len, "In %s, %lld can only go in %s, so %lld leaves the rest of %s", u0,
               d, u1, d, u1);
        break;
    case SUDOKU_TECH_NAKED_PAIR:
    case SUDOKU_TECH_NAKED_TRIPLE:
    case SUDOKU_TECH_NAKED_QUAD:
        lg_cell_list(pz, cells, nc, buf, cap, &len);
        lg_cat(buf, cap, &len, " hold only ");
        lg_digit_list(pz, s->digits, buf, cap, &len);
        lg_cat(buf, cap, &len, " between them, so those values leave the rest of %s", u0);
        break;
    case SUDOKU_TECH_HIDDEN_PAIR:
    case SUDOKU_TECH_HIDDEN_TRIPLE:
    case SUDOKU_TECH_HIDDEN_QUAD:
        lg_cat(buf, cap, &len, "In %s, ", u0);
        lg_digit_list(pz, s->digits, buf, cap, &len);
        lg_cat(buf, cap, &len, " can only go in ");
        lg_cell_list(pz, cells, nc, buf, cap, &len);
        lg_cat(buf, cap, &len, ", so those cells hold nothing else");
        break;
    case SUDOKU_TECH_X_WING:
    case SUDOKU_TECH_SWORDFISH:
    case SUDOKU_TECH_JELLYFISH: {
        int base = s->unit[0] / n; /* 0 rows, 1 columns */
        lg_cat(buf, cap, &len, "In %s ", base == 0 ? "rows" : "columns");
        lg_lines(pz, cells, nc, base, buf, cap, &len);
        lg_cat(buf, cap, &len, ", %lld can only go in %s ", d, base == 0 ? "columns" : "rows");
        lg_lines(pz, cells, nc, 1 - base, buf, cap, &len);
        lg_cat(buf, cap, &len, ", so %lld leaves the rest of those %s", d,
               base == 0 ? "columns" : "rows");
        break;
    }
    case SUDOKU_TECH_FINNED_X_WING:
    case SUDOKU_TECH_FINNED_SWORDFISH:
    case SUDOKU_TECH_FINNED_JELLYFISH: lg_finned(pz, s, buf, cap, &len); break;
    case SUDOKU_TECH_XY_WING:
        lg_cat(buf, cap, &len,
               "Whichever value r%dc%d takes, r%dc%d or r%dc%d is %lld, so cells that see both "
               "lose %lld",
               cells[0] / n + 1, cells[0] % n + 1, cells[1] / n + 1, cells[1] % n + 1,
               cells[2] / n + 1, cells[2] % n + 1, d, d);
        break;
    case SUDOKU_TECH_XYZ_WING:
        lg_cat(buf, cap, &len, "One of ");
        lg_cell_list(pz, cells, nc, buf, cap, &len);
        lg_cat(buf, cap, &len, " is %lld, so cells that see all three lose %lld", d, d);
        break;
    case SUDOKU_TECH_UNIQUE_RECTANGLE: {
        int odd = -1;
        for (int i = 0; i < s->nitems; i++)
            if (s->items[i].kind == SUDOKU_ITEM_ELIM) odd = s->items[i].cell;
        lg_cat(buf, cap, &len, "Three corners of ");
        lg_cell_list(pz, cells, nc, buf, cap, &len);
        lg_cat(buf, cap, &len, " hold only ");
        lg_digit_list(pz, s->digits, buf, cap, &len);
        lg_cat(buf, cap, &len,
               "; if r%dc%d held one of them too the two values could swap and the puzzle "
               "would have two solutions, so it does not",
               odd / n + 1, odd % n + 1);
        break;
    }
    case SUDOKU_TECH_BUG_PLUS_1:
        lg_cat(buf, cap, &len,
               "Every empty cell but r%dc%d has two candidates, and without %lld there every "
               "candidate would appear twice in each of its units: a pattern with no solution or "
               "several, so in a unique puzzle r%dc%d is %lld",
               cells[0] / n + 1, cells[0] % n + 1, d, cells[0] / n + 1, cells[0] % n + 1, d);
        break;
    case SUDOKU_TECH_SIMPLE_COLOURING:
        if (s->unit[0] == 0)
            lg_cat(buf, cap, &len,
                   "Colour the %llds linked in pairs: two cells of one colour see each other, so "
                   "that colour is false and its cells lose %lld",
                   d, d);
        else
            lg_cat(buf, cap, &len,
                   "Colour the %llds linked in pairs: one of the two colours is %lld, so cells "
                   "that see both colours lose %lld",
                   d, d, d);
        break;
    case SUDOKU_TECH_X_CHAIN:
    case SUDOKU_TECH_XY_CHAIN:
    case SUDOKU_TECH_AIC: {
        const sudoku_logic_item_t *a = NULL, *e = NULL;
        for (int i = 0; i < s->nitems; i++)
            if (s->items[i].kind == SUDOKU_ITEM_CAND) {
                if (a == NULL) a = &s->items[i];
                e = &s->items[i];
            }
        if (a == NULL) break;
        lg_cat(buf, cap, &len, "Either r%dc%d is %lld or r%dc%d is %lld (", a->cell / n + 1,
               a->cell % n + 1, lg_sym(pz, a->value), e->cell / n + 1, e->cell % n + 1,
               lg_sym(pz, e->value));
        lg_chain(pz, s, buf, cap, &len);
        lg_cat(buf, cap, &len, "), so candidates that see both go");
        break;
    }
    case SUDOKU_TECH_GROUPED_AIC: lg_grouped(pz, s, buf, cap, &len); break;
    case SUDOKU_TECH_ALS_XZ:
    case SUDOKU_TECH_ALS_XY_WING: lg_als(pz, s, cells, nc, buf, cap, &len); break;
    case SUDOKU_TECH_CELL_FORCING_CHAIN:
    case SUDOKU_TECH_UNIT_FORCING_CHAIN:
    case SUDOKU_TECH_DYNAMIC_FORCING_CHAIN: lg_forcing(pz, s, buf, cap, &len); break;
    case SUDOKU_TECH_TRIAL:
        lg_cat(buf, cap, &len,
               "If r%dc%d were %lld, %s would lead to a contradiction, so it is not %lld",
               cells[0] / n + 1, cells[0] % n + 1, d,
               s->size == 0 ? "singles" : "singles, locked candidates and pairs", d);
        break;
    case SUDOKU_TECH_NESTED_FORCING_CHAIN:
        lg_cat(buf, cap, &len,
               "If r%dc%d were %lld, then after singles, locked candidates and pairs, and every "
               "candidate that singles then refute, a contradiction would follow, so it is not "
               "%lld",
               cells[0] / n + 1, cells[0] % n + 1, d, d);
        break;
    case SUDOKU_TECH_GUESS:
        lg_cat(buf, cap, &len,
               "No technique here makes progress: r%dc%d is guessed as %lld, its value in the "
               "unique solution",
               cells[0] / n + 1, cells[0] % n + 1, d);
        break;
    default: lg_cat(buf, cap, &len, "%s", sudoku_tech_name((sudoku_tech_t)s->tech)); break;
    }
}

json_t *api_logic_step_json(const api_sudoku_puzzle_t *pz, const sudoku_logic_step_t *s) {
    char text[512];
    int cells[SUDOKU_LOGIC_STEP_ITEMS], nc;
    json_t *place = json_array(), *elim = json_array(), *jcells = json_array(),
           *cands = json_array();
    int bad = 0;
    for (int i = 0; i < s->nitems; i++) {
        const sudoku_logic_item_t *it = &s->items[i];
        if (it->kind == SUDOKU_ITEM_PLACE)
            bad |= lg_push(place, json_pack("{s:o, s:I}", "cell", lg_cell(pz, it->cell), "value",
                                            (json_int_t)lg_sym(pz, it->value)));
        else if (it->kind == SUDOKU_ITEM_CAND)
            bad |= lg_push(cands, json_pack("{s:o, s:I}", "cell", lg_cell(pz, it->cell), "value",
                                            (json_int_t)lg_sym(pz, it->value)));
    }
    /* eliminations grouped by cell, cells in first-seen order */
    nc = lg_cells(s, SUDOKU_ITEM_ELIM, cells, SUDOKU_LOGIC_STEP_ITEMS);
    for (int k = 0; k < nc; k++) {
        json_t *vals = json_array();
        for (int i = 0; i < s->nitems; i++)
            if (s->items[i].kind == SUDOKU_ITEM_ELIM && s->items[i].cell == cells[k])
                bad |= lg_push(vals, json_integer(lg_sym(pz, s->items[i].value)));
        bad |=
            lg_push(elim, json_pack("{s:o, s:o}", "cell", lg_cell(pz, cells[k]), "values", vals));
    }
    nc = lg_cells(s, SUDOKU_ITEM_CELL, cells, SUDOKU_LOGIC_STEP_ITEMS);
    for (int k = 0; k < nc; k++)
        bad |= lg_push(jcells, lg_cell(pz, cells[k]));
    api_logic_explain(pz, s, text, sizeof text);
    if (bad) {
        json_decref(place);
        json_decref(elim);
        json_decref(jcells);
        json_decref(cands);
        return NULL;
    }
    return json_pack("{s:s, s:o, s:o, s:o, s:o, s:s, s:b}", "technique",
                     sudoku_tech_name((sudoku_tech_t)s->tech), "placements", place, "eliminations",
                     elim, "cells", jcells, "candidates", cands, "explanation", text, "trial",
                     s->trial);
}

/* === The job === */

typedef struct lg_job_s {
    api_job_t base;
    int hint;                /* 0 grade, 1 hint */
    api_sudoku_puzzle_t *pz; /* the request (grid = the player's grid for hints) */
    int steps;               /* grade: return the path */
    json_t *givens_json;     /* hint: the request's givens, pencil (owned refs) */
    json_t *pencil_json;
    uint8_t *puzzle;  /* n*n: the puzzle (hint: the givens) */
    uint32_t *pencil; /* n*n masks, 0 = no marks for the cell */
    /* results, written by run() (one item), read by render() */
    int rc;
    int nsol;
    uint8_t *solution;
    sudoku_grade_t grade;
    json_t *path;   /* grade with steps */
    json_t *answer; /* hint */
    int bad_path;   /* the engine ended away from the solution */
    double solve_ms;
} lg_job_t;

/* Counts solutions up to 2; the first goes to sol.  Returns 0 or a
 * SEARCH_* stop code. */
static int lg_count(const sudoku_shape_t *sh, const uint8_t *grid, const search_ctl_t *ctl,
                    uint8_t *sol, int *nsol) {
    size_t nn = (size_t)sh->n * (size_t)sh->n;
    uint8_t *buf = malloc(2 * nn);
    int rc;
    if (buf == NULL) return SEARCH_ENOMEM;
    rc = sudoku_count2(sh, grid, ctl, buf, nsol);
    if (*nsol >= 1) memcpy(sol, buf, nn);
    free(buf);
    return rc;
}

static int lg_on_step(void *ud, const sudoku_logic_t *st, const sudoku_logic_step_t *step) {
    lg_job_t *j = ud;
    (void)st;
    json_t *js = api_logic_step_json(j->pz, step);
    if (js == NULL || json_array_append_new(j->path, js) != 0) return SEARCH_ENOMEM;
    return 0;
}

int api_logic_grade_run(sudoku_logic_t *st, const uint8_t *puzzle, const uint8_t *solution,
                        size_t cells, const search_ctl_t *ctl,
                        int (*on_step)(void *ud, const sudoku_logic_t *st,
                                       const sudoku_logic_step_t *step),
                        void *ud, sudoku_grade_t *g, int *bad_path) {
    sudoku_logic_opts_t o;
    int rc;
    uint8_t *end = malloc(cells);
    if (end == NULL) return SEARCH_ENOMEM;
    sudoku_logic_opts_init(&o);
    o.assume_unique = 1;
    o.solution = solution;
    o.ctl = ctl;
    o.on_step = on_step;
    o.ud = ud;
    rc = sudoku_logic_load(st, puzzle);
    if (rc == 0) rc = sudoku_logic_grade(st, &o, g);
    if (rc == 0) {
        sudoku_logic_grid(st, end);
        *bad_path = !g->solved || memcmp(end, solution, cells) != 0;
    } else if (rc == SUDOKU_LOGIC_ECONTRA || rc == SUDOKU_ECONFLICT) {
        *bad_path = 1;
        rc = 0;
    }
    free(end);
    return rc;
}

static int lg_run_grade(lg_job_t *j, sudoku_logic_t *st, const search_ctl_t *ctl) {
    if (j->steps && (j->path = json_array()) == NULL) return SEARCH_ENOMEM;
    return api_logic_grade_run(st, j->puzzle, j->solution, (size_t)j->pz->n * (size_t)j->pz->n, ctl,
                               j->steps ? lg_on_step : NULL, j, &j->grade, &j->bad_path);
}

static json_t *lg_step_json(const void *pz, const sudoku_logic_step_t *step) {
    return api_logic_step_json(pz, step);
}

static json_t *lg_cell_value(const api_sudoku_puzzle_t *pz, int cell, int d) {
    return json_pack("{s:o, s:I}", "cell", lg_cell(pz, cell), "value", (json_int_t)lg_sym(pz, d));
}

static int lg_run_hint(lg_job_t *j, sudoku_logic_t *st, const search_ctl_t *ctl) {
    const api_sudoku_puzzle_t *pz = j->pz;
    int nn = pz->n * pz->n, nwrong = 0, nmiss = 0, empty = 0, rc;
    json_t *wrong = json_array(), *miss = json_array();
    char text[256];
    int bad = wrong == NULL || miss == NULL;
    for (int c = 0; c < nn; c++) {
        int v = pz->grid[c], s = j->solution[c];
        if (v == 0) empty++;
        if (v != 0 && v != s) {
            bad |= lg_push(wrong, lg_cell_value(pz, c, v));
            if (nwrong++ == 0)
                snprintf(text, sizeof text, "r%dc%d does not hold %lld in the solution",
                         c / pz->n + 1, c % pz->n + 1, lg_sym(pz, v));
        }
        if (v == 0 && j->pencil[c] != 0 && !(j->pencil[c] & (1u << (s - 1)))) {
            bad |= lg_push(miss, lg_cell_value(pz, c, s));
            if (nwrong == 0 && nmiss == 0)
                snprintf(text, sizeof text, "the pencil marks of r%dc%d leave out its value",
                         c / pz->n + 1, c % pz->n + 1);
            nmiss++;
        }
    }
    if (bad) {
        json_decref(wrong);
        json_decref(miss);
        return SEARCH_ENOMEM;
    }
    if (nwrong + nmiss > 0) {
        if (nwrong > 1) snprintf(text, sizeof text, "%d entries do not match the solution", nwrong);
        j->answer = json_pack("{s:s, s:o, s:o, s:s}", "status", "wrong", "wrong", wrong, "pencil",
                              miss, "explanation", text);
        return j->answer ? 0 : SEARCH_ENOMEM;
    }
    json_decref(wrong);
    json_decref(miss);
    if (empty == 0) {
        j->answer = json_pack("{s:s}", "status", "solved");
        return j->answer ? 0 : SEARCH_ENOMEM;
    }
    if ((rc = sudoku_logic_load(st, pz->grid)) != 0) return SEARCH_EINVAL;
    for (int c = 0; c < nn; c++)
        if (pz->grid[c] == 0 && j->pencil[c] != 0 && sudoku_logic_restrict(st, c, j->pencil[c]))
            return SEARCH_EINVAL; /* cannot happen: the marks hold the solution's value */
    return api_logic_hint_step(st, j->solution, ctl, lg_step_json, pz, &j->answer, &j->bad_path);
}

int api_logic_hint_step(sudoku_logic_t *st, const uint8_t *solution, const search_ctl_t *ctl,
                        json_t *(*to_json)(const void *ud, const sudoku_logic_step_t *step),
                        const void *ud, json_t **answer, int *bad_path) {
    sudoku_logic_opts_t o;
    sudoku_logic_step_t *step = malloc(sizeof *step);
    int rc;
    if (step == NULL) return SEARCH_ENOMEM;
    sudoku_logic_opts_init(&o);
    o.assume_unique = 1;
    o.solution = solution;
    o.ctl = ctl;
    rc = sudoku_logic_next(st, &o, step, NULL);
    if (rc == 1) {
        *answer = json_pack("{s:s, s:o}", "status", "hint", "step", to_json(ud, step));
        rc = *answer ? 0 : SEARCH_ENOMEM;
    } else if (rc == 0 || rc == SUDOKU_LOGIC_ECONTRA) {
        *bad_path = 1; /* trial and guess always find a step from a true position */
        rc = 0;
    }
    free(step);
    return rc;
}

static int lg_run(api_job_t *job, size_t item, const search_ctl_t *ctl) {
    lg_job_t *j = (lg_job_t *)job;
    sudoku_logic_t *st;
    int rc;
    int64_t t0 = search_now_ns();
    (void)item;
    rc = lg_count(&j->pz->shape, j->puzzle, ctl, j->solution, &j->nsol);
    j->solve_ms = api_elapsed_ms(t0, search_now_ns());
    if (rc != 0 || j->nsol != 1) return rc;
    /* the engine's scratch through the control block's allocator: the
     * server's charges it to the work memory budget */
    if ((st = sudoku_logic_new_alloc(&j->pz->shape, search_allocator_of(NULL, ctl))) == NULL)
        return SEARCH_ENOMEM;
    rc = j->hint ? lg_run_hint(j, st, ctl) : lg_run_grade(j, st, ctl);
    sudoku_logic_free(st);
    return rc;
}

static int lg_merge(api_job_t *job, size_t item, int rc) {
    lg_job_t *j = (lg_job_t *)job;
    (void)item;
    j->rc = rc;
    job->nodes += j->grade.work;
    return API_JOB_STOP;
}

static void lg_problem(api_response_t *out, int code, const char *fmt, const char *arg) {
    api_problem_t p;
    api_problem_init(&p, code, fmt, arg);
    api_response_problem(out, &p);
}

int api_logic_failed(api_response_t *out, int rc, int nsol, int bad_path) {
    if (rc == SEARCH_ENOMEM)
        lg_problem(out, API_ENOMEM, "%s", "out of memory while grading");
    else if (rc != 0)
        lg_problem(out, API_EINTERNAL, "%s", "the puzzle could not be graded");
    else if (nsol == 0)
        lg_problem(out, API_EUNPROCESSABLE, "%s",
                   "the puzzle has no solution; grading and hints need exactly one");
    else if (nsol != 1)
        lg_problem(out, API_ENOTUNIQUE, "%s",
                   "the puzzle has more than one solution; grading and hints need exactly one");
    else if (bad_path)
        lg_problem(out, API_EINTERNAL, "%s", "the logic engine strayed from the solution (a bug)");
    else
        return 0;
    return 1;
}

static void lg_render(api_job_t *job, api_response_t *out) {
    lg_job_t *j = (lg_job_t *)job;
    const api_sudoku_puzzle_t *pz = j->pz;
    double ms = api_elapsed_ms(job->start_ns, search_now_ns());
    if (j->rc == SEARCH_TIMEOUT || j->rc == SEARCH_CANCELLED || j->rc == SEARCH_BUDGET) {
        api_response_json(out, 200,
                          json_pack("{s:s, s:i, s:o, s:{s:f}}", "status",
                                    j->rc == SEARCH_CANCELLED ? "cancelled" : "timeout", "n", pz->n,
                                    "box", api_sudoku_box_json(pz), "stats", "elapsed_ms", ms));
        return;
    }
    if (api_logic_failed(out, j->rc, j->nsol, j->bad_path)) return;
    if (j->hint) {
        json_t *a = j->answer;
        j->answer = NULL;
        api_response_json(out, 200, a);
        return;
    }
    const sudoku_grade_t *g = &j->grade;
    json_t *hist = json_object();
    int bad = hist == NULL;
    for (int t = 0; t < SUDOKU_TECH_COUNT && !bad; t++)
        if (g->counts[t])
            bad |= lg_set(hist, sudoku_tech_name((sudoku_tech_t)t), json_integer(g->counts[t]));
    if (bad) {
        json_decref(hist);
        hist = NULL; /* json_pack below then fails: a 503 */
    }
    json_t *root =
        json_pack("{s:s, s:i, s:o, s:f, s:s, s:s, s:o, s:i, s:b, s:s, s:{s:f, s:f, s:I}}", "status",
                  "graded", "n", pz->n, "box", api_sudoku_box_json(pz), "rating",
                  (double)(long long)(g->rating * 1000.0 + 0.5) / 1000.0, "level",
                  sudoku_grade_level_name(g->level), "hardest", sudoku_tech_name(g->hardest),
                  "techniques", hist, "steps_count", (int)g->steps, "solved_by_logic",
                  g->solved_by_logic, "signal", "techniques", "stats", "elapsed_ms", ms, "solve_ms",
                  j->solve_ms, "work", (json_int_t)g->work);
    if (root != NULL && j->path != NULL && lg_set(root, "steps", json_incref(j->path)) != 0) {
        json_decref(root);
        root = NULL;
    }
    api_response_json(out, 200, root);
}

static void lg_free(api_job_t *job) {
    lg_job_t *j = (lg_job_t *)job;
    if (j == NULL) return;
    json_decref(j->givens_json);
    json_decref(j->pencil_json);
    json_decref(j->path);
    json_decref(j->answer);
    free(j->pz);
    free(j->puzzle);
    free(j->pencil);
    free(j->solution);
    free(j);
}

static const api_job_ops_t lg_ops = {"sudoku", lg_run, lg_merge, lg_render, lg_free,
                                     0,        NULL,   NULL,     NULL,      NULL};

/* === Reading: the tables === */

/* hint's givens and pencil marks: kept (a reference) and read once the
 * grid is known (lg_read_givens, lg_read_pencil). */
static int lg_keep(const api_opt_t *o, const api_request_t *req, json_t *root, json_t *v, void *out,
                   api_problem_t *p) {
    api_sudoku_puzzle_t *pz = out;
    (void)req, (void)root, (void)p;
    if (strcmp(o->name, "givens") == 0)
        pz->givens = json_incref(v);
    else
        pz->pencil = json_incref(v);
    return 0;
}

static const char *const lg_grade_media[] = {"application/json", "text/plain", "text/csv", NULL};
static const char *const lg_hint_media[] = {"application/json", NULL};

/* Solve's options, which are no fields here: named as such. */
#define LG_SOLVE_ONLY(field)                                                                       \
    {                                                                                              \
        .name = field, .kind = API_OPT_ELSEWHERE, .in = API_IN_JSON,                               \
        .msg = "unknown field (a /v1/sudoku/solve option)"                                         \
    }
#define LG_SOLVE_ONLY_ROWS                                                                         \
    LG_SOLVE_ONLY("method"), LG_SOLVE_ONLY("propagation"), LG_SOLVE_ONLY("max_solutions"),         \
        LG_SOLVE_ONLY("threads"), LG_SOLVE_ONLY("trace")
#define LG_AT(f) offsetof(api_sudoku_puzzle_t, f)

/* grade: a JSON body in body order, or text and CSV with steps, box and
 * timeout_ms in the query. */
static const api_opt_t lg_grade_opts[] = {
    API_SUDOKU_PUZZLE_ROWS(API_IN_JSON),
    {.name = "timeout_ms",
     .kind = API_OPT_INT,
     .in = API_IN_QUERY | API_IN_JSON,
     .lo = 1,
     .hi = API_REQ_TIMEOUT,
     .def = API_REQ_TIMEOUT,
     .at = LG_AT(timeout_ms)},
    API_SUDOKU_BOX_ROW(API_IN_QUERY | API_IN_JSON),
    {.name = "steps",
     .kind = API_OPT_BOOL,
     .in = API_IN_QUERY | API_IN_JSON,
     .def = 0,
     .at = LG_AT(steps)},
    LG_SOLVE_ONLY_ROWS,
    API_SUDOKU_VARIANT_ROWS,
    {0},
};

/* hint: JSON only. */
static const api_opt_t lg_hint_opts[] = {
    API_SUDOKU_PUZZLE_ROWS(API_IN_JSON),
    API_SUDOKU_BOX_ROW(API_IN_JSON),
    {.name = "givens", .kind = API_OPT_DATA, .in = API_IN_JSON, .json = lg_keep},
    {.name = "pencil", .kind = API_OPT_DATA, .in = API_IN_JSON, .json = lg_keep},
    {.name = "timeout_ms",
     .kind = API_OPT_INT,
     .in = API_IN_JSON,
     .lo = 1,
     .hi = API_REQ_TIMEOUT,
     .def = API_REQ_TIMEOUT,
     .at = LG_AT(timeout_ms)},
    LG_SOLVE_ONLY_ROWS,
    API_SUDOKU_VARIANT_ROWS,
    {0}};

static lg_job_t *lg_new(int hint) {
    lg_job_t *j = calloc(1, sizeof *j);
    if (j == NULL) return NULL;
    j->hint = hint;
    j->pz = calloc(1, sizeof *j->pz);
    if (j->pz == NULL) {
        free(j);
        return NULL;
    }
    return j;
}

static int lg_limits(const lg_job_t *j, api_problem_t *p) {
    if (j->pz->n > API_LOGIC_MAX_N) {
        api_problem_init(p, API_EINVALID, "the request is not valid");
        api_problem_add(p, "body", "grid",
                        "the logic endpoints take grids up to %dx%d; this one is %dx%d",
                        API_LOGIC_MAX_N, API_LOGIC_MAX_N, j->pz->n, j->pz->n);
        return API_EINVALID;
    }
    return 0;
}

static int lg_alloc(lg_job_t *j, const api_request_t *req, api_problem_t *p) {
    size_t nn = (size_t)j->pz->n * (size_t)j->pz->n;
    j->puzzle = malloc(nn);
    j->solution = malloc(nn);
    j->pencil = calloc(nn, sizeof *j->pencil);
    if (j->puzzle == NULL || j->solution == NULL || j->pencil == NULL) {
        api_problem_init(p, API_ENOMEM, "out of memory");
        return API_ENOMEM;
    }
    memcpy(j->puzzle, j->pz->grid, nn);
    (void)req;
    return 0;
}

int api_sudoku_grade_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp) {
    api_problem_t p;
    lg_job_t *j;
    int rc;
    if (api_sudoku_variant_body(req))
        return api_endpoint_hand_over(&api_ep_sudoku_grade, req, job, resp);
    *job = NULL;
    j = lg_new(0);
    if (j == NULL) {
        api_problem_init(&p, API_ENOMEM, "out of memory");
        goto fail;
    }
    rc = api_sudoku_read(req, &api_ep_sudoku_grade, j->pz, &p);
    j->steps = j->pz->steps;
    if (rc != 0 || (rc = lg_limits(j, &p)) != 0 || (rc = lg_alloc(j, req, &p)) != 0) goto fail;
    api_job_ready(&j->base, &lg_ops, 1, 1, j->pz->timeout_ms, job);
    return 0;
fail:
    lg_free(j ? &j->base : NULL);
    api_response_problem(resp, &p);
    return p.code;
}

/* Renames field errors "grid..." to "givens..." (the givens are read as a
 * grid of their own). */
static void lg_rename(api_problem_t *p) {
    for (size_t i = 0; i < p->nerrors; i++)
        if (strncmp(p->errors[i].field, "grid", 4) == 0) {
            char f[64];
            snprintf(f, sizeof f, "givens%s", p->errors[i].field + 4);
            snprintf(p->errors[i].field, sizeof p->errors[i].field, "%s", f);
        }
}

/* The givens: read like a grid with the request's box and symbols. */
static int lg_read_givens(lg_job_t *j, api_problem_t *p) {
    api_sudoku_puzzle_t *pz = j->pz, *g = calloc(1, sizeof *g);
    json_t *body = json_object(), *syms = NULL;
    api_request_t sub;
    int rc = API_ENOMEM, nn = pz->n * pz->n;
    char *text = NULL;
    if (g == NULL || body == NULL) goto out;
    if (lg_set(body, "grid", json_incref(j->givens_json)) != 0) goto out;
    if (pz->box_rows &&
        lg_set(body, "box", json_pack("{s:i, s:i}", "rows", pz->box_rows, "cols", pz->box_cols)))
        goto out;
    if (pz->nsymbols) {
        int bad = (syms = json_array()) == NULL;
        for (int k = 0; k < pz->nsymbols && !bad; k++)
            bad |= lg_push(syms, json_integer(pz->symbols[k]));
        if (bad) {
            json_decref(syms);
            goto out;
        }
        if (lg_set(body, "symbols", syms) != 0) goto out;
    }
    if ((text = api_json_dumps(body, JSON_COMPACT, NULL)) == NULL) goto out;
    memset(&sub, 0, sizeof sub);
    sub.method = "POST";
    sub.path = "/v1/sudoku/hint";
    sub.body = text;
    sub.body_len = strlen(text);
    sub.content_type = "application/json";
    sub.max_timeout_ms = 1;
    rc = api_sudoku_read(&sub, NULL, g, p);
    if (rc != 0) {
        lg_rename(p);
        goto out;
    }
    if (g->n != pz->n) {
        api_problem_init(p, API_EINVALID, "the request is not valid");
        api_problem_add(p, "body", "givens", "must be %dx%d like grid, got %dx%d", pz->n, pz->n,
                        g->n, g->n);
        rc = API_EINVALID;
        goto out;
    }
    api_problem_init(p, API_EINVALID, "the grid must keep every given");
    for (int c = 0; c < nn; c++)
        if (g->grid[c] && pz->grid[c] != g->grid[c]) {
            char f[32];
            snprintf(f, sizeof f, "grid[%d][%d]", c / pz->n, c % pz->n);
            api_problem_add(p, "body", f, "the given %lld is missing or changed",
                            pz->symbols[g->grid[c] - 1]);
        }
    rc = p->nerrors ? API_EINVALID : 0;
    if (rc == 0) memcpy(j->puzzle, g->grid, (size_t)nn);
out:
    if (rc == API_ENOMEM) api_problem_init(p, API_ENOMEM, "out of memory");
    free(text);
    json_decref(body);
    free(g);
    return rc;
}

int api_logic_read_pencil(json_t *pencil, int rows, int cols, int n, const uint8_t *grid,
                          const uint8_t *live, const long long *symbols, uint32_t *marks,
                          api_problem_t *p) {
    json_t *item;
    size_t i;
    if (!json_is_array(pencil) || json_array_size(pencil) > (size_t)rows * (size_t)cols) {
        api_problem_add(p, "body", "pencil",
                        "must be an array of at most %d {\"cell\": [r, c], \"values\": [...]}",
                        rows * cols);
        return API_EINVALID;
    }
    json_array_foreach(pencil, i, item) {
        char f[80];
        json_t *cell = json_object_get(item, "cell"), *vals = json_object_get(item, "values");
        size_t k;
        json_t *v;
        snprintf(f, sizeof f, "pencil[%zu]", i);
        if (!json_is_object(item) || json_object_size(item) != 2 || !json_is_array(cell) ||
            json_array_size(cell) != 2 || !json_is_array(vals)) {
            api_problem_add(p, "body", f, "must be {\"cell\": [r, c], \"values\": [...]}");
            continue;
        }
        json_int_t r = json_integer_value(json_array_get(cell, 0));
        json_int_t c = json_integer_value(json_array_get(cell, 1));
        if (!json_is_integer(json_array_get(cell, 0)) ||
            !json_is_integer(json_array_get(cell, 1)) || r < 0 || c < 0 || r >= rows || c >= cols ||
            (live != NULL && !live[r * cols + c])) {
            snprintf(f, sizeof f, "pencil[%zu].cell", i);
            api_problem_add(p, "body", f,
                            "must be [row, col] of a cell of the %dx%d grid (0-based)", rows, cols);
            continue;
        }
        int cc = (int)(r * cols + c);
        if (grid[cc] != 0 || marks[cc] != 0) {
            snprintf(f, sizeof f, "pencil[%zu].cell", i);
            api_problem_add(p, "body", f, "%s",
                            grid[cc] ? "marks a filled cell" : "marks a cell already marked");
            continue;
        }
        uint32_t mask = 0;
        json_array_foreach(vals, k, v) {
            int d = 0;
            for (int s = 0; s < n && json_is_integer(v); s++)
                if ((symbols != NULL ? symbols[s] : s + 1) == json_integer_value(v)) d = s + 1;
            if (d == 0) {
                snprintf(f, sizeof f, "pencil[%zu].values[%zu]", i, k);
                api_problem_add(p, "body", f, "must be one of the symbols");
                continue;
            }
            mask |= 1u << (d - 1);
        }
        /* no marks at all is a player's mistake (the value is missing), not a
         * malformed request: keep it as an impossible mask */
        marks[cc] = mask ? mask : 0x80000000u;
    }
    return p->nerrors ? API_EINVALID : 0;
}

static int lg_read_pencil(lg_job_t *j, api_problem_t *p) {
    const api_sudoku_puzzle_t *pz = j->pz;
    api_problem_init(p, API_EINVALID, "the request is not valid");
    return api_logic_read_pencil(j->pencil_json, pz->n, pz->n, pz->n, pz->grid, NULL, pz->symbols,
                                 j->pencil, p);
}

int api_sudoku_hint_prepare(const api_request_t *req, api_job_t **job, api_response_t *resp) {
    api_problem_t p;
    lg_job_t *j;
    int rc;
    if (api_sudoku_variant_body(req))
        return api_endpoint_hand_over(&api_ep_sudoku_hint, req, job, resp);
    *job = NULL;
    j = lg_new(1);
    if (j == NULL) {
        api_problem_init(&p, API_ENOMEM, "out of memory");
        goto fail;
    }
    if (!api_json_content_type(req)) {
        api_problem_init(&p, API_EMEDIA, "send application/json");
        api_problem_add(&p, "header", "Content-Type", "hints take JSON only, got '%.60s'",
                        req->content_type);
        goto fail;
    }
    rc = api_sudoku_read(req, &api_ep_sudoku_hint, j->pz, &p);
    j->givens_json = j->pz->givens; /* the job holds the references from here */
    j->pencil_json = j->pz->pencil;
    j->pz->givens = j->pz->pencil = NULL;
    /* with givens, entries that clash are wrong entries: the answer says so */
    if (rc == API_EUNPROCESSABLE && j->givens_json != NULL) rc = 0;
    if (rc != 0 || (rc = lg_limits(j, &p)) != 0 || (rc = lg_alloc(j, req, &p)) != 0) goto fail;
    if (j->givens_json != NULL && (rc = lg_read_givens(j, &p)) != 0) goto fail;
    if (j->pencil_json != NULL && (rc = lg_read_pencil(j, &p)) != 0) goto fail;
    api_job_ready(&j->base, &lg_ops, 1, 1, j->pz->timeout_ms, job);
    return 0;
fail:
    lg_free(j ? &j->base : NULL);
    api_response_problem(resp, &p);
    return p.code;
}

const api_endpoint_t api_ep_sudoku_grade = {.method = "POST",
                                            .path = "/v1/sudoku/grade",
                                            .label = "sudoku",
                                            .media = lg_grade_media,
                                            .opts = lg_grade_opts,
                                            .prepare = api_sudoku_grade_prepare};

const api_endpoint_t api_ep_sudoku_hint = {.method = "POST",
                                           .path = "/v1/sudoku/hint",
                                           .label = "sudoku",
                                           .media = lg_hint_media,
                                           .opts = lg_hint_opts,
                                           .prepare = api_sudoku_hint_prepare};
