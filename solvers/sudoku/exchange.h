/* sudoku/exchange.h -- what the members of a cdcl portfolio share while
 * they run on different threads: the solutions found so far, and short
 * learned clauses.
 *
 * A portfolio is k solves of one puzzle with the cdcl method, options
 * identical but opts->variant = 0..k-1 (the member's index) and
 * opts->exchange pointing at one exchange.  Each member imports what the
 * others found at its restarts; the first to answer (every member answers
 * the same thing: the same solutions, in the same order) can cancel the
 * others.  Without an exchange a member searches alone.
 *
 * The caller owns the memory: sudoku_exchange_bytes() bytes, any alignment
 * malloc gives, kept alive and untouched until every member has returned.
 * Thread-safety: the point of it; members synchronise through atomics and
 * two kinds of short spinlocked sections (see exchange.c).  Solutions (n*n
 * bytes each) are kept for max_solutions; clauses in a ring per member,
 * the oldest overwritten when a reader falls behind (a lost clause only
 * costs speed). */
#ifndef PUZZLED_SUDOKU_EXCHANGE_H
#define PUZZLED_SUDOKU_EXCHANGE_H

#include <stddef.h>
#include <stdint.h>

typedef struct sudoku_exchange_s sudoku_exchange_t;

#define SUDOKU_EXCHANGE_MAX_MEMBERS 16

/* Bytes for an exchange between `members` (1..SUDOKU_EXCHANGE_MAX_MEMBERS)
 * solves of an n x n puzzle asking for max_solutions; 0 when an argument is
 * out of range. */
size_t sudoku_exchange_bytes(int n, unsigned members, uint32_t max_solutions);

/* Lays an empty exchange out in mem (at least sudoku_exchange_bytes()
 * bytes, as malloc aligns) and returns it (= mem); NULL when an argument
 * is out of range. */
sudoku_exchange_t *sudoku_exchange_init(void *mem, int n, unsigned members, uint32_t max_solutions);

/* === Internal: used by sudoku/cdcl.c ==================================== */

#define SUDOKU__XC_WORDS 16 /* a clause record: header, epoch, up to 14 literals */
#define SUDOKU__XC_LITS  (SUDOKU__XC_WORDS - 2)
#define SUDOKU__XC_SLOTS 1024 /* records in each member's ring */

/* Appends nrec records (SUDOKU__XC_WORDS words each) to member's ring. */
void sudoku__xc_publish(sudoku_exchange_t *x, unsigned member, const uint32_t *rec, uint32_t nrec);

/* Copies up to max records that member `from` published after *tail into
 * out, advancing *tail (records overwritten before they were read are
 * skipped).  Returns how many. */
uint32_t sudoku__xc_collect(sudoku_exchange_t *x, unsigned from, uint64_t *tail, uint32_t *out,
                            uint32_t max);

/* Offers a solution: returns 1 and its index (the entries before it are
 * all published) if it is new, 0 and the index of the equal entry if it is
 * known, -1 when the list is full (max_solutions entries). */
int sudoku__xc_add_solution(sudoku_exchange_t *x, const uint8_t *grid, uint32_t *index);

/* Entries published (each a distinct solution; entries never change). */
uint32_t sudoku__xc_count(sudoku_exchange_t *x);
const uint8_t *sudoku__xc_solution(const sudoku_exchange_t *x, uint32_t i);

/* What the exchange was laid out for. */
unsigned sudoku__xc_members(const sudoku_exchange_t *x);
int sudoku__xc_n(const sudoku_exchange_t *x);
uint32_t sudoku__xc_capacity(const sudoku_exchange_t *x);

#endif
