/* replay.c -- runs inputs through fuzz_api.c's LLVMFuzzerTestOneInput
 * without libFuzzer, so that `make test` (gcc, and ASan/UBSan with
 * SANITIZE=1) replays the corpus: fuzz/replay [--all-endpoints]
 * FILE_OR_DIR...  Returns 0 when every input ran (a failed check aborts),
 * 1 on an unreadable one; with --all-endpoints (make test) also 1 when an
 * endpoint of api_endpoints[] had no input, naming it. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "api/endpoint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern size_t fuzz_reached[];

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    long len;
    int rc = 1;
    if (f == NULL) return 1;
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)len + 1)) != NULL && fread(buf, 1, (size_t)len, f) == (size_t)len) {
        LLVMFuzzerTestOneInput(buf, (size_t)len);
        rc = 0;
    }
    free(buf);
    fclose(f);
    if (rc != 0) fprintf(stderr, "replay: cannot read %s\n", path);
    return rc;
}

int main(int argc, char **argv) {
    int bad = 0, n = 0, all = argc > 1 && strcmp(argv[1], "--all-endpoints") == 0;
    for (int i = 1 + all; i < argc; i++) {
        struct stat st;
        DIR *d;
        struct dirent *e;
        if (stat(argv[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
            bad |= run_file(argv[i]);
            n++;
            continue;
        }
        if ((d = opendir(argv[i])) == NULL) return 1;
        while ((e = readdir(d)) != NULL) {
            char path[4096];
            if (e->d_name[0] == '.') continue;
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            bad |= run_file(path);
            n++;
        }
        closedir(d);
    }
    printf("replay: %d inputs, %s\n", n, bad ? "some unreadable" : "all passed");
    for (size_t i = 0; all && api_endpoints[i] != NULL; i++)
        if (fuzz_reached[i] == 0) {
            fprintf(stderr, "replay: no input names %s %s (add seeds to fuzz/corpus)\n",
                    api_endpoints[i]->method, api_endpoints[i]->path);
            bad = 1;
        }
    return bad;
}
