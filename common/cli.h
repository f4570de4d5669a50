/*
 * cli.h - small helpers the command-line programs share (referee, arena):
 * strict number parsing for flags, and finding a sibling program.
 */
#ifndef CLI_H
#define CLI_H

#include <stddef.h>
#include <stdint.h>

/* A whole decimal number in [lo, hi], nothing else: 0, or -1. */
int  cli_i64(const char *text, int64_t lo, int64_t hi, int64_t *out);
/* A whole decimal number from 0 to 2^64-1, no sign: 0, or -1. */
int  cli_u64(const char *text, uint64_t *out);
/* The path of `rel` relative to this program's own directory
 * (cli_sibling("../referee/referee", ...) from build/arena/arena). */
void cli_sibling(const char *rel, char *buf, size_t size);

#endif
