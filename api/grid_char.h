/* grid_char.h -- the characters of a grid written as one string, shared by
 * every endpoint that reads or writes one (Sudoku's string grids, Killer's,
 * the Sudoku batch lines): '.' or '0' for an empty cell, '1'-'9' for 1..9,
 * then 'A'-'Z' (or 'a'-'z' on input) for 10..35.  Header only: two small
 * pure functions. */
#ifndef PUZZLED_API_GRID_CHAR_H
#define PUZZLED_API_GRID_CHAR_H

#define API_GRID_EMPTY (-1) /* api_grid_char_value(): '.' or '0' */
#define API_GRID_BAD   (-2) /* api_grid_char_value(): not a grid character */

/* The value character ch stands for, 1..35, or API_GRID_EMPTY or
 * API_GRID_BAD.  Callers with fewer values check the range. */
static inline int api_grid_char_value(char ch) {
    if (ch == '.' || ch == '0') return API_GRID_EMPTY;
    if (ch >= '1' && ch <= '9') return ch - '0';
    if (ch >= 'A' && ch <= 'Z') return ch - 'A' + 10;
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 10;
    return API_GRID_BAD;
}

/* The character of value v, 0..35 (0 gives '0'), upper case. */
static inline char api_grid_value_char(long long v) {
    return v < 10 ? (char)('0' + v) : (char)('A' + v - 10);
}

#endif
