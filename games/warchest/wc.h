/*
 * wc.h - the War Chest rules engine.
 *
 * A pure library: no I/O, no allocation. A game is one fixed-size value,
 * wc_state, that copies with a plain struct assignment, so search bots can
 * clone it freely. All chance comes from the PCG32 generator stored inside
 * the state, so (options, seed, actions) always replays the same game.
 *
 * The game is a sequence of decision points. wc_to_move() names the seat
 * that decides, wc_legal_actions() lists its choices, wc_apply() plays one.
 * Follow-ups that the rules leave to a player mid-turn (the Royal Guard's
 * supply choice, the Berserker's extra maneuvers, the Swordsman's step, the
 * Warrior Priest's drawn coin, the Mercenary's maneuver, each Footman's
 * maneuver, draft picks) are decision points of their own.
 *
 * Hexes are numbered 0..46 over the 4-player board; a 2-player game masks
 * the wings off. Sets of hexes are 64-bit masks (bit h = hex h).
 */
#ifndef WC_H
#define WC_H

#include <stddef.h>
#include <stdint.h>
#include "pcg.h"

/* ---- units and coins ---------------------------------------------------- */

enum {
    WC_ARCHER, WC_BERSERKER, WC_CAVALRY, WC_CROSSBOWMAN, WC_ENSIGN,
    WC_FOOTMAN, WC_KNIGHT, WC_LANCER, WC_LIGHT_CAVALRY, WC_MARSHALL,
    WC_MERCENARY, WC_PIKEMAN, WC_ROYAL_GUARD, WC_SCOUT, WC_SWORDSMAN,
    WC_WARRIOR_PRIEST,
    WC_NUNITS,
    WC_ROYAL = WC_NUNITS,   /* the Royal Coin: a coin, never a unit */
    WC_NCOINS
};
#define WC_NONE   0xFF      /* no unit, no hex, no seat */
#define WC_HIDDEN 0xFE      /* a coin the viewer may not see */

/* Where a seat's coins are. Board stacks are counted from the board. */
enum { WC_BAG, WC_HAND, WC_DISCARD_UP, WC_DISCARD_DOWN, WC_SUPPLY,
       WC_REMOVED, WC_NZONES };

/* ---- board -------------------------------------------------------------- */

#define WC_NHEX 47
#define WC_MAX_SEATS 4

typedef uint64_t wc_mask;

/* Geometry, generated at build time from board.md's rules (wc_tables.c). */
extern const int8_t  wc_hex_q[WC_NHEX], wc_hex_r[WC_NHEX];
extern const char    wc_hex_names[WC_NHEX][3];   /* "f4" */
extern const wc_mask wc_hex_adjacent[WC_NHEX];  /* distance 1 */
extern const wc_mask wc_hex_ring2[WC_NHEX];     /* distance exactly 2 */
extern const uint8_t wc_hex_step[WC_NHEX][6];   /* neighbour by direction */
extern const wc_mask wc_area_2p, wc_area_4p;
extern const wc_mask wc_locations_2p, wc_locations_4p;
extern const wc_mask wc_start_2p[2], wc_start_4p[2];

int  wc_hex_distance(int a, int b);
int  wc_hex_by_name(const char *name);          /* "f4" -> id, or -1 */
const char *wc_hex_name(int hex);               /* id -> "f4" */

/* ---- options and set-up ------------------------------------------------- */

enum { WC_SETUP_DEALT, WC_SETUP_DRAFT, WC_SETUP_FIXED };
enum { WC_GUARD_2018, WC_GUARD_REVISED };

typedef struct wc_options {
    uint8_t  players;          /* 2 or 4 */
    uint8_t  setup;            /* WC_SETUP_* */
    uint8_t  royal_guard;      /* WC_GUARD_*: which printing of the tactic */
    uint16_t round_limit;      /* after this many rounds: a draw (0 = none) */
    /* WC_SETUP_FIXED only: each seat's units, WC_NONE-terminated, and who
     * starts with the initiative (WC_NONE = a coin flip). */
    uint8_t  units[WC_MAX_SEATS][4];
    uint8_t  initiative;
} wc_options;

void wc_options_default(wc_options *o);         /* 2p, dealt, 2018, 100 */
/* Named fixed set-ups: "first-game", "gaugamela", "bannockburn", "crecy".
 * Returns 0, or -1 for an unknown name. */
int  wc_options_preset(wc_options *o, const char *name);
/* Checks a caller-built options value; NULL if fine, else why not. */
const char *wc_options_invalid(const wc_options *o);

/* ---- actions ------------------------------------------------------------ */

enum {
    WC_ACT_DEPLOY,   /* coin to hex `to` */
    WC_ACT_BOLSTER,  /* coin onto the stack at `at` */
    WC_ACT_MOVE,     /* unit at `at` to `to` */
    WC_ACT_CONTROL,  /* unit at `at` takes its location */
    WC_ACT_ATTACK,   /* unit at `at` attacks `target` */
    WC_ACT_TACTIC,   /* unit-specific, see wc_notation.c for each unit */
    WC_ACT_CLAIM,    /* face down: take the initiative */
    WC_ACT_RECRUIT,  /* face down: `unit` from supply to discard */
    WC_ACT_PASS,     /* face down */
    WC_ACT_GUARD_SUPPLY, /* Royal Guard attacked: lose a supply coin */
    WC_ACT_GUARD_UNIT,   /* ... or a coin from the stack */
    WC_ACT_STOP,     /* decline an optional follow-up */
    WC_ACT_PICK,     /* draft: take card `unit` */
    WC_NACT
};

/* One choice. Hex fields are WC_NONE when unused. Two actions are the same
 * choice exactly when all seven bytes are equal. */
typedef struct wc_action {
    uint8_t kind;      /* WC_ACT_* */
    uint8_t coin;      /* coin paid (WC_ROYAL, WC_HIDDEN) or WC_NONE */
    uint8_t unit;      /* recruit and pick: the unit; else WC_NONE */
    uint8_t at;        /* hex of the acting unit */
    uint8_t from, to;  /* a move: granted moves name the moved unit's hex */
    uint8_t target;    /* hex attacked */
    uint8_t pad_;      /* always 0 */
} wc_action;

#define WC_MAX_ACTIONS 1024

/* ---- state -------------------------------------------------------------- */

enum { WC_PHASE_DRAFT, WC_PHASE_PLAY, WC_PHASE_OVER };
enum { WC_END_NONE, WC_END_MARKERS, WC_END_ROUND_LIMIT };

/* What a pending follow-up frame asks for. */
enum {
    WC_FRAME_AFTER,      /* internal: a maneuver finished; check attributes */
    WC_FRAME_GUARD,      /* defender: supply or unit */
    WC_FRAME_BERSERKER,  /* owner: another maneuver for a stack coin, or stop */
    WC_FRAME_SWORDSMAN,  /* owner: a free one-hex move, or stop */
    WC_FRAME_PRIEST,     /* owner: play the drawn coin `coin` */
    WC_FRAME_MERCENARY,  /* owner: one maneuver, or stop */
    WC_FRAME_FOOTMAN,    /* acting seat: a maneuver for a listed Footman */
};
/* What the current decision is, as wc_decision() reports it. */
enum {
    WC_DECIDE_NONE,      /* game over */
    WC_DECIDE_DRAFT,
    WC_DECIDE_TURN,
    WC_DECIDE_GUARD = WC_FRAME_GUARD + 2,
    WC_DECIDE_BERSERKER, WC_DECIDE_SWORDSMAN, WC_DECIDE_PRIEST,
    WC_DECIDE_MERCENARY, WC_DECIDE_FOOTMAN
};

typedef struct wc_frame {
    uint8_t kind;      /* WC_FRAME_* */
    uint8_t seat;      /* who decides */
    uint8_t unit;      /* unit concerned */
    uint8_t hex;       /* where it stands */
    uint8_t arg;       /* AFTER: maneuver kind; PRIEST: coin; FOOTMAN: 2nd hex */
} wc_frame;

#define WC_MAX_FRAMES 16

typedef pcg32 wc_rng;          /* common/pcg.h */

typedef struct wc_state {
    wc_options opt;
    wc_rng   rng;
    uint8_t  phase;             /* WC_PHASE_* */
    uint8_t  nseats;
    uint8_t  turn;              /* seat whose turn it is */
    uint8_t  initiative;        /* seat holding the marker */
    uint8_t  claimed;           /* the marker moved this round */
    uint8_t  nframes;
    uint16_t round;             /* 1-based */
    uint8_t  winner;            /* side (0/1) or WC_NONE for a draw */
    uint8_t  end_reason;        /* WC_END_* */
    uint8_t  markers;           /* markers a side owns in all (6 or 8) */

    /* Coins. Units belong to one seat each (WC_NONE: not in this game). */
    uint8_t  unit_owner[WC_NUNITS];
    uint8_t  coins[WC_MAX_SEATS][WC_NZONES][WC_NCOINS];

    /* Board. A hex holds at most one stack: one unit type, >= 1 coin. */
    wc_mask  area;              /* hexes in play */
    wc_mask  locations;         /* control points in play */
    wc_mask  occupied;
    wc_mask  side_units[2];     /* hexes holding each side's units */
    wc_mask  unit_hexes[WC_NUNITS];
    wc_mask  control[2];        /* locations bearing each side's marker */
    uint8_t  hex_unit[WC_NHEX];
    uint8_t  hex_coins[WC_NHEX];

    /* Draft. */
    uint16_t draft_pool;        /* bit u: card u still on the table */
    uint8_t  draft_step;
    uint8_t  draft_first;       /* seat that picks first */

    wc_frame frames[WC_MAX_FRAMES];  /* pending follow-ups, top is last */
} wc_state;

/* Deals (or starts the draft) from `seed`. Returns NULL, or why the
 * options are invalid (the state is then unusable). */
const char *wc_init(wc_state *s, const wc_options *o, uint64_t seed);

int  wc_to_move(const wc_state *s);             /* seat, or -1 if over */
int  wc_decision(const wc_state *s);            /* WC_DECIDE_* */
int  wc_is_over(const wc_state *s);
/* Fills out[WC_MAX_ACTIONS]; returns the count (0 only when over). */
int  wc_legal_actions(const wc_state *s, wc_action *out);
int  wc_is_legal(const wc_state *s, const wc_action *a);
/* Plays a legal action. An illegal one is a caller bug (asserted). */
void wc_apply(wc_state *s, const wc_action *a);

static inline int wc_side_of(const wc_state *s, int seat)
{
    return s->nseats == 4 ? (seat & 1) : seat;
}
static inline int wc_popcount(wc_mask m) { return __builtin_popcountll(m); }

/* ---- notation ----------------------------------------------------------- */

/* "deploy archer d4", "tactic lancer e5-e3 x e2", "recruit royal footman".
 * Writes at most `size` bytes, NUL included; returns the length. */
int  wc_action_format(const wc_action *a, char *buf, size_t size);
/* Parses one action; returns 0, or -1 if the text is not an action. */
int  wc_action_parse(const char *text, wc_action *out);
/* What the other seats learn of `a`: face-down plays hide their coin. */
wc_action wc_action_public(const wc_action *a);
int  wc_action_equal(const wc_action *a, const wc_action *b);

const char *wc_decision_name(int decision);     /* "turn", "guard", ... */
int  wc_decision_by_name(const char *name);     /* -1 if unknown */
const char *wc_coin_name(int coin);             /* "light_cavalry", "royal" */
int  wc_coin_by_name(const char *name);         /* -1 if unknown */
int  wc_unit_coin_total(int unit);              /* 4 or 5 */

/* ---- observation -------------------------------------------------------- */

/* What one seat may know. Other seats' hidden zones are counts only. */
typedef struct wc_observation {
    uint8_t  seat, nseats, phase, decision, to_move, turn;
    uint8_t  initiative, claimed, winner, end_reason, markers;
    uint8_t  royal_guard;
    uint16_t round, round_limit;
    uint16_t draft_pool;
    uint8_t  unit_owner[WC_NUNITS];
    wc_mask  area, locations, control[2];
    uint8_t  hex_unit[WC_NHEX], hex_coins[WC_NHEX];
    /* Public, per seat. */
    uint8_t  supply[WC_MAX_SEATS][WC_NCOINS];
    uint8_t  discard_up[WC_MAX_SEATS][WC_NCOINS];
    uint8_t  removed[WC_MAX_SEATS][WC_NCOINS];
    uint8_t  bag_count[WC_MAX_SEATS], hand_count[WC_MAX_SEATS];
    uint8_t  discard_down_count[WC_MAX_SEATS];
    /* The viewer's own hidden zones. */
    uint8_t  hand[WC_NCOINS], bag[WC_NCOINS], discard_down[WC_NCOINS];
    /* The pending follow-up, if any: its unit and hex are public; the
     * Priest's drawn coin (arg) only to its owner; the Footman's arg is
     * its second hex; other kinds have arg WC_NONE. */
    wc_frame pending;
} wc_observation;

void wc_observe(const wc_state *s, int seat, wc_observation *out);
/* A full state consistent with what `o` shows, for bots that search: the
 * viewer's coins as they are; each other seat's hidden coins are the ones
 * the public counts imply, dealt at random (from `seed`) into its hand, bag
 * and face-down discards, so that every deal is equally likely. Later draws
 * come from `seed` too. Only the top pending follow-up is known to an
 * observer, so deeper ones are dropped. */
void wc_determinize(const wc_observation *o, uint64_t seed, wc_state *s);
/* Deals `seat`'s hidden coins (hand, bag, face-down discards) afresh from
 * `rng`, each zone keeping its size: the same counts, other contents; a
 * coin it holds in a pending step (the Warrior Priest's) is drawn again
 * from the new hand. What no other seat may see, changed: for the checks
 * that nothing another seat is told depends on it (game.h scramble_hidden). */
void wc_scramble_hidden(wc_state *s, int seat, wc_rng *rng);

/* ---- inspection --------------------------------------------------------- */

uint64_t wc_hash(const wc_state *s);
/* Checks every invariant; returns NULL, or the first one broken. */
const char *wc_check(const wc_state *s);
/* ASCII picture of the board and each seat's public zones. Returns the
 * length written (truncated to size-1). */
int  wc_render(const wc_state *s, char *buf, size_t size);

/* ---- building positions (tests, tools) --------------------------------- */

/* An empty board in the play phase: each seat's units from o->units with
 * all their coins in supply, Royal Coins in the bag, start markers placed,
 * seat 0 to act with the initiative, round 1, every hand empty. */
void wc_setup_empty(wc_state *s, const wc_options *o, uint64_t seed);
/* Moves n coins between a seat's zones. Returns 0, -1 if not enough. */
int  wc_move_coins(wc_state *s, int seat, int coin, int from, int to, int n);
/* Puts an n-coin stack of `unit` (taken from supply) on an empty hex. */
int  wc_place(wc_state *s, int hex, int unit, int n);
/* Sets a location's marker to side 0/1, or WC_NONE for neutral. */
void wc_set_control(wc_state *s, int hex, int side);

#endif
