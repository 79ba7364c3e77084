/* killer/derive.h -- the sum equations of a Killer: its cages, and what the
 * 45 rule derives from them (killer/derive.c).  Internal to solvers/.
 *
 * An equation is a set of cells and a sum: sum(value(cell)) == sum, where
 * a cell marked `neg` enters mirrored, as n + 1 - value (symbols 1..n only),
 * so that "a - b = d" is still a plain sum: a + (n + 1 - b) = d + n + 1.
 * The set is written as cells[off .. off + k) and neg[off .. off + k) of the
 * caller's arrays.  Equations 0 .. ncages-1 are the cages in order (cage
 * i == equation i); derived ones follow, with cage -1. */
#ifndef PUZZLED_KILLER_DERIVE_H
#define PUZZLED_KILLER_DERIVE_H

#include <stddef.h>
#include <stdint.h>

#include "solvers/killer/internal.h"

#define KILLER__DERIVED_MAX 10 /* largest innie / outie set kept as an equation */
#define KILLER__MIXED_MAX   5  /* largest mixed innie/outie set kept */

typedef struct killer__eq_s {
    long sum;
    uint32_t off;   /* into the cells / neg arrays */
    int16_t cage;   /* cage index, or -1: derived */
    uint8_t k;      /* cells, 1..KILLER_MAX_N for a cage, <= KILLER__DERIVED_MAX derived */
    uint8_t mirror; /* some cell enters mirrored */
} killer__eq_t;

/* The caller's arrays, sized by killer__derive_size(); killer__derive()
 * fills them and sets neq / ncells. */
typedef struct killer__eqs_s {
    killer__eq_t *eq;
    uint16_t *cells;
    uint8_t *neg;
    uint32_t neq, ncells;
} killer__eqs_t;

/* Capacities for pz: equations, cells over all equations, and the bytes of
 * scratch killer__derive() needs. */
void killer__derive_size(const killer_puzzle_t *pz, uint32_t *maxeqs, uint32_t *maxcells,
                         size_t *scratch);

/* Writes the cages and then, if rule45 is nonzero, every derived equation
 * of the model into out (capacities from killer__derive_size(pz) for m's
 * puzzle), using scratch (that many bytes, 16-byte aligned; its contents
 * on return are unspecified).  Duplicates are dropped: the same signed
 * cell set twice, or once negated (the same equation); a derived set
 * equal to a cage.  Cannot fail.  Returns the number of derived
 * equations. */
uint32_t killer__derive(const killer__model_t *m, killer__eqs_t *out, void *scratch, int rule45);

#endif
