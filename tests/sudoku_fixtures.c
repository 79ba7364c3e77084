/* sudoku_fixtures.c -- see sudoku_fixtures.h. */
#include "tests/sudoku_fixtures.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses n*n cells at s (fixture encoding); returns the end or NULL. */
static const char *parse_grid(const char *s, int n, uint8_t *out) {
    int i, nn = n * n;
    for (i = 0; i < nn; i++) {
        if (n > 35) {
            char *end;
            long v = strtol(s, &end, 10);
            if (end == s || v < 0 || v > n) return NULL;
            out[i] = (uint8_t)v;
            s = end;
            if (i + 1 < nn) {
                if (*s != ',') return NULL;
                s++;
            }
        } else {
            char c = *s++;
            int v = c == '.'                 ? 0
                    : (c >= '1' && c <= '9') ? c - '0'
                    : (c >= 'A' && c <= 'Z') ? c - 'A' + 10
                                             : -1;
            if (v < 0 || v > n) return NULL;
            out[i] = (uint8_t)v;
        }
    }
    return s;
}

void fixset_load(fixset_t *fs, int n) {
    const char *dir = getenv("SUDOKU_FIXTURES");
    FILE *f;
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0;
    memset(fs, 0, sizeof *fs);
    fs->n = n;
    snprintf(fs->path, sizeof fs->path, "%s/sudoku_%d.txt", dir ? dir : "tests/fixtures", n);
    f = fopen(fs->path, "r");
    ck_assert_msg(f != NULL, "cannot open %s (run from the repository root)", fs->path);
    while (getline(&line, &cap, f) > 0) {
        fix_t *fx;
        const char *s;
        char *end;
        lineno++;
        if (line[0] == '#' || line[0] == '\n') continue;
        ck_assert_msg(fs->nfix < FIX_MAX, "%s: too many lines", fs->path);
        fx = &fs->fix[fs->nfix++];
        fx->n = n;
        fx->line = lineno;
        fx->puzzle = calloc((size_t)n * n, 1);
        fx->solution = calloc((size_t)n * n, 1);
        ck_assert(fx->puzzle != NULL && fx->solution != NULL);
        s = parse_grid(line, n, fx->puzzle);
        ck_assert_msg(s != NULL && *s == ':', "%s:%d: bad puzzle", fs->path, lineno);
        fx->count = strtol(s + 1, &end, 10);
        ck_assert_msg(end != s + 1 && fx->count >= 0, "%s:%d: bad count", fs->path, lineno);
        if (*end == '+') {
            fx->at_least = 1;
            end++;
        }
        ck_assert_msg(*end == ':', "%s:%d: bad count", fs->path, lineno);
        s = end + 1;
        if (fx->count > 0) {
            s = parse_grid(s, n, fx->solution);
            ck_assert_msg(s != NULL, "%s:%d: bad solution", fs->path, lineno);
        }
        ck_assert_msg(*s == '\n' || *s == '\0', "%s:%d: trailing text", fs->path, lineno);
    }
    free(line);
    fclose(f);
    ck_assert_msg(fs->nfix >= 3, "%s: expected at least 3 puzzles", fs->path);
}

void fixset_free(fixset_t *fs) {
    int i;
    for (i = 0; i < fs->nfix; i++) {
        free(fs->fix[i].puzzle);
        free(fs->fix[i].solution);
    }
}
