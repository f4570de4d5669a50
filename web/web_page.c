/*
 * web_page.c - one stored match as a self-contained page (web_page.h).
 *
 * The page is the replay viewer's own (match.js with app.js and the board
 * view of the match's game, as `arena serve` sends them, from
 * web_assets.c): its data come from web_api_match, the route's own
 * handler, once per view, and a few lines between app.js and match.js
 * answer the viewer's API calls from them. Text inside <script> and
 * <style> cannot hold "</": JSON writes '<' as \u003c, scripts and style
 * have "</" broken as "<\/".
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "arena_db.h"
#include "web_assets.h"
#include "web_internal.h"
#include "web_page.h"

/* Answers Arena.api and Arena.param from the embedded views, and tells
 * the viewer its game's board view is in the page already (it loads none);
 * the viewer notes its view in the address, which a file: page may refuse. */
static const char shim[] =
    "(() => {\n"
    "  const views = ARENA_MATCH, id = String(views.full.id);\n"
    "  Arena.bundled = true;\n"
    "  Arena.param = name => name === 'id' ? id : new URLSearchParams(location.search).get(name);\n"
    "  Arena.api = async path => {\n"
    "    const view = new URL(path, 'file:///').searchParams.get('view') || 'full';\n"
    "    if (!(view in views)) throw new Error('this page holds no view ' + view);\n"
    "    return views[view];\n"
    "  };\n"
    "  const replace = history.replaceState.bind(history);\n"
    "  history.replaceState = (...a) => { try { replace(...a); } catch (e) { /* file: */ } };\n"
    "})();\n";

/* Text into a <script> or <style> element: every "</" as "<\/". */
static void put_raw(FILE *out, const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        fputc(s[i], out);
        if (s[i] == '<' && i + 1 < n && s[i + 1] == '/')
            fputc('\\', out);
    }
}

/* JSON into a <script>: '<' only ever appears inside a string there. */
static void put_json(FILE *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '<')
            fputs("\\u003c", out);
        else
            fputc(s[i], out);
    }
}

/* The replay JSON of one view ("full" or a seat) as the API sends it: 0,
 * or -1 with err. */
static int view_json(arena_db *db, const char *idtext, const char *view, FILE *out, char *err,
                     size_t size)
{
    static const char *const allowed[] = { "view", NULL };
    char query[32];
    snprintf(query, sizeof query, "view=%s", view);
    web_req *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, size, "out of memory");
        return -1;
    }
    jw_init(&r->out);
    r->db = db;
    r->path_rest = idtext;
    int rc = web_query_parse(r, query, allowed);
    if (rc == 0)
        rc = web_api_match(r);
    if (rc == 0 && jw_failed(&r->out)) {
        snprintf(r->error, sizeof r->error, "out of memory");
        rc = -1;
    }
    if (rc == 0)
        put_json(out, r->out.buf, r->out.len);
    else
        snprintf(err, size, "%s", r->error);
    jw_free(&r->out);
    free(r);
    return rc ? -1 : 0;
}

int web_match_page(arena_db *db, int64_t id, FILE *out, char *err, size_t size)
{
    arena_match m;
    char idtext[24];
    int found = arena_db_match_get(db, id, &m);
    if (found != 0) {
        snprintf(err, size, found > 0 ? "no match %" PRId64 : "cannot read match %" PRId64, id);
        return -1;
    }
    int seats = m.seats;
    /* The board view of the match's game, if it has one (else: text). */
    char board[sizeof m.game + 32];
    snprintf(board, sizeof board, "/static/games/%s.js", m.game);
    arena_match_free(&m);
    const web_asset *style = web_asset_find("/static/style.css");
    if (!style) {
        snprintf(err, size, "this build has no replay page");
        return -1;
    }
    snprintf(idtext, sizeof idtext, "%" PRId64, id);
    fprintf(out, "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<title>Match %s · Arena</title>\n<style>\n", idtext);
    put_raw(out, style->data, style->size);
    fputs("</style>\n</head>\n<body>\n<main id=\"main\"><p class=\"muted\">Loading…</p></main>\n"
          "<script>\nconst ARENA_MATCH = {\"full\": ", out);
    if (view_json(db, idtext, "full", out, err, size) < 0)
        return -1;
    for (int seat = 0; seat < seats; seat++) {
        char view[16];
        snprintf(view, sizeof view, "%d", seat);
        fprintf(out, ",\n\"%d\": ", seat);
        if (view_json(db, idtext, view, out, err, size) < 0)
            return -1;
    }
    fputs("};\n</script>\n", out);
    const char *const scripts[] = { "/static/app.js", NULL /* the shim */, board,
                                    "/static/match.js" };
    for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; i++) {
        const web_asset *a = scripts[i] ? web_asset_find(scripts[i]) : NULL;
        if (scripts[i] == board && !a)
            continue;
        if (scripts[i] && !a) {
            snprintf(err, size, "this build has no %s", scripts[i]);
            return -1;
        }
        fputs("<script>\n", out);
        if (a)
            put_raw(out, a->data, a->size);
        else
            fputs(shim, out);
        fputs("</script>\n", out);
    }
    fputs("</body>\n</html>\n", out);
    return ferror(out) ? (snprintf(err, size, "cannot write the page"), -1) : 0;
}
