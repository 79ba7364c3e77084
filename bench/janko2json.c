/* janko2json.c -- the request bodies of a janko.at variant file (bench/janko.h),
 * one JSON object a line, for a client that sends them over HTTP (the
 * lead's `make bench-variants` through the server) or for a person who
 * wants to see what the API takes.
 *
 *   janko2json FILE [OPTIONS_JSON]
 *
 * Each output line is {"id", "variant", "rows", "cols", "request",
 * "solution"}: the request body (merged with OPTIONS_JSON, e.g.
 * '{"max_solutions": 2}'), and the file's solution as rows arrays (null on
 * holes).  A file this decoder does not read prints nothing and says why on
 * stderr (exit 3); a line it cannot decode is named on stderr and skipped
 * (exit 1 at the end). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/janko.h"

int main(int argc, char **argv) {
    const char *why = NULL, *variant;
    json_t *options = NULL;
    FILE *f;
    char *line = NULL, err[160];
    size_t cap = 0;
    long k = 0;
    int bad = 0;
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: janko2json FILE [OPTIONS_JSON]\n");
        return 2;
    }
    variant = janko_file_variant(argv[1], &why);
    if (variant == NULL) {
        fprintf(stderr, "janko2json: %s: %s\n", argv[1], why);
        return 3;
    }
    if (argc == 3 && (options = json_loads(argv[2], 0, NULL)) == NULL) {
        fprintf(stderr, "janko2json: OPTIONS_JSON is not a JSON object\n");
        return 2;
    }
    if ((f = fopen(argv[1], "r")) == NULL) {
        perror(argv[1]);
        return 2;
    }
    while (getline(&line, &cap, f) > 0) {
        janko_t j;
        json_t *out, *sol;
        char *text;
        k++;
        if (janko_decode(variant, line, &j, err, sizeof err) != 0) {
            fprintf(stderr, "janko2json: %s line %ld: %s\n", argv[1], k, err);
            bad = 1;
            continue;
        }
        if (options != NULL) json_object_update(j.request, options);
        sol = json_array();
        for (int r = 0; r < j.rows; r++) {
            json_t *row = json_array();
            for (int c = 0; c < j.cols; c++) {
                int v = j.solution[r * j.cols + c];
                json_array_append_new(row, v ? json_integer(v) : json_null());
            }
            json_array_append_new(sol, row);
        }
        out = json_pack("{s:s,s:s,s:i,s:i,s:O,s:o}", "id", j.id, "variant", j.variant, "rows",
                        j.rows, "cols", j.cols, "request", j.request, "solution", sol);
        text = out != NULL ? json_dumps(out, JSON_COMPACT) : NULL;
        if (text == NULL) {
            fprintf(stderr, "janko2json: out of memory\n");
            return 2;
        }
        puts(text);
        free(text);
        json_decref(out);
        janko_free(&j);
    }
    free(line);
    fclose(f);
    json_decref(options);
    return bad;
}
