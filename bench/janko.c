/* janko.c -- janko.at variant lines into request bodies (janko.h has the
 * encodings).
 *
 * A line is parsed with jansson; its "problem" text is split into lines
 * of whitespace-separated tokens.  The grid becomes rows arrays of
 * integers with null for an empty cell (and for the holes of a layout);
 * each variant adds its fields.  Every shape check fails the line with a
 * sentence rather than guessing. */
#include "bench/janko.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JK_MAX_SIDE 64

static const struct {
    const char *file;    /* the name's start */
    const char *variant; /* what it becomes */
} files[] = {
    {"JigsawSudoku", "jigsaw"},         {"ConsecutiveSudoku", "consecutive"},
    {"EvenOddSudoku", "even-odd"},      {"SamuraiSudoku", "samurai"},
    {"SoheiSudoku", "sohei"},           {"WindmillSudoku", "windmill"},
    {"ButterflySudoku", "butterfly"},   {"Gattai8Sudoku", "gattai-8"},
    {"ShogunSudoku", "shogun"},         {"SumoSudoku", "sumo"},
    {"Clueless1Sudoku", "clueless-1"},  {"Clueless2Sudoku", "clueless-2"},
    {"SkyscraperSudoku", "skyscraper"}, {"MarginSudoku", "margin"},
};

const char *janko_file_variant(const char *path, const char **why) {
    const char *base = strrchr(path, '/');
    base = base != NULL ? base + 1 : path;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t k = strlen(files[i].file);
        if (strncmp(base, files[i].file, k) == 0 && strcmp(base + k, ".jsonl") == 0)
            return files[i].variant;
    }
    if (why != NULL) *why = "not a janko variant this decoder knows";
    return NULL;
}

/* The problem or solution text as lines of tokens. */
typedef struct text_s {
    int nlines;
    char *buf;
    char *line[4 * JK_MAX_SIDE + 8];
} text_t;

static int text_split(const char *s, text_t *t) {
    char *p;
    t->nlines = 0;
    t->buf = strdup(s);
    if (t->buf == NULL) return -1;
    for (p = t->buf; p != NULL && *p != '\0';) {
        char *nl = strchr(p, '\n');
        if (nl != NULL) *nl = '\0';
        if (*p != '\0') {
            if (t->nlines == (int)(sizeof t->line / sizeof t->line[0])) return -1;
            t->line[t->nlines++] = p;
        }
        p = nl != NULL ? nl + 1 : NULL;
    }
    return 0;
}

/* Splits line k into exactly want tokens into tok[]; -1 otherwise. */
static int tokens(text_t *t, int k, char **tok, int want) {
    int n = 0;
    char *save = NULL, *s;
    if (k >= t->nlines) return -1;
    for (s = strtok_r(t->line[k], " \t\r", &save); s != NULL; s = strtok_r(NULL, " \t\r", &save)) {
        if (n == want) return -1;
        tok[n++] = s;
    }
    return n == want ? 0 : -1;
}

static int header(text_t *t, int *rows, int *cols) {
    char *tok[2];
    if (tokens(t, 0, tok, 2) != 0) return -1;
    *rows = atoi(tok[0]);
    *cols = atoi(tok[1]);
    return *rows >= 4 && *cols >= 4 && *rows <= JK_MAX_SIDE && *cols <= JK_MAX_SIDE ? 0 : -1;
}

/* A token as a value: 0 for '-', the number, or -1. */
static int value_of(const char *s) {
    char *end;
    long x;
    if (strcmp(s, "-") == 0) return 0;
    x = strtol(s, &end, 10);
    return *end == '\0' && x >= 1 && x <= 64 ? (int)x : -1;
}

static int fail(char *err, size_t cap, const char *what) {
    snprintf(err, cap, "%s", what);
    return -1;
}

/* The jigsaw regions: rows more lines of ids. */
static int add_regions(janko_t *j, text_t *t, char *err, size_t cap) {
    json_t *rows = json_array();
    char *tok[JK_MAX_SIDE];
    for (int r = 0; r < j->rows; r++) {
        json_t *row = json_array();
        if (tokens(t, 1 + j->rows + r, tok, j->cols) != 0) {
            json_decref(row);
            json_decref(rows);
            return fail(err, cap, "region lines do not match the grid");
        }
        for (int c = 0; c < j->cols; c++)
            json_array_append_new(row, json_integer(atoi(tok[c])));
        json_array_append_new(rows, row);
    }
    json_object_set_new(j->request, "regions", rows);
    return 0;
}

/* The consecutive bars: per cell 1 right, 2 down, 4 left, 8 up; each pair
 * once (from its left or upper cell), checked against the other side. */
static int add_bars(janko_t *j, text_t *t, char *err, size_t cap) {
    int R = j->rows, C = j->cols, *bits = calloc((size_t)R * C, sizeof *bits);
    json_t *pairs = json_array();
    char *tok[JK_MAX_SIDE];
    if (bits == NULL || pairs == NULL) {
        free(bits);
        json_decref(pairs);
        return fail(err, cap, "out of memory");
    }
    for (int r = 0; r < R; r++) {
        if (tokens(t, 1 + R + r, tok, C) != 0) {
            free(bits);
            json_decref(pairs);
            return fail(err, cap, "bar lines do not match the grid");
        }
        for (int c = 0; c < C; c++)
            bits[r * C + c] = atoi(tok[c]);
    }
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            int b = bits[r * C + c];
            int right = c + 1 < C && (bits[r * C + c + 1] & 4),
                down = r + 1 < R && (bits[(r + 1) * C + c] & 8);
            if (((b & 1) != 0) != (right != 0) || ((b & 2) != 0) != (down != 0)) {
                free(bits);
                json_decref(pairs);
                return fail(err, cap, "a bar is marked on one side of a pair only");
            }
            if (b & 1) json_array_append_new(pairs, json_pack("[[i,i],[i,i]]", r, c, r, c + 1));
            if (b & 2) json_array_append_new(pairs, json_pack("[[i,i],[i,i]]", r, c, r + 1, c));
        }
    free(bits);
    json_object_set_new(j->request, "pairs", pairs);
    /* no boxes: a Latin square (janko's Konsekutiv puzzles break boxes) */
    json_object_set_new(j->request, "box", json_pack("{s:i,s:i}", "rows", 1, "cols", C));
    return 0;
}

/* The four clue lines before the grid of a Skyscraper or Margin puzzle:
 * from the top (one per column, left to right), the bottom, the left (one
 * per row, top to bottom), the right; '-' for no clue.  Each becomes a
 * constraint: a skyscraper clue sees the whole row or column from its
 * side, a margin sum adds the first three cells from its side. */
static int add_outside(janko_t *j, text_t *t, int sky, char *err, size_t cap) {
    static const char *const sides[] = {"top", "bottom", "left", "right"};
    json_t *list = json_array();
    char *tok[JK_MAX_SIDE];
    int n = j->rows;
    if (list == NULL) return fail(err, cap, "out of memory");
    if (j->rows != j->cols) {
        json_decref(list);
        return fail(err, cap, "outside clues need a square grid");
    }
    for (int s = 0; s < 4; s++) {
        if (tokens(t, 1 + s, tok, n) != 0) {
            json_decref(list);
            return fail(err, cap, "the four clue lines do not match the grid");
        }
        for (int i = 0; i < n; i++) {
            int v = strcmp(tok[i], "-") == 0 ? 0 : atoi(tok[i]), len = sky ? n : 3;
            json_t *cells = json_array(), *c;
            if (v <= 0) {
                json_decref(cells);
                continue;
            }
            for (int k = 0; k < len; k++) {
                int r = s == 0   ? k
                        : s == 1 ? n - 1 - k
                                 : i,
                    col = s < 2    ? i
                          : s == 2 ? k
                                   : n - 1 - k;
                json_array_append_new(cells, json_pack("[i,i]", r, col));
            }
            c = sky ? json_pack("{s:s,s:s,s:i,s:o}", "type", "skyscraper", "side", sides[s],
                                "visible", v, "cells", cells)
                    : json_pack("{s:s,s:i,s:o}", "type", "sum", "sum", v, "cells", cells);
            json_array_append_new(list, c);
        }
    }
    json_object_set_new(j->request, "constraints", list);
    return 0;
}

/* The grid (and the parity marks of an even-odd puzzle), from text line
 * `first` on. */
static int read_grid(janko_t *j, text_t *t, int first, int evenodd, char *err, size_t cap) {
    json_t *grid = json_array();
    char *tok[JK_MAX_SIDE], *parity = NULL;
    if (evenodd) parity = calloc((size_t)j->rows * j->cols + 1, 1);
    if (grid == NULL || (evenodd && parity == NULL)) {
        json_decref(grid);
        return fail(err, cap, "out of memory");
    }
    for (int r = 0; r < j->rows; r++) {
        json_t *row = json_array();
        if (tokens(t, first + r, tok, j->cols) != 0) {
            json_decref(row);
            json_decref(grid);
            free(parity);
            return fail(err, cap, "grid lines do not match the header");
        }
        for (int c = 0; c < j->cols; c++) {
            int v = -1;
            if (evenodd) parity[r * j->cols + c] = '.';
            if (evenodd && (strcmp(tok[c], "E") == 0 || strcmp(tok[c], "O") == 0)) {
                parity[r * j->cols + c] = tok[c][0];
                v = 0;
            } else {
                v = value_of(tok[c]);
            }
            if (v < 0) {
                json_decref(row);
                json_decref(grid);
                free(parity);
                return fail(err, cap, "a grid token is neither '-' nor a value");
            }
            json_array_append_new(row, v == 0 ? json_null() : json_integer(v));
        }
        json_array_append_new(grid, row);
    }
    json_object_set_new(j->request, "grid", grid);
    if (evenodd) {
        json_object_set_new(j->request, "parity", json_string(parity));
        free(parity);
    }
    return 0;
}

static int read_solution(janko_t *j, const char *text, char *err, size_t cap) {
    text_t t;
    char *tok[JK_MAX_SIDE];
    int rows, cols, rc = -1;
    if (text_split(text, &t) != 0 || header(&t, &rows, &cols) != 0 || rows != j->rows ||
        cols != j->cols) {
        free(t.buf);
        return fail(err, cap, "the solution's size differs from the puzzle's");
    }
    j->solution = calloc((size_t)rows * cols, 1);
    if (j->solution == NULL) goto out;
    for (int r = 0; r < rows; r++) {
        if (tokens(&t, 1 + r, tok, cols) != 0) goto out;
        for (int c = 0; c < cols; c++) {
            int v = value_of(tok[c]);
            if (v < 0) goto out;
            j->solution[r * cols + c] = (uint8_t)v;
        }
    }
    rc = 0;
out:
    free(t.buf);
    if (rc != 0) fail(err, cap, "the solution does not parse");
    return rc;
}

/* janko's 6x6 Chaos puzzles from No. 652 on have both diagonals too (the
 * text does not say so): without them none of the shared ones is unique,
 * and every solution keeps them. */
static int chaos_x(const char *id, int rows) {
    const char *num = strstr(id, "JigsawSudoku-");
    return rows == 6 && num != NULL && atoi(num + strlen("JigsawSudoku-")) >= 652;
}

int janko_decode(const char *variant, const char *line, janko_t *out, char *err, size_t cap) {
    json_error_t je;
    json_t *root = json_loads(line, 0, &je), *id, *problem, *solution;
    text_t t = {0, NULL, {0}};
    int rc = -1, outside;
    memset(out, 0, sizeof *out);
    if (root == NULL) return fail(err, cap, "the line is not JSON");
    id = json_object_get(root, "id");
    problem = json_object_get(root, "problem");
    solution = json_object_get(root, "solution");
    if (!json_is_string(problem) || !json_is_string(solution)) {
        fail(err, cap, "the line has no problem or solution text");
        goto out;
    }
    snprintf(out->id, sizeof out->id, "%s", json_is_string(id) ? json_string_value(id) : "?");
    snprintf(out->variant, sizeof out->variant, "%s", variant);
    if (text_split(json_string_value(problem), &t) != 0 ||
        header(&t, &out->rows, &out->cols) != 0) {
        fail(err, cap, "the problem has no \"ROWS COLS\" line");
        goto out;
    }
    out->request = json_object();
    if (out->request == NULL) goto out;
    outside = strcmp(variant, "skyscraper") == 0 || strcmp(variant, "margin") == 0;
    if (read_grid(out, &t, outside ? 5 : 1, strcmp(variant, "even-odd") == 0, err, cap) != 0)
        goto out;
    if (outside && add_outside(out, &t, variant[0] == 's', err, cap) != 0) goto out;
    if (strcmp(variant, "jigsaw") == 0 && add_regions(out, &t, err, cap) != 0) goto out;
    if (strcmp(variant, "consecutive") == 0 && add_bars(out, &t, err, cap) != 0) goto out;
    if (strcmp(variant, "jigsaw") == 0 && chaos_x(out->id, out->rows))
        json_object_set_new(out->request, "variant", json_pack("[s,s]", "jigsaw", "x"));
    else if (!outside) /* a classic grid with constraints: no variant name */
        json_object_set_new(out->request, "variant", json_string(variant));
    if (read_solution(out, json_string_value(solution), err, cap) != 0) goto out;
    rc = 0;
out:
    free(t.buf);
    json_decref(root);
    if (rc != 0) janko_free(out);
    return rc;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int janko_list(const char *dir, char **names, int max) {
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (d == NULL) return -1;
    while ((e = readdir(d)) != NULL && n < max) {
        size_t k = strlen(e->d_name);
        if (k > 12 && strcmp(e->d_name + k - 12, "Sudoku.jsonl") == 0)
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp_str);
    return n;
}

long janko_count_lines(const char *path) {
    FILE *f = fopen(path, "r");
    long k = 0;
    int ch, last = '\n';
    if (f == NULL) return 0;
    while ((ch = fgetc(f)) != EOF) {
        if (ch == '\n') k++;
        last = ch;
    }
    if (last != '\n') k++;
    fclose(f);
    return k;
}

void janko_free(janko_t *j) {
    json_decref(j->request);
    free(j->solution);
    j->request = NULL;
    j->solution = NULL;
}
