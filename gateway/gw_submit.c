/*
 * gw_submit.c - one submission (gw.h): the archive stored by content
 * hash, the bot checked from the stored copy, the version registered
 * under its participant; and a participant's own bots listed. The
 * gateway runs gw_submit in a child process of its own, which opens the
 * database itself: a check takes seconds, and nothing a bot does to it
 * reaches the gateway.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena_db.h"
#include "gw.h"
#include "store.h"
#include "txt.h"

#define REPORT_TAIL 8192       /* bytes of the check's report sent back */

/* The last REPORT_TAIL bytes of the report, from a line's start. */
static char *report_tail(FILE *f)
{
    char buf[REPORT_TAIL + 1];
    fflush(f);
    long end = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (end < 0 || fseek(f, end > REPORT_TAIL ? end - REPORT_TAIL : 0, SEEK_SET) != 0)
        return NULL;
    size_t n = fread(buf, 1, REPORT_TAIL, f);
    buf[n] = 0;
    for (size_t i = 0; i < n; i++)          /* a NUL a bot printed ends nothing */
        if (!buf[i])
            buf[i] = '?';
    const char *start = buf;
    if (end > REPORT_TAIL && memchr(buf, '\n', n))
        start = (char *)memchr(buf, '\n', n) + 1;
    return strdup(start);
}

/* Name and version free for this participant: 0, or -1 with why. */
static int name_free(arena_db *db, int64_t user_id, const gw_request *r, char *why,
                     size_t size)
{
    arena_bot b;
    char ref[160];
    if (arena_db_bot_by_name(db, r->name, &b) == 0 && b.owner_id != user_id) {
        txt_set(why, size, "the name %s is taken by %s: choose another", r->name,
                b.owner_id ? "another participant" : "the organizer");
        return -1;
    }
    snprintf(ref, sizeof ref, "%s@%s", r->name, r->version);
    if (arena_db_bot_by_name(db, ref, &b) == 0) {
        txt_set(why, size, "%s version %s is registered already: give a new --version",
                r->name, r->version);
        return -1;
    }
    return 0;
}

/* The submission as stored: the games as declared (the bot's own, as
 * checked, are in bot_games), the verdict. */
static void record(arena_db *db, int64_t user_id, const gw_request *r, size_t sent,
                   const gw_reply *out, int64_t bot_id)
{
    char err[512], games[GW_MAX_GAMES * 33] = "";
    for (int i = 0; i < r->ngames; i++)
        txt_append(games, sizeof games, "%s%s", i ? " " : "", r->games[i]);
    arena_submission s = { .user_id = user_id, .bot = r->name, .version = r->version,
                           .games = games, .content_hash = out->hash[0] ? out->hash : NULL,
                           .bytes = (int64_t)sent, .accepted = out->accepted,
                           .reason = out->message, .bot_id = bot_id };
    arena_db_submission_add(db, &s, err, sizeof err);
}

/* Stores the files, checks the bot, registers it: 1 accepted, 0 refused
 * (out->message says why), with the hash and the check's report. */
static int submit(const gw_config *c, arena_db *db, int64_t user_id, const gw_request *r,
                  gw_reply *out, int64_t *bot_id)
{
    char why[512], hexdir[4400], root[4200], plays[256] = "";
    if (name_free(db, user_id, r, why, sizeof why) < 0) {
        txt_set(out->message, sizeof out->message, "refused: %s", why);
        return 0;
    }
    store_tree t;
    store_tree_init(&t, c->max_bytes, c->max_files);
    if (store_read_archive(&t, r->archive, r->archive_len, why, sizeof why) < 0) {
        store_tree_free(&t);
        txt_set(out->message, sizeof out->message, "refused: %s", why);
        return 0;
    }
    int put = store_root_for(c->db_path, root, sizeof root) < 0
                  ? -1 : store_put(root, &t, out->hash, hexdir, sizeof hexdir, why, sizeof why);
    store_tree_free(&t);
    if (put < 0) {
        txt_set(out->message, sizeof out->message, "refused: the arena could not store it "
                                                    "(%s); tell the organizer", why);
        out->hash[0] = 0;
        return 0;
    }
    char label[160];
    snprintf(label, sizeof label, "%s@%s", r->name, r->version);
    /* A file, not memory: the check's children write their seats' reports
     * into it too. */
    FILE *log = tmpfile();
    int checked = log ? c->check(label, r->cmd, hexdir, r->games, r->ngames, log, plays,
                                 sizeof plays, why, sizeof why)
                      : 2;
    if (!log)
        txt_set(why, sizeof why, "no room for its log");
    out->text = log ? report_tail(log) : NULL;
    if (log)
        fclose(log);
    if (checked != 0) {
        txt_set(out->message, sizeof out->message,
                checked == 1 ? "refused: it cannot play (%s)"
                             : "refused: the check could not run (%s); tell the organizer",
                why);
        return 0;
    }
    arena_bot b;
    memset(&b, 0, sizeof b);
    snprintf(b.name, sizeof b.name, "%s", r->name);
    snprintf(b.version, sizeof b.version, "%s", r->version);
    snprintf(b.cmd, sizeof b.cmd, "%s", r->cmd);
    if (strlen(hexdir) >= sizeof b.cwd) {
        txt_set(out->message, sizeof out->message, "refused: the store's path is too long for "
                                                    "a bot's folder; tell the organizer");
        return 0;
    }
    memcpy(b.cwd, hexdir, strlen(hexdir) + 1);
    snprintf(b.content_hash, sizeof b.content_hash, "%s", out->hash);
    b.owner_id = user_id;
    snprintf(b.plays, sizeof b.plays, "%s", plays);
    if (arena_db_bot_add(db, &b, why, sizeof why) < 0) {
        txt_set(out->message, sizeof out->message, "refused: %s", why);
        return 0;
    }
    arena_bot got;
    if (arena_db_bot_by_name(db, label, &got) == 0)
        *bot_id = got.id;
    txt_set(out->message, sizeof out->message,
            "accepted: %s, checked in %s (plays both seats with no protocol errors)%s", label,
            plays,
            got.previous_id ? "; a new version, rated apart (a ladder with --gate sprt "
                              "tries it against the one before)" : "");
    return 1;
}

void gw_submit(const gw_config *c, int64_t user_id, const gw_request *r, size_t sent,
               gw_reply *out)
{
    memset(out, 0, sizeof *out);
    char err[512];
    arena_db *db;
    if (arena_db_open(&db, c->db_path, 0, err, sizeof err) < 0) {
        txt_set(out->message, sizeof out->message, "refused: the arena's database cannot be "
                                                    "opened; tell the organizer");
        return;
    }
    int64_t bot_id = 0;
    out->accepted = submit(c, db, user_id, r, out, &bot_id);
    record(db, user_id, r, sent, out, bot_id);
    arena_db_close(db);
}

/* A remote bot's row: its games sorted (as bot_games lists them), the
 * command a placeholder no worker runs (the arena's relay plays it). */
static int register_remote(arena_db *db, int64_t user_id, const gw_request *r, gw_reply *out,
                           int64_t *bot_id)
{
    char why[512];
    if (name_free(db, user_id, r, why, sizeof why) < 0) {
        txt_set(out->message, sizeof out->message, "refused: %s", why);
        return 0;
    }
    arena_bot b;
    memset(&b, 0, sizeof b);
    snprintf(b.name, sizeof b.name, "%s", r->name);
    snprintf(b.version, sizeof b.version, "%s", r->version);
    snprintf(b.cmd, sizeof b.cmd, "%s", GW_REMOTE_CMD);
    b.owner_id = user_id;
    char games[GW_MAX_GAMES][32];
    memcpy(games, r->games, sizeof games);
    qsort(games, (size_t)r->ngames, sizeof games[0], (int (*)(const void *, const void *))strcmp);
    for (int i = 0; i < r->ngames; i++)
        txt_append(b.plays, sizeof b.plays, "%s%s", i ? " " : "", games[i]);
    char label[160];
    snprintf(label, sizeof label, "%s@%s", r->name, r->version);
    arena_bot got;
    if (arena_db_bot_add(db, &b, why, sizeof why) < 0 ||
        arena_db_bot_by_name(db, label, &got) != 0 ||
        arena_db_remote_add(db, got.id, why, sizeof why) < 0) {
        if (arena_db_bot_by_name(db, label, &got) == 0 && !strcmp(got.cmd, GW_REMOTE_CMD))
            arena_db_bot_remove(db, label, why + 256, 256);
        txt_set(out->message, sizeof out->message, "refused: %s", why);
        return 0;
    }
    *bot_id = got.id;
    txt_set(out->message, sizeof out->message,
            "accepted: %s, a remote bot in %s: run `arena connect --credentials FILE --name %s "
            "-- CMD...` on your machine; it plays while connected", label, b.plays, r->name);
    return 1;
}

void gw_register_remote(arena_db *db, int64_t user_id, const gw_request *r, gw_reply *out)
{
    memset(out, 0, sizeof *out);
    int64_t bot_id = 0;
    out->accepted = register_remote(db, user_id, r, out, &bot_id);
    record(db, user_id, r, 0, out, bot_id);
}

void gw_list(const char *db_path, int64_t user_id, gw_reply *out)
{
    memset(out, 0, sizeof *out);
    char err[512];
    arena_db *db;
    arena_bot *bots = NULL;
    int n = -1, opened = arena_db_open_readonly(&db, db_path, err, sizeof err) == 0;
    if (opened)
        n = arena_db_bot_list(db, &bots);
    if (n < 0) {
        if (opened)
            arena_db_close(db);
        txt_set(out->message, sizeof out->message, "refused: the arena's bots cannot be read; "
                                                    "tell the organizer");
        return;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int mine = 0;
    if (f) {
        fprintf(f, "%-24s %-10s %-11s %7s %7s  %-20s %-12s  %s\n", "bot", "version", "status",
                "matches", "elo", "checked (UTC)", "content", "games");
        for (int i = 0; i < n; i++) {
            const arena_bot *b = &bots[i];
            if (b->owner_id != user_id)
                continue;
            mine++;
            char checked[32] = "never";
            int64_t at = arena_db_bot_checked_ms(db, user_id, b->id);
            time_t secs = (time_t)(at / 1000);
            struct tm tm;
            if (at > 0 && gmtime_r(&secs, &tm))
                strftime(checked, sizeof checked, "%Y-%m-%d %H:%M:%S", &tm);
            fprintf(f, "%-24s %-10s %-11s %7d %7.1f  %-20s %-12.12s  %s\n", b->label, b->version,
                    arena_bot_status_shown(b), b->games, b->elo, checked, b->content_hash,
                    b->plays);
            if (b->reason[0])
                fprintf(f, "    %s\n", b->reason);
        }
        fclose(f);
    }
    arena_db_close(db);
    free(bots);
    out->accepted = 1;
    out->text = text;
    txt_set(out->message, sizeof out->message, "%d bot version%s", mine, mine == 1 ? "" : "s");
}

void gw_change(arena_db *db, int64_t user_id, const gw_request *r, gw_reply *out)
{
    memset(out, 0, sizeof *out);
    arena_bot b;
    char err[512];
    if (arena_db_bot_by_name(db, r->bot, &b) != 0 || b.owner_id != user_id) {
        txt_set(out->message, sizeof out->message, "refused: you have no bot %s (see --list)",
                r->bot);
        return;
    }
    const char *status = r->op == GW_DISABLE ? "disabled" : "retired";
    char reason[256];
    snprintf(reason, sizeof reason, "by its owner: %s", r->reason[0] ? r->reason : "no reason");
    if (arena_db_bot_set_status(db, r->bot, status, reason, err, sizeof err) < 0) {
        txt_set(out->message, sizeof out->message, "refused: %s", err);
        return;
    }
    out->accepted = 1;
    txt_set(out->message, sizeof out->message, "%s %s", b.label, status);
}
