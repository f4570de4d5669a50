/*
 * web_api_gates.c - GET /api/gates: the verdicts of the ladders' SPRT
 * gates (arena_ladder_gate.h; stored since schema 10), newest first: one
 * ladder's (`ladder=NAME`), one bot's as the new version or as the one it
 * had to beat (`bot=NAME`), or everyone's; at most 200 (web/API.md).
 */
#include <sqlite3.h>
#include "web_internal.h"

static const char GATES[] =
    "SELECT g.id, l.name, g.bot_id, " ARENA_DB_BOT_LABEL("b") ", g.opponent_id,"
    " " ARENA_DB_BOT_LABEL("o") ", g.outcome, g.elo0, g.elo1, g.alpha, g.beta, g.llr, g.lower,"
    " g.upper, g.wins, g.draws, g.losses, g.pairs, g.decided_ms"
    " FROM gate_verdicts g JOIN ladders l ON l.id = g.ladder_id"
    " JOIN bots b ON b.id = g.bot_id JOIN bots o ON o.id = g.opponent_id"
    " WHERE (?1 = 0 OR g.ladder_id = ?1) AND (?2 = 0 OR ?2 IN (g.bot_id, g.opponent_id))"
    " ORDER BY g.id DESC LIMIT 200";
/* The columns' names in the JSON, in order. */
static const char *const KEYS[] = { "id", "ladder", "bot_id", "bot", "opponent_id", "opponent",
                                    "outcome", "elo0", "elo1", "alpha", "beta", "llr", "lower",
                                    "upper", "wins", "draws", "losses", "pairs", "decided_ms" };

int web_api_gates(web_req *r)
{
    const char *bot = web_param(r, "bot");
    int64_t ladder = 0, bot_id = 0;
    if (web_param_ladder(r, &ladder) != 0 || (bot && *bot && web_bot_id(r, bot, &bot_id) != 0))
        return -1;
    sqlite3 *h = arena_db_sqlite(r->db);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h, GATES, -1, &st, NULL) != SQLITE_OK) {
        sqlite3_finalize(st);
        return web_fail(r, 503, "cannot read the gates: %s", sqlite3_errmsg(h));
    }
    _Static_assert(sizeof KEYS / sizeof KEYS[0] == 19, "a key per column of GATES");
    sqlite3_bind_int64(st, 1, ladder);
    sqlite3_bind_int64(st, 2, bot_id);
    jw *w = &r->out;
    jw_obj(w);
    jw_key(w, "gates");
    jw_arr(w);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        jw_obj(w);
        for (int i = 0; i < (int)(sizeof KEYS / sizeof KEYS[0]); i++) {
            jw_key(w, KEYS[i]);
            web_put_column(w, st, i);
        }
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : web_fail(r, 503, "cannot read the gates");
}
