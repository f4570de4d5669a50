/*
 * ref_cmd.h - a bot's command line, split into the words to exec.
 *
 * Bots are exec'd, not left under a `/bin/sh -c` leader, so that a death by
 * signal is the bot's own (SIGSEGV, not "exit status 139") and the signals
 * the referee sends reach the bot itself. The command is split the way a
 * POSIX shell splits a simple command, for the part of the shell's syntax
 * that a command line to start a program needs:
 *
 *   - blanks (space, tab) separate words;
 *   - '...' quotes everything literally; "..." quotes everything but \
 *     before $ ` " \ (which it escapes); \ outside quotes escapes the next
 *     character;
 *   - leading NAME=VALUE words set environment variables for the bot;
 *   - a leading `exec` word is allowed (and changes nothing).
 *
 * Anything else the shell would interpret (| & ; < > ( ) { } $ ` * ? [ ] #
 * ~ ! or a newline, unquoted, or $ ` inside "...", or a first word that is
 * the shell's own, such as cd, exit or ulimit) makes the whole command
 * run as `/bin/sh -c CMD` instead: it works as before, but a death by a
 * signal is then reported by the shell as exit status 128+N.
 */
#ifndef REF_CMD_H
#define REF_CMD_H

#include <stddef.h>

typedef struct ref_cmd {
    char **argv;     /* the words to exec, NULL-terminated; argv[0] is the
                        program (searched in PATH when it has no '/') */
    char **assign;   /* the leading NAME=VALUE words, NULL-terminated */
    int    shell;    /* 1: argv is { "/bin/sh", "-c", CMD } */
    char  *store;    /* internal: one allocation holding everything */
} ref_cmd;

/* Splits `text`. Returns 0 with *c filled (free with ref_cmd_free), or -1
 * with a message in err: "the command is empty", "unterminated quote",
 * "out of memory". */
int  ref_cmd_parse(ref_cmd *c, const char *text, char *err, size_t size);
void ref_cmd_free(ref_cmd *c);

/* Finds a program `name` (no '/') in the folders of `path` (a PATH value;
 * only absolute folders count, as for the spawn): 0 with its path in out,
 * or -1. */
int  ref_cmd_find(const char *name, const char *path, char *out, size_t size);

/* Checks, before a bot is registered or run, that its command can run: it
 * splits as above and its program exists and is executable (a relative
 * path from cwd, when given; a bare name in this process's PATH). Under
 * the shell the shell judges: 0. 0, or -1 with err ("command not found:
 * NAME", "cannot run PATH: why", or ref_cmd_parse's). */
int  ref_cmd_check(const char *text, const char *cwd, char *err, size_t size);

#endif /* REF_CMD_H */
