/*
 * fuzz.h - the contract of a fuzz target: libFuzzer's entry point.
 *
 * Each fuzz_*.c defines LLVMFuzzerTestOneInput for one decoder of bytes
 * the arena cannot trust, and checks an oracle where it has one (a
 * round trip, a second decoder). Built with -DARENA_FUZZ=ON and clang,
 * libFuzzer drives it; in every other build, replay.c replays the seed
 * corpus (tests/fuzz/corpus/NAME) through it as a plain test.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An oracle broken: say what, and abort (libFuzzer keeps the input). */
#define FUZZ_CHECK(cond)                                                        \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "%s:%d: oracle broken: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                            \
        }                                                                       \
    } while (0)

#endif
