/* log.c -- see log.h.  jansson builds and dumps each line; the access log,
 * written for every request, builds its line by hand in server/http/http.c
 * (same fields, same single write) because this was a tenth of a small
 * request's cost. */
#include "server/log.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api/request.h"

void log_time(char *out, size_t cap) {
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    size_t n = strftime(out, cap, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out + n, cap - n, ".%03ldZ", ts.tv_nsec / 1000000);
}

void log_json(const char *level, const char *msg, void *extra_json) {
    json_t *extra = extra_json;
    char when[40];
    log_time(when, sizeof when);
    json_t *line = json_pack("{s:s, s:s, s:s}", "time", when, "level", level, "msg", msg);
    if (line != NULL && extra != NULL) json_object_update(line, extra);
    json_decref(extra);
    char *text = line ? api_json_dumps(line, API_JSON_FLAGS, NULL) : NULL;
    json_decref(line);
    if (text == NULL) return;
    size_t n = strlen(text);
    text[n] = '\n'; /* overwrite the NUL: one write(2), so lines never interleave */
    ssize_t w = write(STDERR_FILENO, text, n + 1);
    (void)w;
    free(text);
}
