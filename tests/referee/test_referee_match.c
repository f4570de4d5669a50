/*
 * test_referee_match.c - ref_match_play with real bot processes.
 *
 *   test_referee_match BADBOT RANDOM
 *
 * Each test plays one match between the random agent and badbot (see
 * badbot.c) in one of its misbehaviours, then checks the record: the
 * exact reason code, the culprit, the scores, that it replays
 * (ref_record_verify), and that nothing was left behind (match_run.c).
 * The handshake (test_referee_handshake.c) and the time bank under a
 * controlled clock (test_referee_clock.c) have their own files.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "match_run.h"

/* ---- matches that end normally ----------------------------------------- */

static void test_random_vs_random(void **state)
{
    run *r = run_new();
    run_play(r);
    assert_game_result(&r->rec);
    assert_string_equal(r->rec.name[0], "random");
    assert_string_equal(r->rec.name[1], "random");
    assert_string_equal(r->rec.game, "warchest");
    int own, subs;
    count_decisions(&r->rec, 0, &own, &subs);
    assert_int_equal(subs, 0);
    run_free(r);
}

static void test_tcp_transport(void **state)
{
    run *r = run_new();
    r->cfg.transport = "tcp";
    run_play(r);
    assert_game_result(&r->rec);
    run_free(r);
}

static void test_draft(void **state)
{
    run *r = run_new();
    run_option(r, "setup", "draft");
    run_play(r);
    assert_game_result(&r->rec);
    assert_non_null(strstr(r->rec.options, "setup=draft"));
    char text[128];
    game_warchest.format(r->rec.decisions[0].action, text, sizeof text);
    assert_int_equal(strncmp(text, "pick ", 5), 0);
    run_free(r);
}

static void test_four_players_team_forfeit(void **state)
{
    run *r = run_new();
    run_option(r, "players", "4");
    r->cfg.nbots = 4;
    run_badbot(r, 2, "crash 2");
    run_play(r);
    assert_string_equal(r->rec.reason, REF_CRASH);
    assert_int_equal(r->rec.culprit, 2);
    /* seats 0 and 2 are side A: the whole team loses */
    assert_true(r->rec.score[0] == 0.0 && r->rec.score[2] == 0.0);
    assert_true(r->rec.score[1] == 1.0 && r->rec.score[3] == 1.0);
    assert_verifies(&r->rec);
    run_free(r);
}

static void test_child_processes_killed(void **state)
{
    run *r = run_new();
    run_badbot(r, 1, "child");
    run_play(r);            /* checks the two `sleep 300` are gone */
    assert_game_result(&r->rec);
    run_free(r);
}

static void test_flood_log_capped(void **state)
{
    run *r = run_new();
    r->cfg.limits.log_bytes = 1 << 20;
    run_badbot(r, 0, "flood");
    run_play(r);
    assert_game_result(&r->rec);
    size_t size;
    char *log = run_log(r, 0, &size);
    assert_true(size <= (1u << 20) + strlen(REF_PROC_TRUNCATED_LINE) + 1);
    assert_true(size >= 1u << 20);
    assert_non_null(strstr(log + (1 << 20) - 1, REF_PROC_TRUNCATED_LINE));
    free(log);
    run_free(r);
}

static void test_slow_within_move_limit(void **state)
{
    run *r = run_new();
    run_option(r, "round_limit", "6");
    r->cfg.terms.move_ms = 300;
    r->cfg.terms.bank_ms = 0;
    run_badbot(r, 1, "slow 30");
    run_play(r);
    assert_game_result(&r->rec);
    int own, subs;
    count_decisions(&r->rec, 1, &own, &subs);
    assert_true(own > 0);
    assert_int_equal(subs, 0);
    run_free(r);
}

/* ---- records ------------------------------------------------------------ */

static void write_record(const ref_record *rec, const char *path)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(ref_record_write(rec, &game_warchest, f), 0);
    assert_int_equal(fclose(f), 0);
}

static int read_record(const char *path, ref_record *rec)
{
    const game_api *g = NULL;
    char err[256] = "";
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int rc = ref_record_read(rec, &g, f, err, sizeof err);
    fclose(f);
    if (rc == 0)
        assert_ptr_equal(g, &game_warchest);
    else
        fprintf(stderr, "read: %s\n", err);
    return rc;
}

/* Copies `from` to `to`, replacing line number `lineno` (1-based). */
static void replace_line(const char *from, const char *to, int lineno, const char *text)
{
    FILE *in = fopen(from, "r"), *out = fopen(to, "w");
    assert_non_null(in);
    assert_non_null(out);
    char line[1024];
    for (int n = 1; fgets(line, sizeof line, in); n++)
        fputs(n == lineno ? text : line, out);
    fclose(in);
    assert_int_equal(fclose(out), 0);
}

/* The line number of the k-th decision line (0-based), and its text. */
static int decision_line(const char *path, int k, char *text, size_t size)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[1024];
    int found = -1;
    for (int n = 1; fgets(line, sizeof line, f); n++)
        if (!strncmp(line, "decision ", 9) && k-- == 0) {
            snprintf(text, size, "%.250s", line);
            found = n;
            break;
        }
    fclose(f);
    assert_true(found > 0);
    return found;
}

static void test_record_roundtrip_and_tamper(void **state)
{
    run *r = run_new();
    run_badbot(r, 0, "ok");
    run_play(r);
    assert_game_result(&r->rec);

    char path[] = "/tmp/arena-test-record-XXXXXX", bad[64];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    snprintf(bad, sizeof bad, "%s.bad", path);
    write_record(&r->rec, path);

    ref_record back;
    assert_int_equal(read_record(path, &back), 0);
    assert_string_equal(back.game, r->rec.game);
    assert_string_equal(back.options, r->rec.options);
    assert_true(back.seed == r->rec.seed);
    assert_int_equal(back.seats, 2);
    assert_string_equal(back.name[0], "badbot");
    assert_string_equal(back.version[0], "ok");
    assert_string_equal(back.name[1], "random");
    assert_int_equal(back.ndecisions, r->rec.ndecisions);
    for (size_t i = 0; i < back.ndecisions; i++) {
        assert_true(back.decisions[i].action == r->rec.decisions[i].action);
        assert_int_equal(back.decisions[i].seat, r->rec.decisions[i].seat);
        assert_int_equal(back.decisions[i].micros, r->rec.decisions[i].micros);
        assert_int_equal(back.decisions[i].cpu_us, r->rec.decisions[i].cpu_us);
        assert_int_equal(back.decisions[i].wait_us, r->rec.decisions[i].wait_us);
        assert_int_equal(back.decisions[i].substituted, 0);
        assert_true(r->rec.decisions[i].log_end != REF_LOG_UNMARKED);
        assert_true(back.decisions[i].log_end == r->rec.decisions[i].log_end);
    }
    assert_string_equal(back.reason, r->rec.reason);
    assert_int_equal(back.culprit, -1);
    assert_true(back.score[0] == r->rec.score[0] && back.score[1] == r->rec.score[1]);
    assert_true(back.hash == r->rec.hash);
    assert_verifies(&back);
    char err[256] = "";
    back.culprit = 1;      /* a game result has no culprit */
    assert_int_equal(ref_record_verify(&back, &game_warchest, err, sizeof err), -1);
    ref_record_free(&back);

    /* One action changed: the 10th decision gets the 11th's action (a
     * different one), keeping its seat and time. */
    char tenth[256], eleventh[256], forged[300];
    int k = 9;
    int lineno = decision_line(path, k, tenth, sizeof tenth);
    for (;; k++) {
        decision_line(path, k + 1, eleventh, sizeof eleventh);
        /* "decision S T how ACTION": compare the actions */
        const char *a = tenth, *b = eleventh;
        for (int w = 0; w < 4; w++) {
            a = strchr(a, ' ') + 1;
            b = strchr(b, ' ') + 1;
        }
        if (strcmp(a, b)) {
            int head = (int)(a - tenth);
            snprintf(forged, sizeof forged, "%.*s%s", head, tenth, b);
            break;
        }
    }
    replace_line(path, bad, lineno, forged);
    assert_int_equal(read_record(bad, &back), 0);
    assert_int_equal(ref_record_verify(&back, &game_warchest, err, sizeof err), -1);
    fprintf(stderr, "    tampered action: %s\n", err);
    ref_record_free(&back);

    /* The score changed: fails too. */
    FILE *f = fopen(path, "r");
    char line[1024];
    int n = 1, result_line = -1;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "result ", 7))
            result_line = n;
        n++;
    }
    fclose(f);
    assert_true(result_line > 0);
    replace_line(path, bad, result_line,
                 r->rec.score[0] == 1.0 ? "result 0 1\n" : "result 1 0\n");
    assert_int_equal(read_record(bad, &back), 0);
    assert_int_equal(ref_record_verify(&back, &game_warchest, err, sizeof err), -1);
    ref_record_free(&back);

    /* A field given twice is refused: a second game line would make the
     * decisions read before it another game's actions (found by fuzzing:
     * the record read, but its own rewrite did not). */
    char first[256], twice[300];
    lineno = decision_line(path, 0, first, sizeof first);
    snprintf(twice, sizeof twice, "%sgame goofspiel\n", first);
    replace_line(path, bad, lineno, twice);
    assert_int_equal(read_record(bad, &back), -1);
    snprintf(twice, sizeof twice, "seed 9\n%s", first);
    replace_line(path, bad, lineno, twice);
    assert_int_equal(read_record(bad, &back), -1);

    /* A decision's log mark: without one (an older record) it is unknown;
     * one that is not a byte count is refused. */
    char *mark = strstr(first, " log=");
    assert_non_null(mark);
    char *after = strchr(mark + 1, ' ');
    snprintf(twice, sizeof twice, "%.*s%s", (int)(mark - first), first, after);
    replace_line(path, bad, lineno, twice);
    assert_int_equal(read_record(bad, &back), 0);
    assert_true(back.decisions[0].log_end == REF_LOG_UNMARKED);
    assert_true(back.decisions[1].log_end == r->rec.decisions[1].log_end);
    ref_record_free(&back);
    snprintf(twice, sizeof twice, "%.*s log=-4%s", (int)(mark - first), first, after);
    replace_line(path, bad, lineno, twice);
    assert_int_equal(read_record(bad, &back), -1);

    /* A decision's time as the writer spells it ("%.3f", read digit by
     * digit) or otherwise (through strtod): the same microseconds; out of
     * 0 to 4e6 ms, refused. */
    static const struct { const char *ms; int64_t us; } times[] = {
        { "0.001", 1 },       { "12.5", 12500 },       { "7", 7000 },
        { "0.0014", 1 },      { "1e3", 1000000 },      { "4000000.000", 4000000000 },
        { "003.250", 3250 },  { "4000000.001", -1 },   { "-0.001", -1 },
        { "12345678.000", -1 }, { "1.2.3", -1 },       { "", -1 },
    };
    char *ms_at = strchr(strchr(first, ' ') + 1, ' ') + 1, *ms_end = strchr(ms_at, ' ');
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        snprintf(twice, sizeof twice, "%.*s%s%s", (int)(ms_at - first), first, times[i].ms,
                 ms_end);
        replace_line(path, bad, lineno, twice);
        int rc = read_record(bad, &back);
        assert_int_equal(rc, times[i].us < 0 ? -1 : 0);
        if (rc == 0) {
            assert_int_equal(back.decisions[0].micros, times[i].us);
            ref_record_free(&back);
        }
    }

    unlink(bad);
    unlink(path);
    run_free(r);
}

/* ---- forfeits ----------------------------------------------------------- */

/* A three-way tie scores 1/3 each, written "0.333333" (six digits):
 * read back, the record still verifies. Goofspiel, 3 seats, every seat
 * bidding the same card each round (its lowest): each prize is split. */
static void test_record_three_way_tie(void **state)
{
    (void)state;
    const game_api *g = game_find("goofspiel"), *back_game = NULL;
    assert_non_null(g);
    char err[256] = "";
    game_options *o = game_options_new(g);
    assert_int_equal(game_options_parse(o, "players=3 cards=5", err, sizeof err), 0);
    void *s = calloc(1, g->state_size);
    assert_null(g->init(s, o, 7));
    ref_record rec;
    ref_record_init(&rec);
    snprintf(rec.game, sizeof rec.game, "%s", g->name);
    game_options_format(o, rec.options, sizeof rec.options);
    rec.seed = 7;
    rec.seats = 3;
    for (int i = 0; i < 3; i++)
        snprintf(rec.name[i], sizeof rec.name[i], "bot%d", i);
    game_action legal[GAME_MAX_ACTIONS];
    while (g->to_move(s) >= 0) {
        assert_true(g->legal(s, legal) > 0);
        ref_decision d = { .action = legal[0], .micros = 1000, .cpu_us = REF_UNMEASURED,
                           .wait_us = REF_UNMEASURED, .seat = (uint8_t)g->to_move(s),
                           .log_end = REF_LOG_UNMARKED };
        assert_int_equal(ref_record_add(&rec, &d), 0);
        g->apply(s, legal[0]);
    }
    assert_int_equal(g->result(s, rec.score, rec.reason, sizeof rec.reason, rec.detail,
                               sizeof rec.detail), 1);
    assert_true(rec.score[0] == 1.0 / 3 && rec.score[1] == 1.0 / 3 && rec.score[2] == 1.0 / 3);
    rec.culprit = -1;
    rec.hash = g->hash(s);
    assert_int_equal(ref_record_verify(&rec, g, err, sizeof err), 0);

    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(ref_record_write(&rec, g, f), 0);
    assert_int_equal(fclose(f), 0);
    assert_non_null(strstr(text, "result 0.333333 0.333333 0.333333\n"));
    ref_record back;
    f = fmemopen(text, len, "r");
    assert_int_equal(ref_record_read(&back, &back_game, f, err, sizeof err), 0);
    fclose(f);
    assert_ptr_equal(back_game, g);
    if (ref_record_verify(&back, g, err, sizeof err) != 0)
        fail_msg("a three-way tie read back does not verify: %s", err);
    /* Six digits are all it is read to: a score off by more still fails. */
    back.score[2] = 0.33334;
    assert_int_equal(ref_record_verify(&back, g, err, sizeof err), -1);
    ref_record_free(&back);
    ref_record_free(&rec);
    free(text);
    free(s);
    game_options_free(o);
}

static void test_crash(void **state)
{
    run *r = forfeit_match(1, "crash 3", REF_CRASH);
    int own, subs;
    count_decisions(&r->rec, 1, &own, &subs);
    assert_int_equal(own, 2);          /* it died asked for its 3rd */
    assert_int_equal(subs, 0);
    assert_non_null(strstr(r->rec.detail, "signal 6"));

    /* A forfeit's scores are part of what verifies: swapped, or the
     * culprit changed, the record is refused. */
    char err[256];
    r->rec.score[0] = 0, r->rec.score[1] = 1;
    assert_int_equal(ref_record_verify(&r->rec, &game_warchest, err, sizeof err), -1);
    r->rec.culprit = 0;
    assert_verifies(&r->rec);
    r->rec.culprit = 2;
    assert_int_equal(ref_record_verify(&r->rec, &game_warchest, err, sizeof err), -1);
    run_free(r);
}

static void test_crash_seat0_first_decision(void **state)
{
    run *r = forfeit_match(0, "crash 1", REF_CRASH);
    int own, subs;
    count_decisions(&r->rec, 0, &own, &subs);
    assert_int_equal(own, 0);
    run_free(r);
}

static void test_missing_program(void **state)
{
    run *r = run_new();
    snprintf(r->cmd[1], sizeof r->cmd[1], "ARENA_TEST_MARKER=%s exec /nonexistent/bot --marker=%s",
             r->marker, r->marker);
    run_play(r);
    assert_forfeit(&r->rec, REF_CRASH, 1);
    assert_int_equal(r->rec.ndecisions, 0);
    run_free(r);
}

static void test_hang(void **state)
{
    run *r = run_new();
    r->cfg.terms.move_ms = 200;
    r->cfg.terms.bank_ms = 300;
    run_badbot(r, 1, "hang");
    run_play(r);
    assert_forfeit(&r->rec, REF_TIMEOUT, 1);
    assert_non_null(strstr(r->rec.detail, "no action within"));
    run_free(r);
}

static void test_garbage(void **state)
{
    run *r = forfeit_match(1, "garbage", REF_MALFORMED);
    /* The culprit hears why, then the end. */
    char *log = run_log(r, 1, NULL);
    char *err = strstr(log, "recv error malformed\n");
    assert_non_null(err);
    assert_non_null(strstr(err, "recv end\n"));
    free(log);
    run_free(r);
}

/* Building and sending 100 MB can take the bot seconds on a loaded
 * machine; the time control must not end the match before the referee
 * sees the dropped connection, so it is generous here. */
static void test_huge(void **state)
{
    run *r = run_new();
    r->cfg.terms.move_ms = 20000;
    run_badbot(r, 1, "huge");
    run_play(r);
    assert_forfeit(&r->rec, REF_OVERSIZED, 1);
    run_free(r);
}

static void test_illegal(void **state)
{
    run *r = forfeit_match(0, "illegal", REF_ILLEGAL);
    assert_non_null(strstr(r->rec.detail, "is not one of the"));
    int own, subs;
    count_decisions(&r->rec, 0, &own, &subs);
    assert_int_equal(own + subs, 0);
    run_free(r);
}

static void test_exit(void **state)
{
    run *r = forfeit_match(1, "exit 2", REF_EXIT);
    int own, subs;
    count_decisions(&r->rec, 1, &own, &subs);
    assert_int_equal(own, 1);
    run_free(r);
}

static void test_out_of_turn(void **state)
{
    run_free(forfeit_match(1, "outofturn", REF_OUT_OF_TURN));
}

static void test_out_of_turn_seat0(void **state)
{
    run_free(forfeit_match(0, "outofturn", REF_OUT_OF_TURN));
}

/* An answer from a second connection is dropped, not held against the
 * seat (anyone may connect to an endpoint): the seat's own connection then
 * never answered. */
static void test_unknown_identity(void **state)
{
    run *r = forfeit_match(1, "identity", REF_TIMEOUT);
    char *log = run_log(r, 1, NULL);
    assert_non_null(strstr(log, "[arena: dropped a message on this seat's endpoint: from a "
                                "connection that is not the seat's own]"));
    free(log);
    run_free(r);
}

/* A bot that floods its own endpoint with raw connections (no greeting,
 * nothing sent: each a file of the referee's), before its hello or once
 * playing, loses `flood`: the referee lives and the other seat wins. Up
 * to REF_SEAT_CONNECTIONS in all (its own and 15 more) costs nothing. */
static void test_connection_flood(void **state)
{
    (void)state;
    run *r = forfeit_match(1, "conns 5:200", REF_FLOOD);
    assert_string_equal(r->rec.detail, "seat 1 opened more than 16 connections to its endpoint");
    run_free(r);
    run_free(forfeit_match(0, "lateconns 5:200", REF_FLOOD));
    run_free(forfeit_match(1, "conns 1:16", REF_FLOOD));
    r = run_new();
    run_badbot(r, 1, "conns 1:15");
    run_play(r);
    assert_game_result(&r->rec);
    char *log = run_log(r, 1, NULL);
    assert_non_null(strstr(log, "conns 15\n"));
    free(log);
    run_free(r);
}

/* index must be an integer (malformed otherwise) in range (illegal
 * otherwise); a text too long for any action is illegal, and says so. */
static void test_index_and_text_checks(void **state)
{
    run *r = forfeit_match(1, "floatindex", REF_MALFORMED);
    assert_non_null(strstr(r->rec.detail, "an index that is a float, not an integer"));
    run_free(r);
    r = forfeit_match(1, "negindex", REF_ILLEGAL);
    assert_non_null(strstr(r->rec.detail, "index -1 is not one of the"));
    run_free(r);
    r = forfeit_match(1, "longtext", REF_ILLEGAL);
    assert_non_null(strstr(r->rec.detail, "its text is too long to be an action (100000 bytes)"));
    run_free(r);
}

static void test_disconnect(void **state)
{
    run *r = forfeit_match(0, "disconnect 2", REF_DISCONNECT);
    int own, subs;
    count_decisions(&r->rec, 0, &own, &subs);
    assert_int_equal(own, 1);
    run_free(r);
}

static void test_answer_by_text(void **state)
{
    run *r = run_new();
    run_badbot(r, 1, "text");
    run_play(r);
    assert_game_result(&r->rec);
    run_free(r);
}

static void test_illegal_text(void **state)
{
    run *r = forfeit_match(1, "badtext", REF_ILLEGAL);
    assert_non_null(strstr(r->rec.detail, "'deploy nobody z9' is not a legal action"));
    run_free(r);
}

/* Text is matched byte for byte (PROTOCOL.md section 4): neither the start
 * of a legal action's text nor one with a space after it plays it. */
static void test_text_cut_short(void **state)
{
    run *r = forfeit_match(1, "shorttext", REF_ILLEGAL);
    assert_non_null(strstr(r->rec.detail, "' is not a legal action here"));
    assert_null(strstr(r->rec.detail, " ' is not"));
    run_free(r);
}

static void test_text_with_a_space_after(void **state)
{
    run *r = forfeit_match(0, "padtext", REF_ILLEGAL);
    assert_non_null(strstr(r->rec.detail, " ' is not a legal action here"));
    run_free(r);
}

static void test_no_index_nor_text(void **state)
{
    run_free(forfeit_match(0, "noindex", REF_MALFORMED));
}

static void test_two_frames(void **state)
{
    run *r = forfeit_match(1, "frames", REF_MALFORMED);
    assert_non_null(strstr(r->rec.detail, "2 frames"));
    run_free(r);
}

static void test_not_a_map(void **state)
{
    run *r = forfeit_match(1, "array", REF_MALFORMED);
    assert_non_null(strstr(r->rec.detail, "not a map"));
    run_free(r);
}

static void test_wrong_id(void **state)
{
    run_free(forfeit_match(0, "wrongid", REF_OUT_OF_TURN));
}

/* ---- strikes ------------------------------------------------------------ */

/* A timed-out decision is played for the bot; its late answer is ignored
 * and the match goes on. */
static void test_strikes_late_answer_ignored(void **state)
{
    run *r = run_new();
    r->cfg.terms.strikes = 2;
    r->cfg.terms.move_ms = 400;
    r->cfg.terms.bank_ms = 400;
    r->cfg.terms.clock = REF_CLOCK_WALL;     /* the bot sleeps */
    /* Times out at 800 ms; the bank is then spent, so a next request sent
     * at once has until 1200 ms: the bot answers both at 1000 ms. */
    run_badbot(r, 1, "late 1000");
    run_play(r);
    assert_game_result(&r->rec);
    int own, subs;
    count_decisions(&r->rec, 1, &own, &subs);
    assert_int_equal(subs, 1);
    assert_true(own > 0);
    run_free(r);
}

static void test_strikes_illegal(void **state)
{
    run *r = run_new();
    r->cfg.terms.strikes = 3;
    run_badbot(r, 1, "illegal");
    run_play(r);
    assert_forfeit(&r->rec, REF_ILLEGAL, 1);
    assert_non_null(strstr(r->rec.detail, "strike 3 of 3"));
    int own, subs;
    count_decisions(&r->rec, 1, &own, &subs);
    assert_int_equal(own, 0);
    assert_int_equal(subs, 2);
    count_decisions(&r->rec, 0, &own, &subs);
    assert_int_equal(subs, 0);

    /* The written record marks the substitutions, and still verifies. */
    char path[] = "/tmp/arena-test-record-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    write_record(&r->rec, path);
    FILE *f = fopen(path, "r");
    char line[1024];
    int random_lines = 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "decision 1 ", 11) && strstr(line, " random "))
            random_lines++;
    fclose(f);
    assert_int_equal(random_lines, 2);
    ref_record back;
    assert_int_equal(read_record(path, &back), 0);
    count_decisions(&back, 1, &own, &subs);
    assert_int_equal(subs, 2);
    assert_verifies(&back);
    ref_record_free(&back);
    unlink(path);
    run_free(r);
}

static void test_strikes_timeout(void **state)
{
    run *r = run_new();
    r->cfg.terms.strikes = 2;
    r->cfg.terms.move_ms = 200;
    r->cfg.terms.bank_ms = 200;
    run_badbot(r, 0, "hang");
    run_play(r);
    assert_forfeit(&r->rec, REF_TIMEOUT, 0);
    assert_non_null(strstr(r->rec.detail, "strike 2 of 2"));
    int own, subs;
    count_decisions(&r->rec, 0, &own, &subs);
    assert_int_equal(own, 0);
    assert_int_equal(subs, 1);
    run_free(r);
}

int main(int argc, char **argv)
{
    if (run_paths(argc, argv) < 0)
        return 2;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_vs_random),
        cmocka_unit_test(test_tcp_transport),
        cmocka_unit_test(test_draft),
        cmocka_unit_test(test_four_players_team_forfeit),
        cmocka_unit_test(test_child_processes_killed),
        cmocka_unit_test(test_flood_log_capped),
        cmocka_unit_test(test_slow_within_move_limit),
        cmocka_unit_test(test_record_roundtrip_and_tamper),
        cmocka_unit_test(test_record_three_way_tie),
        cmocka_unit_test(test_crash),
        cmocka_unit_test(test_crash_seat0_first_decision),
        cmocka_unit_test(test_missing_program),
        cmocka_unit_test(test_hang),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_huge),
        cmocka_unit_test(test_illegal),
        cmocka_unit_test(test_exit),
        cmocka_unit_test(test_out_of_turn),
        cmocka_unit_test(test_out_of_turn_seat0),
        cmocka_unit_test(test_unknown_identity),
        cmocka_unit_test(test_connection_flood),
        cmocka_unit_test(test_index_and_text_checks),
        cmocka_unit_test(test_disconnect),
        cmocka_unit_test(test_answer_by_text),
        cmocka_unit_test(test_illegal_text),
        cmocka_unit_test(test_text_cut_short),
        cmocka_unit_test(test_text_with_a_space_after),
        cmocka_unit_test(test_no_index_nor_text),
        cmocka_unit_test(test_two_frames),
        cmocka_unit_test(test_not_a_map),
        cmocka_unit_test(test_wrong_id),
        cmocka_unit_test(test_strikes_illegal),
        cmocka_unit_test(test_strikes_late_answer_ignored),
        cmocka_unit_test(test_strikes_timeout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
