/* janko.h -- the janko.at Sudoku variants of ../shared/data/variants (one
 * JSON object a line: {"id", "problem", "solution", "source"}, the text of
 * SmilingWayne/puzzlekit-dataset) decoded into the request body of
 * docs/variants.md, so that a benchmark (bench_variants.c) and a client
 * (janko2json.c, the HTTP runs) send what a user would send.
 *
 * The dataset's encodings, worked out and checked against every solution
 * of the shared half (bench_variants.c refuses a decoding that its own
 * solution breaks):
 *   text          line 1 "ROWS COLS", then ROWS lines of COLS tokens:
 *                 '-' empty (and on the holes of overlapping grids), a
 *                 number a given; then what the variant adds.
 *   Jigsaw        ROWS more lines: the region id of each cell (janko's
 *                 "Chaos"; sizes 4 to 9, 5 and 7 included).  The 6x6 ones
 *                 from No. 652 on also have both diagonals, which the text
 *                 does not say: none of them is unique without, every
 *                 solution keeps them (the request says ["jigsaw", "x"]).
 *   Consecutive   ROWS more lines: per cell the white bars on its sides as
 *                 bits, 1 right, 2 down, 4 left, 8 up (both cells of a pair
 *                 carry it).  No boxes: rows and columns only (a Latin
 *                 square; the 9x9 ones break 3x3 boxes), and janko's rule
 *                 that neighbours without a bar are not consecutive.
 *   EvenOdd       'E' / 'O' in the grid: an empty even / odd cell.
 *   Samurai, Sohei, Windmill, Butterfly, Gattai8, Shogun, Sumo, Clueless1,
 *   Clueless2     the layout of that name (solvers/sudoku/model.c; Shogun
 *                 has eleven grids, three of them in the middle band,
 *                 whatever the README says).
 *   Skyscraper, Margin   four lines of clues before the grid: from the
 *                 top (a clue per column), the bottom, the left (a clue
 *                 per row), the right, '-' none.  A skyscraper clue
 *                 becomes a "skyscraper" constraint over its whole row or
 *                 column seen from that side; a margin clue a "sum" of the
 *                 first three cells from that side (janko's Randsummen).
 *                 The request has no "variant": a classic grid with
 *                 "constraints".
 *
 * Reading a line needs jansson; nothing else is shared with the server. */
#ifndef PUZZLED_BENCH_JANKO_H
#define PUZZLED_BENCH_JANKO_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

typedef struct janko_s {
    char id[128];
    char variant[24];  /* what the request's "variant" says */
    json_t *request;   /* the body: grid and variant fields (the caller adds options) */
    int rows, cols;    /* the frame */
    uint8_t *solution; /* rows*cols, 0 on holes */
} janko_t;

/* The variant a file holds, from its name ("JigsawSudoku.jsonl" ->
 * "jigsaw", "SamuraiSudoku.jsonl" -> "samurai"), or NULL when it is not a
 * janko file we decode; *why (may be NULL) then says why. */
const char *janko_file_variant(const char *path, const char **why);

/* Decodes one line of a file of `variant`.  Returns 0 and fills *out (free
 * with janko_free), or -1 with a sentence in err. */
int janko_decode(const char *variant, const char *line, janko_t *out, char *err, size_t cap);

void janko_free(janko_t *j);

/* The *Sudoku.jsonl files of dir, in name order, into names[max] (strdup'd:
 * free each); returns how many, or -1 when dir cannot be opened. */
int janko_list(const char *dir, char **names, int max);

/* The lines of a file (a last line without '\n' counts); 0 if unreadable. */
long janko_count_lines(const char *path);

#endif
