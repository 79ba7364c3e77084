/* json_dump.c -- see json_dump.h. */
#include "api/json_dump.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

typedef struct dump_buf_s {
    char *text;
    size_t len, cap;
    int failed; /* sticky: jansson may go on writing after a failure */
} dump_buf_t;

static int dump_append(const char *piece, size_t size, void *data) {
    dump_buf_t *b = data;
    if (b->failed) return -1;
    if (b->len + size + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + size + 1)
            cap *= 2;
        char *t = realloc(b->text, cap);
        if (t == NULL) {
            b->failed = 1;
            return -1;
        }
        b->text = t;
        b->cap = cap;
    }
    memcpy(b->text + b->len, piece, size);
    b->len += size;
    b->text[b->len] = '\0';
    return 0;
}

char *api_json_dumps(const void *json, size_t flags, size_t *len) {
    dump_buf_t b = {NULL, 0, 0, 0};
    if (json_dump_callback(json, dump_append, &b, flags) != 0 || b.failed || b.text == NULL) {
        free(b.text);
        return NULL;
    }
    if (len != NULL) *len = b.len;
    return b.text;
}
