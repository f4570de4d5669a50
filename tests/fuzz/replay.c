/*
 * replay.c - runs a fuzz target over files, without libFuzzer.
 *
 *   fuzz_NAME FILE|DIR...
 *
 * Each file (each file of a directory) is one input. The seed corpus and
 * every crash found once stay in tests/fuzz/corpus/NAME, so every build
 * (Release, valgrind, ASan) keeps replaying them.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fuzz.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *bigger = realloc(buf, cap *= 2);
            if (!bigger)
                free(buf);
            buf = bigger;
        }
    }
    fclose(f);
    if (!buf)
        return -1;
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int inputs = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) < 0) {
            fprintf(stderr, "replay: no such file: %s\n", argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            if (run_file(argv[i]) < 0)
                return 1;
            inputs++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            if (run_file(path) < 0)
                return 1;
            inputs++;
        }
        if (d)
            closedir(d);
    }
    printf("replay: %d inputs\n", inputs);
    return inputs > 0 ? 0 : 1;
}
