/*
 * ref_env.h - a bot registration's own environment: the NAME=VALUE
 * entries `arena bot add --env` stores with the bot, carries in each
 * worker job and hands to the bot after the ARENA_* variables
 * (ref_config.bot_env). Stored and sent as one text, an entry a line.
 *
 * One check serves the command line, the database and the job (which
 * comes over the network): a NAME is [A-Za-z_][A-Za-z0-9_]*, never
 * ARENA_* (the referee's own), at most once; a VALUE has no newline.
 */
#ifndef REF_ENV_H
#define REF_ENV_H

#include <stddef.h>

#define REF_ENV_MAX  32           /* entries per bot */
#define REF_ENV_TEXT 2048         /* bytes of the text, its terminator included */

typedef struct ref_env {
    char  text[REF_ENV_TEXT];     /* a copy, cut into its entries */
    char *entry[REF_ENV_MAX + 1]; /* NULL-terminated, into text */
    int   n;
} ref_env;

/* Checks one NAME=VALUE entry. 0, or -1 with err naming what is wrong. */
int ref_env_check(const char *entry, char *err, size_t size);

/* Appends a checked entry to text (lines; cap bytes with the terminator),
 * refusing a NAME already there and a text grown past cap or REF_ENV_MAX
 * entries. 0, or -1 with err. */
int ref_env_append(char *text, size_t cap, const char *entry, char *err, size_t size);

/* Cuts text ("" for none) into env, checking every entry as append does.
 * 0, or -1 with err. */
int ref_env_parse(ref_env *env, const char *text, char *err, size_t size);

#endif
