/*
 * arena_read.h - the views of the arena's tables that the web shows (its
 * pages and JSON API, web/API.md), read here beside the schema so that a
 * column is one folder's change: web/ writes what these return and holds
 * no SQL of its own.
 *
 * Every function only reads, through the library's cached statements, and
 * answers 0 (or a count) or -1 on a read error; a request of the web runs
 * them inside one read transaction (arena_read_begin), so what it shows is
 * one snapshot. Text is what the tables hold, at most the sizes arena_db.h
 * gives them; each list is bounded as its comment says, so a request
 * reads a bounded number of rows at any size of the database.
 *
 * arena_read_bots.c     bots as every table shows them; a bot's page
 * arena_read_matches.c  pages of matches, the kinds of match, the newest
 * arena_read_lists.c    tournaments, ladders, the live view, gate verdicts
 */
#ifndef ARENA_READ_H
#define ARENA_READ_H

#include <stddef.h>
#include <stdint.h>

#include "arena_db.h"

/* One snapshot for several reads: BEGIN (deferred: a reader, never a
 * writer), 0 or -1 with err; arena_read_end commits it (or rolls back). */
int  arena_read_begin(arena_db *db, char *err, size_t size);
void arena_read_end(arena_db *db);

/* ---- bots (arena_read_bots.c) ---------------------------------------------- */

/* A bot row as every table shows it beside a name. */
typedef struct arena_bot_row {
    int64_t id;
    char label[128];          /* arena_bot.label */
    char name[64];
    char version[64];
    char status[16];          /* as shown (arena_bot_status_shown), "removed" once removed */
    char reason[256];         /* its status reason, "" for none */
    int  registered;          /* not removed */
    int  played;              /* it has matches: last_active_ms is set */
    int64_t last_active_ms;   /* its newest match's finish */
    char plays[256];          /* its games: registry names, space-separated */
    char remote[16];          /* a remote bot's state (arena_remote_bot_state), "" for
                                 another */
} arena_bot_row;

/* Every bot, removed ones too, by id. Count, with *out malloc'ed; or -1. */
int  arena_read_bots(arena_db *db, arena_bot_row **out);

/* A bot by reference: NAME (its newest registered version), NAME@VERSION,
 * a label NAME#ID (any bot, removed too), or else the exact name of a bot
 * the arena would refuse today (an older or edited database; registered
 * first, then the newest). 0 with *id, 1 none, -1 error. */
int  arena_read_bot_ref(arena_db *db, const char *ref, int64_t *id);

/* A bot's rating plot: its live Elo after each rated match (rating_history),
 * every step-th of its total steps and the last, so at most max_points
 * (max_points >= 1), each with its match's finish time. One seek per
 * point sent, not per match played. */
typedef struct arena_plot_point {
    int64_t finished_ms;
    double elo;
    int64_t match_id;
} arena_plot_point;
typedef struct arena_plot {
    arena_plot_point *p;      /* malloc'ed */
    int64_t n;                /* points sent */
    int64_t total, step;      /* the steps of its history, and every how many one is sent */
} arena_plot;
int  arena_read_plot(arena_db *db, int64_t bot_id, int64_t max_points, arena_plot *out);

/* Its W-D-L against each bot it met on another team (bot_opponents, schema
 * 11), by the opponent's name, then id. */
typedef struct arena_opponent_row {
    char label[128];
    int64_t opponent_id, wins, draws, losses;
} arena_opponent_row;
int  arena_read_opponents(arena_db *db, int64_t bot_id, arena_opponent_row **out);

/* The newest ARENA_READ_FORFEITS matches it forfeited (bot_forfeits). */
#define ARENA_READ_FORFEITS 50
typedef struct arena_forfeit_row {
    int64_t match_id, finished_ms;
    char reason[32];
    char detail[256];
} arena_forfeit_row;
int  arena_read_forfeits(arena_db *db, int64_t bot_id, arena_forfeit_row **out);

/* The newest ARENA_READ_LOGS of its seats with a kept log (match_logs),
 * looked for among its newest ARENA_READ_LOGS_WALK matches no older than
 * the oldest kept log (logs are kept for the newest matches only). */
#define ARENA_READ_LOGS 50
#define ARENA_READ_LOGS_WALK 2000
typedef struct arena_log_row {
    int64_t match_id;
    int seat;
    int64_t bytes;            /* the whole log's size */
} arena_log_row;
int  arena_read_logs(arena_db *db, int64_t bot_id, arena_log_row **out);

/* ---- matches (arena_read_matches.c) ---------------------------------------- */

/* The highest match id (0: none), or -1. */
int64_t arena_read_newest(arena_db *db);

/* A match with its seats, as every list shows it. */
typedef struct arena_seat_row {
    int seat;
    int64_t bot_id;
    char bot[128];            /* its label */
    char version[64];
    int team;
    double score;
} arena_seat_row;
typedef struct arena_match_row {
    int64_t id;
    char game[32];
    int players;
    int64_t tournament_id;    /* 0: none */
    char reason[32];
    int culprit;              /* -1: none */
    char detail[256];
    int decisions;
    int64_t started_ms, finished_ms;
    int nseats;               /* seats read, in seat order (at most ARENA_MAX_SEATS) */
    arena_seat_row seat[ARENA_MAX_SEATS];
} arena_match_row;

/* Which page of matches: newest first, below the cursor `before`, at most
 * `limit` (>= 1). Every filter 0, "" or NULL (score: negative) means any.
 * With a bot, its (bot, match) index walks its matches; without one, the
 * primary key walks all matches, and a filter no index serves is checked
 * over at most ARENA_READ_SCAN matches from the newest one below the
 * cursor: a page that found fewer than asked is `partial`. */
#define ARENA_READ_SCAN 20000
typedef struct arena_page_query {
    int64_t bot, before, limit, tournament, ladder, players;
    const char *game, *reason;
    double score;             /* the bot's score (no bot: seat 0's), or negative for any */
} arena_page_query;
typedef struct arena_page {
    arena_match_row *m;      /* malloc'ed (arena_read_page_free) */
    int n;
    int64_t next;             /* the cursor for the next page, 0: none */
    int partial;              /* the scan's window ended the page: go on from next */
} arena_page;
int  arena_read_page(arena_db *db, const arena_page_query *q, arena_page *out);
void arena_read_page_free(arena_page *p);

/* Each kind of match stored (a game and a number of seats), by game, then
 * seats, with its newest match's id: one index seek per kind. */
typedef struct arena_kind_row {
    char game[32];
    int players;
    int64_t newest;
} arena_kind_row;
int  arena_read_kinds(arena_db *db, arena_kind_row **out);

/* The ids of the matches stored with a record, in id order (the bench's
 * replays). Count, with *out malloc'ed; or -1. */
int  arena_read_recorded(arena_db *db, int64_t **out);

/* ---- tournaments, ladders, the live view, gates (arena_read_lists.c) -------- */

#define ARENA_READ_NEWEST 200   /* tournaments, ladders, gate verdicts listed */

/* The newest ARENA_READ_NEWEST tournaments, newest first. */
typedef struct arena_tournament_row {
    int64_t id;
    char game[32];
    char format[16];
    int64_t games;            /* per pairing */
    char options[512];
    int64_t planned, created_ms;
    int finished;             /* finished_ms is set */
    int64_t finished_ms;
} arena_tournament_row;
int  arena_read_tournaments(arena_db *db, arena_tournament_row **out);

/* The newest ARENA_READ_NEWEST ladders, newest first. */
typedef struct arena_ladder_row {
    int64_t id;
    char name[128];
    char game[32];
    char options[512];
    int64_t created_ms;
} arena_ladder_row;
int  arena_read_ladders(arena_db *db, arena_ladder_row **out);

/* How fast matches land, from the finish times of the newest 1,000: the
 * newest one's, and how many finished within a minute and within ten
 * minutes before it (0s when none). 0, or -1. */
typedef struct arena_pace {
    int64_t latest_ms, minute, ten_minutes;
} arena_pace;
int  arena_read_pace(arena_db *db, arena_pace *out);

/* The newest 20 unfinished tournaments: planned, stored, started, and from
 * their live claims at now_ms (schema 8) the matches taken (an arena
 * claims what it hands to its workers) and by how many arenas. */
typedef struct arena_running_row {
    int64_t id;
    char game[32];
    char format[16];
    int64_t planned, stored, created_ms, taken, arenas;
} arena_running_row;
int  arena_read_running(arena_db *db, int64_t now_ms, arena_running_row **out);

/* The arenas at work (arena_runs, schema 12), newest started first, at
 * most 50: each one's row, and its ladder's name ("" for none). */
typedef struct arena_work_row {
    arena_run_row run;
    char ladder[128];
} arena_work_row;
int  arena_read_arenas(arena_db *db, arena_work_row **out);

/* The ladders that played among the newest 1,000 matches, latest first:
 * how many of those, its latest finish, and the matches it has scheduled
 * so far (its highest game_index + 1). */
typedef struct arena_ladder_live_row {
    char name[128];
    char game[32];
    int64_t matches, latest_ms, scheduled;
} arena_ladder_live_row;
int  arena_read_ladders_live(arena_db *db, arena_ladder_live_row **out);

/* The verdicts of the ladders' SPRT gates (gate_verdicts, schema 10),
 * newest first, at most ARENA_READ_NEWEST: of one ladder (0: any), and of
 * one bot as the new version or the one it had to beat (0: any). */
typedef struct arena_gate_row {
    int64_t id;
    char ladder[128];
    int64_t bot_id;
    char bot[128];            /* labels */
    int64_t opponent_id;
    char opponent[128];
    char outcome[16];
    double elo0, elo1, alpha, beta, llr, lower, upper;
    int64_t wins, draws, losses, pairs, decided_ms;
} arena_gate_row;
int  arena_read_gates(arena_db *db, int64_t ladder_id, int64_t bot_id, arena_gate_row **out);

#endif
