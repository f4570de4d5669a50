/*
 * arena_db_schema.c - the arena database's schema: the ordered migration
 * scripts that arena_db.c applies (PRAGMA user_version counts how many),
 * from the first schema to the latest, ARENA_DB_SCHEMA.
 */
#include "arena_db_internal.h"

/*
 * Times are Unix milliseconds. Seeds are 64-bit patterns stored as signed
 * INTEGER; hashes are 16 lower-case hex digits. Bots are never deleted
 * (removed_at marks them) so every match keeps its bots.
 *
 * A migration is one script: it runs in one transaction with foreign keys
 * off, then `PRAGMA foreign_key_check` must find nothing (SQLite's 12-step
 * ALTER procedure, https://sqlite.org/lang_altertable.html#otheralter).
 * Scripts may use the named parameters of migrate_params() (arena_db.c).
 */

/* One field of a schema-1 tournament key ("format=F games=N ... bots=1,2 |
 * options"), from `head`, the part before " | " with a space in front;
 * NULL when the field is missing, which the NOT NULL columns then refuse. */
#define KEY_FIELD(name) \
    "substr(head, NULLIF(instr(head, ' " name "='), 0) + length(' " name "='))"

/*
 * Schema 11's triggers: seat S's results (NEW or OLD) against the seats of
 * other teams in its match, added to bot_opponents both ways with SIGN ""
 * or taken away with "-" (a pair left at 0-0-0 goes), and its forfeit.
 */
#define SUMS_UPSERT \
    " ON CONFLICT (bot_id, opponent_id) DO UPDATE SET wins = wins + excluded.wins," \
    " draws = draws + excluded.draws, losses = losses + excluded.losses;"
#define PAIRS_OF(S, SIGN, A, B) \
    "INSERT INTO bot_opponents(bot_id, opponent_id, wins, draws, losses)" \
    " SELECT " A ".bot_id, " B ".bot_id, " SIGN "(" A ".score > " B ".score)," \
    " " SIGN "(" A ".score = " B ".score), " SIGN "(" A ".score < " B ".score)" \
    " FROM match_seats o WHERE o.match_id = " S ".match_id AND o.team <> " S ".team" SUMS_UPSERT
#define ADD_SEAT(S) \
    PAIRS_OF(S, "", S, "o") PAIRS_OF(S, "", "o", S) \
    "INSERT OR IGNORE INTO bot_forfeits(bot_id, match_id) SELECT " S ".bot_id, " S ".match_id" \
    " FROM matches m WHERE m.id = " S ".match_id AND m.culprit = " S ".seat;"
#define DROP_SEAT(S) \
    PAIRS_OF(S, "-", S, "o") PAIRS_OF(S, "-", "o", S) \
    "DELETE FROM bot_opponents WHERE bot_id = " S ".bot_id" \
    " AND wins = 0 AND draws = 0 AND losses = 0;" \
    "DELETE FROM bot_opponents WHERE opponent_id = " S ".bot_id" \
    " AND bot_id IN (SELECT bot_id FROM match_seats WHERE match_id = " S ".match_id)" \
    " AND wins = 0 AND draws = 0 AND losses = 0;" \
    "DELETE FROM bot_forfeits WHERE bot_id = " S ".bot_id AND match_id = " S ".match_id" \
    " AND " S ".seat = (SELECT culprit FROM matches WHERE id = " S ".match_id);"

const char *const adb_migrations[] = {
    /* 1: the first schema */
    "CREATE TABLE bots("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL,"
    "  cmd TEXT NOT NULL,"
    "  cwd TEXT NOT NULL DEFAULT '',"
    "  version TEXT NOT NULL DEFAULT '',"
    "  added_at INTEGER NOT NULL,"
    "  removed_at INTEGER);"
    "CREATE UNIQUE INDEX bots_registered_name ON bots(name) WHERE removed_at IS NULL;"
    "CREATE TABLE tournaments("
    "  id INTEGER PRIMARY KEY,"
    "  key TEXT NOT NULL UNIQUE,"
    "  format TEXT NOT NULL,"
    "  games INTEGER NOT NULL,"
    "  options TEXT NOT NULL,"
    "  seed INTEGER NOT NULL,"
    "  bots TEXT NOT NULL,"
    "  planned INTEGER NOT NULL,"
    "  created_at INTEGER NOT NULL,"
    "  finished_at INTEGER);"
    "CREATE TABLE matches("
    "  id INTEGER PRIMARY KEY,"
    "  tournament_id INTEGER REFERENCES tournaments(id),"
    "  game_index INTEGER NOT NULL,"
    "  seed INTEGER NOT NULL,"
    "  options TEXT NOT NULL,"
    "  seats INTEGER NOT NULL CHECK (seats IN (2, 4)),"
    "  bot0 INTEGER NOT NULL REFERENCES bots(id),"
    "  bot1 INTEGER NOT NULL REFERENCES bots(id),"
    "  bot2 INTEGER REFERENCES bots(id),"
    "  bot3 INTEGER REFERENCES bots(id),"
    "  score0 REAL NOT NULL,"
    "  score1 REAL NOT NULL,"
    "  score2 REAL,"
    "  score3 REAL,"
    "  reason TEXT NOT NULL,"
    "  culprit INTEGER,"
    "  detail TEXT NOT NULL,"
    "  decisions INTEGER NOT NULL,"
    "  hash TEXT NOT NULL CHECK (length(hash) = 16),"
    "  record TEXT,"
    "  started_ms INTEGER NOT NULL,"
    "  finished_ms INTEGER NOT NULL,"
    "  elo_k REAL NOT NULL,"
    "  UNIQUE (tournament_id, game_index),"
    "  CHECK ((seats = 2) = (bot2 IS NULL AND bot3 IS NULL"
    "                        AND score2 IS NULL AND score3 IS NULL)));"
    "CREATE TABLE ratings("
    "  bot_id INTEGER PRIMARY KEY REFERENCES bots(id),"
    "  elo REAL NOT NULL,"
    "  games INTEGER NOT NULL);"
    "CREATE TABLE rating_history("
    "  match_id INTEGER NOT NULL REFERENCES matches(id),"
    "  bot_id INTEGER NOT NULL REFERENCES bots(id),"
    "  elo_before REAL NOT NULL,"
    "  elo_after REAL NOT NULL,"
    "  PRIMARY KEY (match_id, bot_id)) WITHOUT ROWID;"
    "PRAGMA application_id = 1098010209;",

    /*
     * 2: any game, any number of seats.
     * - Tournaments name their game and keep their whole spec in columns
     *   (read from the schema-1 key); the spec columns are the identity.
     * - Matches name their game; their seats move to match_seats, one row
     *   per seat. Schema 1 rated 4 seats as teams 0+2 against 1+3 and 2
     *   seats one against the other: team = seat % 2 says both.
     * - Every row written before holds :legacy_game.
     */
    "CREATE TABLE tournaments_new("
    "  id INTEGER PRIMARY KEY,"
    "  game TEXT NOT NULL,"
    "  format TEXT NOT NULL,"
    "  games INTEGER NOT NULL,"
    "  options TEXT NOT NULL,"
    "  seed INTEGER NOT NULL,"
    "  bots TEXT NOT NULL,"                    /* entrant ids in order, space-separated */
    "  move_ms INTEGER NOT NULL,"
    "  bank_ms INTEGER NOT NULL,"
    "  handshake_ms INTEGER NOT NULL,"
    "  strikes INTEGER NOT NULL,"
    "  elo_k REAL NOT NULL,"
    "  memory_mb INTEGER NOT NULL,"            /* -1: the referee's default */
    "  planned INTEGER NOT NULL,"
    "  created_at INTEGER NOT NULL,"
    "  finished_at INTEGER);"
    "INSERT INTO tournaments_new"
    " SELECT id, :legacy_game, format, games, options, seed, bots,"
    "  CAST(" KEY_FIELD("move_ms") " AS INTEGER),"
    "  CAST(" KEY_FIELD("bank_ms") " AS INTEGER),"
    "  CAST(" KEY_FIELD("handshake_ms") " AS INTEGER),"
    "  CAST(" KEY_FIELD("strikes") " AS INTEGER),"
    "  CAST(" KEY_FIELD("elo_k") " AS REAL),"
    "  COALESCE(CAST(" KEY_FIELD("memory_mb") " AS INTEGER), -1),"
    "  planned, created_at, finished_at"
    " FROM (SELECT *, ' ' || substr(key, 1, NULLIF(instr(key, ' | '), 0)) AS head"
    "       FROM tournaments);"
    "DROP TABLE tournaments;"
    "ALTER TABLE tournaments_new RENAME TO tournaments;"
    "CREATE UNIQUE INDEX tournaments_spec ON tournaments(game, format, games, options,"
    "  seed, bots, move_ms, bank_ms, handshake_ms, strikes, elo_k, memory_mb);"

    "CREATE TABLE matches_new("
    "  id INTEGER PRIMARY KEY,"
    "  tournament_id INTEGER REFERENCES tournaments(id),"
    "  game_index INTEGER NOT NULL,"
    "  game TEXT NOT NULL,"
    "  seed INTEGER NOT NULL,"
    "  options TEXT NOT NULL,"
    "  seats INTEGER NOT NULL CHECK (seats >= 2),"
    "  reason TEXT NOT NULL,"
    "  culprit INTEGER CHECK (culprit BETWEEN 0 AND seats - 1),"
    "  detail TEXT NOT NULL,"
    "  decisions INTEGER NOT NULL,"
    "  hash TEXT NOT NULL CHECK (length(hash) = 16),"
    "  record TEXT,"
    "  started_ms INTEGER NOT NULL,"
    "  finished_ms INTEGER NOT NULL,"
    "  elo_k REAL NOT NULL,"
    "  UNIQUE (tournament_id, game_index));"
    "INSERT INTO matches_new"
    " SELECT id, tournament_id, game_index, :legacy_game, seed, options, seats, reason,"
    "  culprit, detail, decisions, hash, record, started_ms, finished_ms, elo_k"
    " FROM matches;"
    "CREATE TABLE match_seats("
    "  match_id INTEGER NOT NULL REFERENCES matches(id),"
    "  seat INTEGER NOT NULL CHECK (seat >= 0),"
    "  bot_id INTEGER NOT NULL REFERENCES bots(id),"
    "  team INTEGER NOT NULL CHECK (team >= 0),"
    "  score REAL NOT NULL,"
    "  PRIMARY KEY (match_id, seat)) WITHOUT ROWID;"
    "INSERT INTO match_seats"
    "       SELECT id, 0, bot0, 0, score0 FROM matches"
    " UNION ALL SELECT id, 1, bot1, 1, score1 FROM matches"
    " UNION ALL SELECT id, 2, bot2, 0, score2 FROM matches WHERE seats = 4"
    " UNION ALL SELECT id, 3, bot3, 1, score3 FROM matches WHERE seats = 4;"
    "DROP TABLE matches;"
    "ALTER TABLE matches_new RENAME TO matches;"
    /* A bot's matches, newest first, a page at a time. */
    "CREATE INDEX match_seats_bot ON match_seats(bot_id, match_id);"
    "CREATE INDEX matches_game ON matches(game, seats);",

    /*
     * 3: versions, statuses, ladders and their rating history.
     * - A name may have several registered versions, one row each; a
     *   version names the one it follows. Every bot is active until
     *   disabled (with a reason) or retired.
     * - A ladder's matches carry its id and its own count as game_index.
     * - Each Bradley-Terry refresh of a ladder is a fit, with a row per bot.
     */
    "ALTER TABLE bots ADD COLUMN status TEXT NOT NULL DEFAULT 'active'"
    "  CHECK (status IN ('active', 'disabled', 'retired'));"
    "ALTER TABLE bots ADD COLUMN status_reason TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE bots ADD COLUMN status_ms INTEGER;"
    "ALTER TABLE bots ADD COLUMN previous_id INTEGER REFERENCES bots(id);"
    "DROP INDEX bots_registered_name;"
    "CREATE UNIQUE INDEX bots_registered_version ON bots(name, version)"
    "  WHERE removed_at IS NULL;"
    "CREATE INDEX bots_name ON bots(name, version);"
    "CREATE TABLE ladders("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL UNIQUE,"
    "  game TEXT NOT NULL,"
    "  options TEXT NOT NULL,"
    "  seed INTEGER NOT NULL,"
    "  created_at INTEGER NOT NULL);"
    "ALTER TABLE matches ADD COLUMN ladder_id INTEGER REFERENCES ladders(id);"
    "CREATE UNIQUE INDEX matches_ladder ON matches(ladder_id, game_index)"
    "  WHERE ladder_id IS NOT NULL;"
    "CREATE TABLE rating_fits("
    "  id INTEGER PRIMARY KEY,"
    "  ladder_id INTEGER NOT NULL REFERENCES ladders(id),"
    "  at_ms INTEGER NOT NULL,"
    "  matches INTEGER NOT NULL);"
    "CREATE TABLE rating_fit_bots("
    "  fit_id INTEGER NOT NULL REFERENCES rating_fits(id),"
    "  bot_id INTEGER NOT NULL REFERENCES bots(id),"
    "  rating REAL NOT NULL,"
    "  ci95 REAL NOT NULL,"
    "  games INTEGER NOT NULL,"
    "  PRIMARY KEY (fit_id, bot_id)) WITHOUT ROWID;"
    "CREATE INDEX rating_fit_bots_bot ON rating_fit_bots(bot_id, fit_id);",

    /* 4: each seat's log, an excerpt under the tournament's cap (ref_log.h),
     * kept with its match; retention deletes these rows only. */
    "CREATE TABLE match_logs("
    "  match_id INTEGER NOT NULL REFERENCES matches(id),"
    "  seat INTEGER NOT NULL CHECK (seat >= 0),"
    "  bytes INTEGER NOT NULL CHECK (bytes >= 0),"    /* the whole log's size */
    "  text BLOB NOT NULL,"                           /* the excerpt, any bytes */
    "  PRIMARY KEY (match_id, seat));",

    /*
     * 5: a bot's seats with their results, and its rating history, from an
     * index alone (a bot's W-D-L, its page of matches, its rating plot).
     */
    "DROP INDEX match_seats_bot;"
    "CREATE INDEX match_seats_bot ON match_seats(bot_id, match_id, team, score);"
    "CREATE INDEX rating_history_bot ON rating_history(bot_id, match_id);",

    /*
     * 6: the time control's clock is part of a tournament's spec (issue 17).
     * Tournaments stored before were played on the wall clock with bots
     * free to run between their turns, and keep saying so.
     */
    "ALTER TABLE tournaments ADD COLUMN clock TEXT NOT NULL DEFAULT 'wall';"
    "ALTER TABLE tournaments ADD COLUMN wall_ceiling_pct INTEGER NOT NULL DEFAULT 300;"
    "ALTER TABLE tournaments ADD COLUMN ponder INTEGER NOT NULL DEFAULT 1;"
    "DROP INDEX tournaments_spec;"
    "CREATE UNIQUE INDEX tournaments_spec ON tournaments(game, format, games, options,"
    "  seed, bots, move_ms, bank_ms, handshake_ms, strikes, elo_k, memory_mb, clock,"
    "  wall_ceiling_pct, ponder);",

    /* 7: a bot version's own environment (issue 11), NAME=VALUE lines
     * (referee/ref_env.h) handed to the bot besides ARENA_*; '' for none. */
    "ALTER TABLE bots ADD COLUMN env TEXT NOT NULL DEFAULT '';",

    /*
     * 8: matches an arena has handed to its workers and not yet stored, so
     * that a second arena on the same tournament plays the others; a claim
     * lapses when its arena stops renewing it (arena_db_claim.c).
     */
    "CREATE TABLE match_claims("
    "  tournament_id INTEGER NOT NULL REFERENCES tournaments(id),"
    "  game_index INTEGER NOT NULL,"
    "  owner INTEGER NOT NULL,"                       /* a running arena's random id */
    "  expires_ms INTEGER NOT NULL,"                  /* wall clock */
    "  PRIMARY KEY (tournament_id, game_index)) WITHOUT ROWID;"
    "CREATE INDEX match_claims_owner ON match_claims(owner);",

    /*
     * 9: a bot's rating history from indexes alone (the web's bot page,
     * `arena history`, a tournament's starting ratings): both ratings in
     * its index, and each match's finish time in an index of its own, far
     * denser than the rows it would otherwise read one per point.
     */
    "DROP INDEX rating_history_bot;"
    "CREATE INDEX rating_history_bot ON rating_history(bot_id, match_id, elo_before, elo_after);"
    "CREATE INDEX matches_finished ON matches(id, finished_ms);",

    /*
     * 10: each decision of a ladder's SPRT gate (arena_ladder_gate.h): the
     * new version, the older one it had to beat, the test's hypotheses and
     * its answer on their games. Judged again after a restart, a verdict is
     * the same: one row per outcome.
     */
    "CREATE TABLE gate_verdicts("
    "  id INTEGER PRIMARY KEY,"
    "  ladder_id INTEGER NOT NULL REFERENCES ladders(id),"
    "  bot_id INTEGER NOT NULL REFERENCES bots(id),"
    "  opponent_id INTEGER NOT NULL REFERENCES bots(id),"
    "  outcome TEXT NOT NULL CHECK (outcome IN ('passed', 'failed', 'capped', 'overruled')),"
    "  elo0 REAL NOT NULL, elo1 REAL NOT NULL, alpha REAL NOT NULL, beta REAL NOT NULL,"
    "  llr REAL NOT NULL, lower REAL NOT NULL, upper REAL NOT NULL,"
    "  wins INTEGER NOT NULL, draws INTEGER NOT NULL, losses INTEGER NOT NULL,"
    "  pairs INTEGER NOT NULL,"
    "  decided_ms INTEGER NOT NULL,"                  /* wall clock */
    "  UNIQUE (ladder_id, bot_id, opponent_id, outcome));",

    /*
     * 11: what a bot's page sums over all its matches, kept as matches are
     * stored: its W-D-L against each opponent, and the matches it
     * forfeited, each read by its bot from a few pages at any size (a
     * GROUP BY over a bot's seats, or a walk of all its matches for its
     * few forfeits, took milliseconds per thousand matches). Triggers keep
     * them, so every writer does, and a seat changed or deleted by hand
     * too: a pair is counted when the later of its two seats goes in (a
     * match's seats go in after it). `arena check` recomputes both.
     */
    "CREATE TABLE bot_opponents("
    "  bot_id INTEGER NOT NULL REFERENCES bots(id),"
    "  opponent_id INTEGER NOT NULL REFERENCES bots(id),"
    "  wins INTEGER NOT NULL, draws INTEGER NOT NULL, losses INTEGER NOT NULL,"
    "  PRIMARY KEY (bot_id, opponent_id)) WITHOUT ROWID;"
    "CREATE TABLE bot_forfeits("
    "  bot_id INTEGER NOT NULL REFERENCES bots(id),"
    "  match_id INTEGER NOT NULL REFERENCES matches(id),"
    "  PRIMARY KEY (bot_id, match_id)) WITHOUT ROWID;"
    "INSERT INTO bot_opponents " ADB_OPPONENTS_FROM_SEATS ";"
    "INSERT INTO bot_forfeits " ADB_FORFEITS_FROM_SEATS ";"
    "CREATE TRIGGER match_seat_added AFTER INSERT ON match_seats BEGIN " ADD_SEAT("NEW") " END;"
    "CREATE TRIGGER match_seat_removed BEFORE DELETE ON match_seats BEGIN " DROP_SEAT("OLD")
    " END;"
    "CREATE TRIGGER match_seat_leaving BEFORE UPDATE ON match_seats BEGIN " DROP_SEAT("OLD")
    " END;"
    "CREATE TRIGGER match_seat_changed AFTER UPDATE ON match_seats BEGIN " ADD_SEAT("NEW")
    " END;"
    "CREATE TRIGGER match_culprit_changed AFTER UPDATE OF culprit ON matches BEGIN"
    "  DELETE FROM bot_forfeits WHERE match_id = OLD.id AND bot_id ="
    "    (SELECT bot_id FROM match_seats WHERE match_id = OLD.id AND seat = OLD.culprit);"
    "  INSERT OR IGNORE INTO bot_forfeits(bot_id, match_id) SELECT s.bot_id, NEW.id"
    "    FROM match_seats s WHERE s.match_id = NEW.id AND s.seat = NEW.culprit;"
    "END;",

    /*
     * 12: the arenas at work (arena_db_claim.c): what each plays, its
     * workers, when it was last seen. An arena writes its row when it
     * starts, again as it renews its claims, and deletes it when it stops;
     * one killed leaves a row that stops being seen. The web's live page
     * reads them.
     */
    "CREATE TABLE arena_runs("
    "  owner INTEGER PRIMARY KEY,"                    /* its claims' owner, random */
    "  tournament_id INTEGER REFERENCES tournaments(id),"
    "  ladder_id INTEGER REFERENCES ladders(id),"
    "  host TEXT NOT NULL,"
    "  pid INTEGER NOT NULL,"
    "  workers INTEGER NOT NULL,"                     /* ready, local and remote */
    "  taken INTEGER NOT NULL,"                       /* matches handed to them */
    "  listening TEXT,"                               /* where remote workers connect */
    "  started_ms INTEGER NOT NULL,"                  /* wall clock */
    "  seen_ms INTEGER NOT NULL);",

    /*
     * 13: void matches (ARENA_VOID: judged without a result), which the
     * standings leave out: the few there are, found without a scan.
     */
    "CREATE INDEX matches_void ON matches(id) WHERE reason = 'void';",

    /*
     * 14: the games each bot version plays (issue 26): tournaments and
     * ladders schedule a bot only in its games. `bot add` finds them by
     * its check, or is told (--game). A bot stored before gets:
     * - the games of the matches it played without forfeiting them: a
     *   War-Chest-only bot entered in a Goofspiel tournament forfeited every
     *   game there, the very thing this table is to stop, so it keeps
     *   War Chest alone; a bot that played a game cleanly once plays it;
     * - else, a version that never played, the games of the version it
     *   follows (a new version of a Goofspiel bot is a Goofspiel bot);
     * - else :legacy_game, War Chest: the only game before Goofspiel, and
     *   the one every bot's check (`bot add`) played until now, so the
     *   one game such a bot is known to have passed.
     */
    "CREATE TABLE bot_games("
    "  bot_id INTEGER NOT NULL REFERENCES bots(id),"
    "  game TEXT NOT NULL,"
    "  PRIMARY KEY (bot_id, game)) WITHOUT ROWID;"
    "INSERT INTO bot_games SELECT DISTINCT s.bot_id, m.game"
    " FROM match_seats s JOIN matches m ON m.id = s.match_id"
    " WHERE m.culprit IS NULL OR m.culprit <> s.seat;"
    "WITH RECURSIVE up(id, prev) AS ("
    "  SELECT id, previous_id FROM bots WHERE id NOT IN (SELECT bot_id FROM bot_games)"
    "  UNION SELECT up.id, b.previous_id FROM up JOIN bots b ON b.id = up.prev"
    "  WHERE up.prev NOT IN (SELECT bot_id FROM bot_games))"
    " INSERT INTO bot_games SELECT up.id, g.game FROM up JOIN bot_games g ON g.bot_id = up.prev;"
    "INSERT INTO bot_games SELECT id, :legacy_game FROM bots"
    " WHERE id NOT IN (SELECT bot_id FROM bot_games);",

    /*
     * 15: participants from anywhere (arena_db_user.c): each participant's
     * CURVE public key, by which the gateway knows them, and whether it
     * still may; the bots they submitted (owner_id) and every bot's
     * content hash in the store (DB.store/HASH); each submission, accepted
     * or refused, with its games as declared (a bot's own are in
     * bot_games, 14), which the gateway's rate limit counts.
     */
    "CREATE TABLE users("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL UNIQUE,"
    "  public_key TEXT NOT NULL UNIQUE,"              /* Z85, 40 characters */
    "  endpoint TEXT NOT NULL,"                       /* the gateway, as handed out */
    "  added_ms INTEGER NOT NULL,"
    "  revoked_ms INTEGER);"
    "ALTER TABLE bots ADD COLUMN owner_id INTEGER REFERENCES users(id);"
    "ALTER TABLE bots ADD COLUMN content_hash TEXT;"
    "CREATE TABLE submissions("
    "  id INTEGER PRIMARY KEY,"
    "  user_id INTEGER NOT NULL REFERENCES users(id),"
    "  bot TEXT NOT NULL,"
    "  version TEXT NOT NULL,"
    "  games TEXT NOT NULL,"                          /* space-separated names */
    "  content_hash TEXT,"
    "  bytes INTEGER NOT NULL,"                       /* as sent */
    "  accepted INTEGER NOT NULL,"
    "  reason TEXT NOT NULL,"
    "  bot_id INTEGER REFERENCES bots(id),"
    "  at_ms INTEGER NOT NULL);"
    "CREATE INDEX submissions_by_user ON submissions(user_id, at_ms);",

    /*
     * 16: the workers an arena started with --curve-key admits (arena
     * worker add, beside the --curve-workers file): each a name and its
     * CURVE public key (Z85), until revoked. A running arena rereads the
     * table every beat (arena_workers.c), refusing a revoked key from then
     * on, and writes when it last heard each and the matches it played.
     */
    "CREATE TABLE workers("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL UNIQUE,"
    "  key TEXT NOT NULL UNIQUE,"                     /* its CURVE public key, Z85 */
    "  added_ms INTEGER NOT NULL,"                    /* wall clock */
    "  seen_ms INTEGER,"                              /* its last message, or NULL */
    "  matches INTEGER NOT NULL DEFAULT 0,"           /* results taken from it */
    "  revoked_ms INTEGER);",                         /* NULL while admitted */

    /*
     * 17: remote bots (arena_db_remote.c): a version that plays from its
     * participant's machine through `arena connect`, no files here; the
     * gateway keeps whether it is connected, since when, when it last
     * heard it, and the endpoint the arena's relays reach the gateway at.
     */
    "CREATE TABLE remote_bots("
    "  bot_id INTEGER PRIMARY KEY REFERENCES bots(id),"
    "  connected INTEGER NOT NULL DEFAULT 0,"
    "  since_ms INTEGER NOT NULL DEFAULT 0,"          /* connected or gone since */
    "  seen_ms INTEGER NOT NULL DEFAULT 0,"           /* its last message */
    "  gateway TEXT NOT NULL DEFAULT '');",
    /*
     * 18: per-scope result totals (arena_db_totals.c), so that the
     * standings, the crosstable and the web's leaderboard at a million
     * matches read their bots and pairs instead of every match: a kind of
     * match over every match, a tournament's or a ladder's; each bot's
     * counts and live Elo, each pair's games, 2 v 2 team games. The library
     * writes them with each match it stores; result_state counts what the
     * triggers see inserted, changed or deleted, and the reports use the
     * totals only while the two agree. arena_db.c fills them from the
     * matches stored (adb_totals_fill) in this migration's transaction.
     */
    ADB_TOTALS_TABLES("", ADB_REFERENCES)
    "CREATE TABLE result_state("
    "  one INTEGER PRIMARY KEY CHECK (one = 1),"
    "  matches_in INTEGER NOT NULL, seats_in INTEGER NOT NULL,"           /* the triggers' */
    "  matches_totalled INTEGER NOT NULL, seats_totalled INTEGER NOT NULL,"   /* the library's */
    "  edits INTEGER NOT NULL);"                      /* changes and deletions */
    "INSERT INTO result_state VALUES (1, 0, 0, 0, 0, 0);"
    "CREATE TRIGGER result_match_in AFTER INSERT ON matches BEGIN"
    "  UPDATE result_state SET matches_in = matches_in + 1; END;"
    "CREATE TRIGGER result_seat_in AFTER INSERT ON match_seats BEGIN"
    "  UPDATE result_state SET seats_in = seats_in + 1; END;"
    "CREATE TRIGGER result_match_edit AFTER UPDATE OF id, game, seats, reason, elo_k,"
    "  tournament_id, ladder_id ON matches BEGIN UPDATE result_state SET edits = edits + 1; END;"
    "CREATE TRIGGER result_match_gone AFTER DELETE ON matches BEGIN"
    "  UPDATE result_state SET edits = edits + 1; END;"
    "CREATE TRIGGER result_seat_edit AFTER UPDATE ON match_seats BEGIN"
    "  UPDATE result_state SET edits = edits + 1; END;"
    "CREATE TRIGGER result_seat_gone AFTER DELETE ON match_seats BEGIN"
    "  UPDATE result_state SET edits = edits + 1; END;",
    /* 19: nothing (a number held for parallel work that needed no
     * change); kept, as every number once given is. */
    "SELECT 19;",

    /*
     * 20: the matches in play (issue 28; arena_db_playing.c): each match an
     * arena's workers are playing, with its record so far as the worker
     * last sent it (ref_link.h `progress`), for the web to follow. Ids
     * start at ARENA_PLAYING_BASE, apart from the matches' own, so that one
     * id names it in play and, once stored (match_id), finished; never
     * given twice (AUTOINCREMENT), so an old address never shows another
     * match. The arena refreshes its rows at every beat; a row not seen for
     * a minute goes.
     */
    "CREATE TABLE matches_playing("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT,"         /* from ARENA_PLAYING_BASE, never again */
    "  owner INTEGER NOT NULL,"                       /* the arena (arena_runs.owner) */
    "  job INTEGER NOT NULL,"                         /* its game_index */
    "  tournament_id INTEGER REFERENCES tournaments(id),"
    "  ladder_id INTEGER REFERENCES ladders(id),"
    "  game TEXT NOT NULL,"
    "  options TEXT NOT NULL,"
    "  seed INTEGER NOT NULL,"                        /* as the matches' seed: 64 bits */
    "  bots TEXT NOT NULL,"                           /* bot ids in seat order, space-separated */
    "  started_ms INTEGER NOT NULL,"                  /* handed to its worker, wall clock */
    "  seen_ms INTEGER NOT NULL,"                     /* the arena's last beat with it */
    "  running INTEGER NOT NULL,"                     /* 1 while a worker plays it */
    "  record TEXT,"                                  /* so far: untrusted until stored */
    "  match_id INTEGER REFERENCES matches(id),"      /* once stored */
    "  UNIQUE (owner, job));",
};
_Static_assert(sizeof adb_migrations / sizeof adb_migrations[0] == ARENA_DB_SCHEMA,
               "ARENA_DB_SCHEMA names the last migration");
