/*
 * cli.c - flag parsing and program paths for the command-line tools.
 */
#define _GNU_SOURCE
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "cli.h"
#include "kv.h"

void cli_sibling(const char *rel, char *buf, size_t size)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    snprintf(buf, size, "%s/%s", dirname(exe), rel);
}
