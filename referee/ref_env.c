/*
 * ref_env.c - a bot registration's own environment, checked and cut into
 * entries (ref_env.h).
 */
#include <stdio.h>
#include <string.h>
#include "ref_env.h"

static size_t name_len(const char *entry)
{
    return strcspn(entry, "=");
}

int ref_env_check(const char *entry, char *err, size_t size)
{
    size_t n = name_len(entry);
    int ok = n > 0 && entry[n] == '=' && !(entry[0] >= '0' && entry[0] <= '9');
    for (size_t i = 0; ok && i < n; i++) {
        char c = entry[i];
        ok = c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
             (c >= '0' && c <= '9');
    }
    if (!ok) {
        snprintf(err, size, "environment entry '%.*s' is not NAME=VALUE with a NAME of "
                 "letters, digits and _ (not starting with a digit)",
                 (int)strcspn(entry, "\n"), entry);
        return -1;
    }
    if (!strncmp(entry, "ARENA_", 6)) {
        snprintf(err, size, "environment variable %.*s: ARENA_* are the referee's own",
                 (int)n, entry);
        return -1;
    }
    if (strchr(entry + n, '\n') || strchr(entry + n, '\r')) {
        snprintf(err, size, "environment variable %.*s: its value has a line break",
                 (int)n, entry);
        return -1;
    }
    return 0;
}

/* The line of text whose NAME is entry's, or NULL. */
static const char *find_name(const char *text, const char *entry)
{
    size_t n = name_len(entry);
    for (const char *line = text; *line;) {
        if (!strncmp(line, entry, n) && line[n] == '=')
            return line;
        line += strcspn(line, "\n");
        line += *line == '\n';
    }
    return NULL;
}

int ref_env_append(char *text, size_t cap, const char *entry, char *err, size_t size)
{
    if (ref_env_check(entry, err, size) < 0)
        return -1;
    size_t used = strlen(text), lines = 0, n = name_len(entry);
    for (const char *p = text; *p; p++)
        lines += *p == '\n';
    lines += used > 0;
    if (find_name(text, entry)) {
        snprintf(err, size, "environment variable %.*s is given twice", (int)n, entry);
        return -1;
    }
    if (lines >= REF_ENV_MAX || used + (used > 0) + strlen(entry) + 1 > cap) {
        snprintf(err, size, "environment variable %.*s: too many variables (at most %d, "
                 "%zu bytes in all)", (int)n, entry, REF_ENV_MAX, cap - 1);
        return -1;
    }
    snprintf(text + used, cap - used, "%s%s", used ? "\n" : "", entry);
    return 0;
}

int ref_env_parse(ref_env *env, const char *text, char *err, size_t size)
{
    memset(env, 0, sizeof *env);
    if (strlen(text) >= sizeof env->text) {
        snprintf(err, size, "the environment is longer than %zu bytes", sizeof env->text - 1);
        return -1;
    }
    char line[REF_ENV_TEXT];
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, "\n");
        snprintf(line, sizeof line, "%.*s", (int)len, p);
        if (ref_env_append(env->text, sizeof env->text, line, err, size) < 0)
            return -1;
        p += len + (p[len] == '\n');
    }
    for (char *p = env->text; *p && env->n < REF_ENV_MAX; env->n++) {
        env->entry[env->n] = p;
        p += strcspn(p, "\n");
        if (*p)
            *p++ = 0;
    }
    env->entry[env->n] = NULL;
    return 0;
}
