/*
 * ref_cmd.c - splitting a bot's command line into words (see ref_cmd.h for
 * the syntax). One pass over the text writes the unquoted words, each
 * NUL-terminated, into one buffer; a second step sorts them into the
 * environment assignments and the argv. Checking that a command can run
 * finds its program as the spawn will (ref_cmd_find).
 */
#include "ref_cmd.h"
#include "txt.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Programs no PATH holds: the shell's own commands and words. */
static const char *const shell_words[] = {
    ".", ":", "break", "case", "cd", "continue", "eval", "exit", "export", "for", "if",
    "read", "readonly", "return", "set", "shift", "source", "times", "trap", "ulimit",
    "umask", "unset", "until", "wait", "while", NULL
};

/* Unquoted characters that mean more shell than ref_cmd speaks. */
static const char shell_chars[] = "|&;<>(){}$`*?[]#~!\n";

/* NAME=VALUE with a shell variable name: the name is never quoted. */
static int is_assignment(const char *word, int quoted_from)
{
    const char *eq = strchr(word, '=');
    if (!eq || eq == word || (quoted_from >= 0 && quoted_from < eq - word))
        return 0;
    for (const char *p = word; p < eq; p++) {
        int alpha = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_';
        if (!alpha && !(p > word && *p >= '0' && *p <= '9'))
            return 0;
    }
    return 1;
}

/* Splits text into NUL-terminated words in out. Returns the number of
 * words, -1 for an unterminated quote, -2 when the shell is needed.
 * quoted[i] is the offset in word i of its first quoted character, -1
 * for none. */
static int split(const char *text, char *out, char **words, int *quoted)
{
    int n = 0;
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            return n;
        char *w = out;
        int q = -1;
        while (*p && *p != ' ' && *p != '\t') {
            if (*p == '\'') {
                const char *end = strchr(p + 1, '\'');
                if (!end)
                    return -1;
                q = q < 0 ? (int)(out - w) : q;
                memcpy(out, p + 1, (size_t)(end - p - 1));
                out += end - p - 1;
                p = end + 1;
            } else if (*p == '"') {
                q = q < 0 ? (int)(out - w) : q;
                for (p++; *p != '"'; p++) {
                    if (!*p)
                        return -1;
                    if (*p == '$' || *p == '`')
                        return -2;
                    if (*p == '\\' && p[1] && strchr("$`\"\\\n", p[1]))
                        p++;
                    *out++ = *p;
                }
                p++;
            } else if (*p == '\\') {
                if (!p[1] || p[1] == '\n')
                    return -2;
                q = q < 0 ? (int)(out - w) : q;
                *out++ = p[1];
                p += 2;
            } else if (strchr(shell_chars, *p)) {
                return -2;
            } else {
                *out++ = *p++;
            }
        }
        *out++ = 0;
        quoted[n] = q;
        words[n++] = w;
    }
}

int ref_cmd_parse(ref_cmd *c, const char *text, char *err, size_t size)
{
    memset(c, 0, sizeof *c);
    size_t len = text ? strlen(text) : 0;
    size_t maxw = len / 2 + 1;  /* words are separated by blanks */
    size_t bytes = (2 * maxw + 4) * sizeof(char *) + maxw * sizeof(int) + 2 * len + 16;
    char *store = malloc(bytes);
    if (!store) {
        txt_set(err, size, "out of memory");
        return -1;
    }
    char **words = (char **)store, **ptrs = words + maxw;
    int *quoted = (int *)(ptrs + maxw + 4);
    char *chars = (char *)(quoted + maxw);
    int n = text ? split(text, chars, words, quoted) : 0;
    if (n == -1) {
        free(store);
        txt_set(err, size, "unterminated quote in the command");
        return -1;
    }
    c->store = store;
    int k = 0;
    while (k < n && is_assignment(words[k], quoted[k]))
        k++;
    if (k < n && !strcmp(words[k], "exec") && quoted[k] < 0)
        k++;
    for (int i = 0; k < n && shell_words[i]; i++)
        if (!strcmp(words[k], shell_words[i]) && quoted[k] < 0)
            n = -2;
    if (n == -2) {
        /* The shell's syntax: keep the text whole for sh -c. */
        memcpy(chars, text, len + 1);
        ptrs[0] = NULL;
        c->assign = ptrs;
        c->argv = ptrs + 1;
        c->argv[0] = "/bin/sh";
        c->argv[1] = "-c";
        c->argv[2] = chars;
        c->argv[3] = NULL;
        c->shell = 1;
        return 0;
    }
    int na = 0;
    k = 0;
    while (k < n && is_assignment(words[k], quoted[k]))
        ptrs[na++] = words[k++];
    ptrs[na++] = NULL;
    if (k < n && !strcmp(words[k], "exec") && quoted[k] < 0)
        k++;
    if (k == n) {
        free(store);
        memset(c, 0, sizeof *c);
        txt_set(err, size, "the command is empty");
        return -1;
    }
    c->assign = ptrs;
    c->argv = ptrs + na;
    int m = 0;
    while (k < n)
        c->argv[m++] = words[k++];
    c->argv[m] = NULL;
    return 0;
}

void ref_cmd_free(ref_cmd *c)
{
    if (!c)
        return;
    free(c->store);
    memset(c, 0, sizeof *c);
}

int ref_cmd_find(const char *name, const char *path, char *out, size_t size)
{
    for (const char *d = path; d && *d; ) {
        size_t len = strcspn(d, ":");
        if (len && d[0] == '/') {
            snprintf(out, size, "%.*s/%s", (int)len, d, name);
            struct stat st;
            if (access(out, X_OK) == 0 && stat(out, &st) == 0 && S_ISREG(st.st_mode))
                return 0;
        }
        d += len + (d[len] == ':');
    }
    return -1;
}

/* Whether c's program can be run: by its path (from cwd when relative), or
 * found in this process's PATH. */
static int check_program(const ref_cmd *c, const char *cwd, char *err, size_t size)
{
    const char *word = c->argv[0];
    assert(word != NULL);           /* ref_cmd_parse refuses an empty command */
    char path[PATH_MAX];
    if (c->shell)
        return 0;                   /* the shell's syntax: let the shell judge */
    if (strchr(word, '/')) {
        if (word[0] != '/' && cwd && *cwd)
            snprintf(path, sizeof path, "%s/%s", cwd, word);
        else
            snprintf(path, sizeof path, "%s", word);
        if (access(path, X_OK) == 0)
            return 0;
        txt_set(err, size, "cannot run %s: %s", path, strerror(errno));
        return -1;
    }
    const char *env = getenv("PATH");
    if (ref_cmd_find(word, env ? env : "/usr/bin:/bin", path, sizeof path) == 0)
        return 0;
    txt_set(err, size, "command not found: %s", word);
    return -1;
}

int ref_cmd_check(const char *text, const char *cwd, char *err, size_t size)
{
    ref_cmd c;
    if (ref_cmd_parse(&c, text, err, size) < 0)
        return -1;
    int rc = check_program(&c, cwd, err, size);
    ref_cmd_free(&c);
    return rc;
}
