/* search.c -- names and sentences for every solver result code.
 *
 * Codes live in blocks so that one int can be read without knowing which
 * solver returned it (api/ codes have their own block, -100 and below, see
 * api/problem.h):
 *
 *     0           SEARCH_OK
 *    -1 ..  -15   SEARCH_*   (solvers/search.h)      every solver
 *   -16 ..  -31   SUDOKU_E*  (solvers/sudoku/sudoku.h)
 *   -32 ..  -47   XCOVER_E*  (solvers/xcover/xcover.h)
 *   -48 ..  -63   KILLER_E*  (solvers/killer/killer.h)
 *   -64 ..  -79   NQUEENS_E* (solvers/nqueens/board.h)
 *
 * Constant tables, as uv_err_name() and sqlite3_errstr() have: one per
 * block, each in the file that owns the codes (search_codes below for
 * SEARCH_*; killer_codes in solvers/killer/killer.c, ...), listed in
 * search_code_tables[] by the Makefile (build/gen/search_codes.c), so that
 * a new puzzle names its codes where it defines them.  A code without a
 * line reads as "SEARCH_UNKNOWN", and tools/check_codes.sh fails on one. */
#include "solvers/search.h"

#include <stddef.h>

/* The codes every solver shares; each puzzle's are in its own table
 * (killer_codes in killer.c, ...), and search_code_tables[] lists them all. */
const search_code_t search_codes[] = {
    SEARCH_CODE(SEARCH_OK, "ran to completion"),
    SEARCH_CODE(SEARCH_TIMEOUT, "the deadline passed"),
    SEARCH_CODE(SEARCH_CANCELLED, "the search was cancelled"),
    SEARCH_CODE(SEARCH_BUDGET, "the node budget or a memory cap ran out"),
    SEARCH_CODE(SEARCH_EINVAL, "the input breaks the solver's preconditions"),
    SEARCH_CODE(SEARCH_ENOMEM, "out of memory before the search"),
    SEARCH_CODE(SEARCH_TURN, "the turn's time ran out; it goes on from the caller's state"),
    {0, NULL, NULL}};

static const search_code_t *search_code_find(int code) {
    for (size_t t = 0; search_code_tables[t] != NULL; t++)
        for (const search_code_t *c = search_code_tables[t]; c->name != NULL; c++)
            if (c->code == code) return c;
    return NULL;
}

const char *search_code_name(int code) {
    const search_code_t *c = search_code_find(code);
    return c ? c->name : "SEARCH_UNKNOWN";
}

const char *search_code_str(int code) {
    const search_code_t *c = search_code_find(code);
    return c ? c->str : "unknown solver result code";
}
