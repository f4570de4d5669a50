/*
 * cli.h - small helpers the command-line programs share (referee, arena):
 * strict number parsing for flags, and finding a sibling program.
 */
#ifndef CLI_H
#define CLI_H

#include <stddef.h>
#include <stdint.h>

/* The path of `rel` relative to this program's own directory
 * (cli_sibling("../referee/referee", ...) from build/arena/arena). */
void cli_sibling(const char *rel, char *buf, size_t size);

#endif
