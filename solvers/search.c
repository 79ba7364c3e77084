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
 * One constant table, as uv_err_name() and sqlite3_errstr() have: a code
 * added to a header without a line here reads as "SEARCH_UNKNOWN", and
 * tests/test_api.c checks that every defined code has its line. */
#include "solvers/search.h"

#include "solvers/killer/killer.h"
#include "solvers/nqueens/board.h"
#include "solvers/sudoku/logic.h"
#include "solvers/sudoku/model.h"
#include "solvers/sudoku/sudoku.h"
#include "solvers/xcover/xcover.h"

typedef struct search_code_s {
    int code;
    const char *name;
    const char *str;
} search_code_t;

#define SEARCH_CODE(c, s)                                                                          \
    { c, #c, s }

static const search_code_t search_codes[] = {
    SEARCH_CODE(SEARCH_OK, "ran to completion"),
    SEARCH_CODE(SEARCH_TIMEOUT, "the deadline passed"),
    SEARCH_CODE(SEARCH_CANCELLED, "the search was cancelled"),
    SEARCH_CODE(SEARCH_BUDGET, "the node budget or a memory cap ran out"),
    SEARCH_CODE(SEARCH_EINVAL, "the input breaks the solver's preconditions"),
    SEARCH_CODE(SEARCH_ENOMEM, "out of memory before the search"),
    SEARCH_CODE(SUDOKU_ECONFLICT, "two givens break a rule"),
    SEARCH_CODE(SUDOKU_ENOBOX, "the size has no default box"),
    SEARCH_CODE(SUDOKU_LOGIC_ECONTRA,
                "the candidates contradict (a cell or a digit has no place left)"),
    SEARCH_CODE(SUDOKU_EMETHOD, "the method cannot solve this variant"),
    SEARCH_CODE(SUDOKU_EREGION,
                "the regions are not connected regions of n cells covering the grid"),
    SEARCH_CODE(SUDOKU_EUNIT, "a unit lists too many cells, a cell twice, or a cell of no grid"),
    SEARCH_CODE(SUDOKU_ELAYOUT, "the grids repeat or do not fit the frame"),
    SEARCH_CODE(SUDOKU_EPAIR,
                "a pair is not two neighbouring cells of the grids, or is marked twice"),
    SEARCH_CODE(SUDOKU_EPARITY, "a parity mark is on no grid or is not even or odd"),
    SEARCH_CODE(XCOVER_EITEM, "an option names an unknown item"),
    SEARCH_CODE(XCOVER_EEMPTY, "an option has no item"),
    SEARCH_CODE(XCOVER_EDUP, "an option names the same item twice"),
    SEARCH_CODE(XCOVER_ELIMIT, "more items, options or entries than the limits allow"),
    SEARCH_CODE(XCOVER_ESPACE, "the split needs more room than given"),
    SEARCH_CODE(KILLER_ESYMBOLS, "the symbols are not n distinct values in range"),
    SEARCH_CODE(KILLER_EGIVEN_VALUE, "a given is out of range"),
    SEARCH_CODE(KILLER_ECELL_RANGE, "a cage cell is outside the grid"),
    SEARCH_CODE(KILLER_ECELL_DUP, "a cell is in two cages"),
    SEARCH_CODE(KILLER_ECAGE_EMPTY, "a cage has no cells"),
    SEARCH_CODE(KILLER_ECAGE_SIZE, "a cage has more cells than there are symbols"),
    SEARCH_CODE(KILLER_ESUM, "no set of distinct symbols of the cage's size has its sum"),
    SEARCH_CODE(KILLER_ETOTAL, "the cage sums do not add up to the grid's total"),
    SEARCH_CODE(KILLER_EGIVEN_RULE, "two givens repeat a value in a unit"),
    SEARCH_CODE(KILLER_EGIVEN_CAGE, "givens repeat a value in a cage or make its sum unreachable"),
    SEARCH_CODE(NQUEENS_ERANGE, "a placed column is outside the board"),
    SEARCH_CODE(NQUEENS_EATTACK, "two placed queens attack each other"),
    SEARCH_CODE(NQUEENS_ENOSPACE, "a caller buffer is too small"),
};

static const search_code_t *search_code_find(int code) {
    for (size_t i = 0; i < sizeof search_codes / sizeof search_codes[0]; i++)
        if (search_codes[i].code == code) return &search_codes[i];
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
