/*
 * wc_notation.c - the text form of actions, for logs, records, protocols
 * and people. Every action prints as one line that parses back to the same
 * seven bytes; parsing needs no game state.
 *
 *   deploy archer d4            bolster footman d4
 *   move swordsman d4-d5        control swordsman d4
 *   attack swordsman d4 x d5    tactic archer d4 x d6
 *   tactic cavalry d4-d5 x d6   tactic lancer e5-e3 x e2
 *   tactic light_cavalry d4-d6  tactic royal d4-d5  (the Royal Guard)
 *   tactic ensign e3 d4-d5      tactic marshall e3 d4 x d5
 *   tactic footman              claim royal
 *   recruit royal footman       pass archer         pass ?  (coin hidden)
 *   guard supply                guard unit
 *   stop                        pick archer
 *
 * Tactics share one grammar: [at [from]] [-to] [x target]. Follow-ups that
 * move or attack with a unit (Berserker, Swordsman, Mercenary, Footman) are
 * written as the plain maneuver with that unit's name; the pending decision
 * says what they mean.
 */
#include <stdio.h>
#include <string.h>
#include "wc_internal.h"

static const char *const verbs[WC_NACT] = {
    "deploy", "bolster", "move", "control", "attack", "tactic", "claim",
    "recruit", "pass", "guard", "guard", "stop", "pick",
};

static const char *const decision_names[] = {
    [WC_DECIDE_NONE] = "none", [WC_DECIDE_DRAFT] = "draft", [WC_DECIDE_TURN] = "turn",
    [WC_DECIDE_GUARD] = "guard", [WC_DECIDE_BERSERKER] = "berserker",
    [WC_DECIDE_SWORDSMAN] = "swordsman", [WC_DECIDE_PRIEST] = "priest",
    [WC_DECIDE_MERCENARY] = "mercenary", [WC_DECIDE_FOOTMAN] = "footman",
};
#define NDECISIONS (int)(sizeof decision_names / sizeof decision_names[0])

const char *wc_decision_name(int decision)
{
    return decision >= 0 && decision < NDECISIONS ? decision_names[decision] : "?";
}

int wc_decision_by_name(const char *name)
{
    for (int d = 0; d < NDECISIONS; d++)
        if (strcmp(name, decision_names[d]) == 0)
            return d;
    return -1;
}

int wc_action_equal(const wc_action *a, const wc_action *b)
{
    return a->kind == b->kind && a->coin == b->coin && a->unit == b->unit &&
           a->at == b->at && a->from == b->from && a->to == b->to &&
           a->target == b->target;
}

wc_action wc_action_public(const wc_action *a)
{
    wc_action p = *a;
    if (a->kind == WC_ACT_CLAIM || a->kind == WC_ACT_RECRUIT || a->kind == WC_ACT_PASS)
        p.coin = WC_HIDDEN;
    return p;
}

int wc_action_format(const wc_action *a, char *buf, size_t size)
{
    char text[96];
    /* n is the running length; the last append leaves it unread. */
    // NOLINTBEGIN(clang-analyzer-deadcode.DeadStores)
    int n = 0;
    if (a->kind >= WC_NACT)
        return snprintf(buf, size, "?");
    n += snprintf(text + n, sizeof text - n, "%s", verbs[a->kind]);
    switch (a->kind) {
    case WC_ACT_GUARD_SUPPLY: n += snprintf(text + n, sizeof text - n, " supply"); break;
    case WC_ACT_GUARD_UNIT:   n += snprintf(text + n, sizeof text - n, " unit"); break;
    case WC_ACT_STOP:         break;
    case WC_ACT_PICK:
        n += snprintf(text + n, sizeof text - n, " %s", wc_coin_name(a->unit));
        break;
    default:
        n += snprintf(text + n, sizeof text - n, " %s", wc_coin_name(a->coin));
        if (a->kind == WC_ACT_RECRUIT)
            n += snprintf(text + n, sizeof text - n, " %s", wc_coin_name(a->unit));
        if (a->kind == WC_ACT_DEPLOY) {
            n += snprintf(text + n, sizeof text - n, " %s", wc_hex_name(a->to));
            break;
        }
        if (a->at != WC_NONE)
            n += snprintf(text + n, sizeof text - n, " %s", wc_hex_name(a->at));
        if (a->from != WC_NONE)
            n += snprintf(text + n, sizeof text - n, " %s", wc_hex_name(a->from));
        if (a->to != WC_NONE)
            n += snprintf(text + n, sizeof text - n, "-%s", wc_hex_name(a->to));
        if (a->target != WC_NONE)
            n += snprintf(text + n, sizeof text - n, " x %s", wc_hex_name(a->target));
    }
    // NOLINTEND(clang-analyzer-deadcode.DeadStores)
    return snprintf(buf, size, "%s", text);
}

/* Splits on spaces; "-" joins two hexes and is kept as its own token. */
static int tokenize(const char *text, char tok[8][24])
{
    int n = 0;
    for (const char *p = text; *p;) {
        if (*p == ' ') {
            p++;
            continue;
        }
        if (n == 8)
            return -1;
        size_t len = *p == '-' ? 1 : strcspn(p, " -");
        if (len >= 24)
            return -1;
        memcpy(tok[n], p, len);
        tok[n++][len] = 0;
        p += len;
    }
    return n;
}

static int parse_coin(const char *t, int allow_hidden)
{
    if (allow_hidden && strcmp(t, "?") == 0)
        return WC_HIDDEN;
    return wc_coin_by_name(t);
}

/* [at [from]] [- to] [x target], from token i on. */
static int parse_hexes(char tok[8][24], int i, int n, wc_action *a)
{
    int h;
    if (i < n && (h = wc_hex_by_name(tok[i])) >= 0) {
        a->at = (uint8_t)h;
        i++;
        if (i < n && (h = wc_hex_by_name(tok[i])) >= 0) {
            a->from = (uint8_t)h;
            i++;
        }
    }
    if (i + 1 < n && strcmp(tok[i], "-") == 0) {
        if ((h = wc_hex_by_name(tok[i + 1])) < 0)
            return -1;
        a->to = (uint8_t)h;
        i += 2;
    }
    if (i + 1 < n && strcmp(tok[i], "x") == 0) {
        if ((h = wc_hex_by_name(tok[i + 1])) < 0)
            return -1;
        a->target = (uint8_t)h;
        i += 2;
    }
    return i == n ? 0 : -1;
}

int wc_action_parse(const char *text, wc_action *out)
{
    char tok[8][24];
    int n = tokenize(text, tok);
    wc_action a = { 0, WC_NONE, WC_NONE, WC_NONE, WC_NONE, WC_NONE, WC_NONE, 0 };
    if (n < 1)
        return -1;
    int kind = -1;
    for (int k = 0; k < WC_NACT; k++)
        if (strcmp(tok[0], verbs[k]) == 0) {
            kind = k;
            break;
        }
    if (kind < 0)
        return -1;
    a.kind = (uint8_t)kind;
    switch (kind) {
    case WC_ACT_GUARD_SUPPLY:
        if (n != 2)
            return -1;
        if (strcmp(tok[1], "unit") == 0)
            a.kind = WC_ACT_GUARD_UNIT;
        else if (strcmp(tok[1], "supply") != 0)
            return -1;
        break;
    case WC_ACT_STOP:
        if (n != 1)
            return -1;
        break;
    case WC_ACT_PICK: {
        int u = n == 2 ? wc_coin_by_name(tok[1]) : -1;
        if (u < 0 || u >= WC_NUNITS)
            return -1;
        a.unit = (uint8_t)u;
        break;
    }
    case WC_ACT_CLAIM:
    case WC_ACT_PASS:
    case WC_ACT_RECRUIT: {
        int want = kind == WC_ACT_RECRUIT ? 3 : 2;
        int c = n == want ? parse_coin(tok[1], 1) : -1;
        if (c < 0)
            return -1;
        a.coin = (uint8_t)c;
        if (kind == WC_ACT_RECRUIT) {
            int u = wc_coin_by_name(tok[2]);
            if (u < 0 || u >= WC_NUNITS)
                return -1;
            a.unit = (uint8_t)u;
        }
        break;
    }
    default: {
        int c = n >= 2 ? wc_coin_by_name(tok[1]) : -1;
        if (c < 0 || (c == WC_ROYAL && kind != WC_ACT_TACTIC))
            return -1;
        a.coin = (uint8_t)c;
        if (parse_hexes(tok, 2, n, &a) < 0)
            return -1;
        if (kind == WC_ACT_DEPLOY) {        /* "deploy archer d4" */
            if (a.at == WC_NONE || a.from != WC_NONE || a.to != WC_NONE ||
                a.target != WC_NONE)
                return -1;
            a.to = a.at;
            a.at = WC_NONE;
        }
    }
    }
    *out = a;
    return 0;
}
