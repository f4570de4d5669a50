#!/usr/bin/env bash
# test_web.sh - `arena serve` end to end: a real tournament in a real
# database, the server on an ephemeral loopback port, then the HTTP tests
# of every API route and the browser tests (chromium via playwright-core).
# Screenshots land in SHOTS (the build dir).
#   test_web.sh ARENA REFEREE RANDOM GREEDY SHOTS [http|browser]
set -euo pipefail
ARENA=$(readlink -f "$1") REFEREE=$(readlink -f "$2") RANDOM_BOT=$(readlink -f "$3")
GREEDY_BOT=$(readlink -f "$4") SHOTS=$5 WHICH=${6:-all}
HERE=$(cd "$(dirname "$0")" && pwd)
MODULES=$(readlink -f "$HERE/../../web/node_modules")
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=$(command -v python3)
ROOT=$(mktemp -d "${TMPDIR:-/tmp}/arena-web.XXXXXX")
SERVER=
cleanup() {
  [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null
  [ -n "${PLAYER:-}" ] && kill "$PLAYER" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$ROOT"
}
trap cleanup EXIT
mkdir -p "$SHOTS"
cd "$ROOT"

A() { "$ARENA" --db "$ROOT/arena.db" "$@"; }
A bot add random --no-test --cmd "$RANDOM_BOT" >/dev/null
A bot add greedy --no-test --cmd "$GREEDY_BOT" >/dev/null
# The hostile-named bot prints a line per decision (ismcts --verbose, beside
# greedy in the build's agents/): the replay puts each beside its decision.
A bot add hostile --no-test --cmd "$(dirname "$GREEDY_BOT")/ismcts --verbose --playouts 20" >/dev/null
A tournament --games 2 --concurrency 2 --memory-mb 0 --quiet
# A second game, in two kinds (3 seats, then 2): matches 7-9 and 10-15,
# between random and two more of it (greedy plays only War Chest).
A bot add random2 --no-test --cmd "$RANDOM_BOT" >/dev/null
A bot add random3 --no-test --cmd "$RANDOM_BOT" >/dev/null
A tournament --game goofspiel --players 3 --format free-for-all --cards 5 --games 3 \
  --concurrency 2 --memory-mb 0 --quiet random random2 random3
A tournament --game goofspiel --cards 4 --games 2 --concurrency 2 --memory-mb 0 --quiet \
  random random2 random3
# A hostile name can only come from outside the arena's own checks (an older
# or edited database): put it there, then export match 1's record.
# Goofspiel's 2-seat matches (10-15) become a ladder's, one with a hostile
# name too (a ladder runner stores them so: no tournament, its own count).
"$PYTHON" - "$ROOT/arena.db" "$ROOT/record.txt" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE bots SET name = '<script>alert(1)</script>' WHERE name = 'hostile'")
db.execute("INSERT INTO ladders(id, name, game, options, seed, created_at)"
           " SELECT 1, '<b>night</b> & day', game, options, 7, 0 FROM tournaments WHERE id = 3")
db.execute("UPDATE matches SET ladder_id = 1, tournament_id = NULL WHERE tournament_id = 3")
# Match 2: a hostile log (markup, a byte that is not UTF-8) and detail.
log = b"<img src=x onerror=alert(2)>\n</pre><script>alert(3)</script>\xff\n"
db.execute("INSERT OR REPLACE INTO match_logs(match_id, seat, bytes, text) VALUES (2, 0, ?, ?)",
           (len(log), log))
db.execute("UPDATE matches SET detail = '<img src=x onerror=alert(4)>' WHERE id = 2")
# Two verdicts of the ladder's SPRT gate, as `arena ladder --gate sprt`
# stores them (tests/arena/test_arena_ladder_gate.sh): random3 failed
# against random2; the hostile bot passed against random.
for row in ((1, 5, 4, 'failed', -3.01, 2, 0, 10, 1700000000000),
            (2, 3, 1, 'passed', 3.02, 11, 1, 0, 1700000060000)):
    db.execute("INSERT INTO gate_verdicts(id, ladder_id, bot_id, opponent_id, outcome, elo0, elo1,"
               " alpha, beta, llr, lower, upper, wins, draws, losses, pairs, decided_ms)"
               " VALUES (?, 1, ?, ?, ?, 0, 10, 0.05, 0.05, ?, -2.944, 2.944, ?, ?, ?, 6, ?)", row)
# Tournament 1's matches stored in one millisecond (as a fast batch can be):
# greedy's rating history is points that share one time. random3 is on
# trial (as `arena ladder --gate sprt` marks a new version).
db.execute("UPDATE matches SET finished_ms = (SELECT max(finished_ms) FROM matches"
           " WHERE tournament_id = 1) WHERE tournament_id = 1")
db.execute("UPDATE bots SET status_reason = 'on trial: against random2' WHERE name = 'random3'")
# An arena killed long ago on a host with a hostile name: its row stayed.
db.execute("INSERT INTO arena_runs(owner, tournament_id, host, pid, workers, taken, listening,"
           " started_ms, seen_ms) VALUES (5, 1, '<i>box</i>', 4242, 3, 2, 'tcp://127.0.0.1:7000',"
           " 1700000000000, 1700000060000)")
db.commit()
open(sys.argv[2], "w").write(db.execute("SELECT record FROM matches WHERE id = 1").fetchone()[0])
PY
"$REFEREE" show "$ROOT/record.txt" > "$ROOT/show.txt"

. "$HERE/serve.sh"
serve "$ROOT/arena.db" "$ROOT/serve.out"

if [ "$WHICH" != browser ]; then
  node "$HERE/test_web_http.mjs" "$URL"
  # Idle, half-sent and flooding connections beside a new visitor: a bound
  # in time, meaningless under valgrind's slowdown.
  if [ -z "${WEB_SERVER_WRAPPER:-}" ]; then
    node "$HERE/test_web_idle.mjs" "$URL"
  else
    echo "skip test_web_idle.mjs: its one-second bound means nothing under $WEB_SERVER_WRAPPER"
  fi
  # Bad flags: a one-line reason, exit 2.
  for bad in "--threads 0" "--threads 4097" "--per-address -1" "--per-address x"; do
    # shellcheck disable=SC2086
    "$ARENA" --db "$ROOT/arena.db" serve $bad > "$ROOT/bad.out" 2>&1 && fail=0 || fail=$?
    [ "$fail" = 2 ] && [ "$(wc -l < "$ROOT/bad.out")" = 1 ] ||
      { echo "serve $bad: exit $fail"; cat "$ROOT/bad.out"; exit 1; }
  done
fi
if [ "$WHICH" != http ]; then
  # The demo's install (scripts/install-deps.sh) leaves these out.
  [ -d "$MODULES/playwright-core" ] && [ -x "${CHROMIUM:-/usr/bin/chromium}" ] || {
    echo "test_web_browser: needs chromium and web/node_modules/playwright-core: run scripts/install-deps.sh --test" >&2
    exit 1
  }
  node "$HERE/test_web_browser.mjs" "$URL" "$ROOT/show.txt" "$SHOTS" "$MODULES"
fi
kill -TERM "$SERVER"
wait "$SERVER"
SERVER=
grep -q 'stopped' "$ROOT/serve.out"

# A Swiss (5 bots: a bye a round) and a knockout (3 byes, 4 ties), one
# bot with a hostile name: their tables on the web, every number checked
# against the test's own count from their matches.
E() { "$ARENA" --db "$ROOT/events.db" "$@"; }
for i in 1 2 3; do E bot add "r$i" --no-test --cmd "$RANDOM_BOT --seed $i" >/dev/null; done
E bot add g1 --no-test --cmd "$GREEDY_BOT" >/dev/null
E bot add g2 --no-test --cmd "$GREEDY_BOT" >/dev/null
E tournament --format swiss --rounds 3 --games 2 --seed 7 --concurrency 2 --memory-mb 0 --quiet
E tournament --format knockout --games 2 --seed 9 --concurrency 2 --memory-mb 0 --quiet
"$PYTHON" -c 'import sqlite3, sys; d = sqlite3.connect(sys.argv[1]); d.execute("UPDATE bots SET name = ? WHERE name = ?", ("<i>g2</i>", "g2")); d.commit()' "$ROOT/events.db"
serve "$ROOT/events.db" "$ROOT/serve-events.out"
if [ "$WHICH" != browser ]; then
  node "$HERE/test_web_event.mjs" "$URL" 1 2 2
else
  node "$HERE/test_web_event.mjs" "$URL" 1 2 2 "$MODULES" "$SHOTS"
fi
kill -TERM "$SERVER"
wait "$SERVER"
SERVER=

# A match in play followed by the pages (the HTTP side is below, beside
# the live page's): slow bots, 300 ms a decision, two matches at a time.
if [ "$WHICH" != http ]; then
  ISMCTS="$(dirname "$GREEDY_BOT")/ismcts --ms 300"
  "$ARENA" --db "$ROOT/follow.db" bot add slow1 --no-test --cmd "$ISMCTS" >/dev/null
  "$ARENA" --db "$ROOT/follow.db" bot add slow2 --no-test --cmd "$ISMCTS" >/dev/null
  serve "$ROOT/follow.db" "$ROOT/serve-follow.out"
  "$ARENA" --db "$ROOT/follow.db" tournament --games 4 --concurrency 2 --memory-mb 0 --quiet \
    > "$ROOT/follow-arena.out" 2>&1 &
  PLAYER=$!
  node "$HERE/test_web_playing.mjs" "$URL" "$MODULES" "$SHOTS" || { kill -TERM "$PLAYER"; exit 1; }
  kill -TERM "$PLAYER"
  wait "$PLAYER" || true              # SIGTERM: stores what is finished, exits 130
  PLAYER=
  kill -TERM "$SERVER"
  wait "$SERVER"
  SERVER=
fi

# Freshness: a copy of the database, changed under its server by a real
# tournament and a bot put on trial; the standings show it within 5 s.
if [ "$WHICH" != browser ]; then
  "$PYTHON" -c 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).backup(sqlite3.connect(sys.argv[2]))' \
    "$ROOT/arena.db" "$ROOT/fresh.db"
  serve "$ROOT/fresh.db" "$ROOT/serve-fresh.out"
  node "$HERE/test_web_fresh.mjs" "$URL" "$ARENA" "$ROOT/fresh.db" "$PYTHON"
  kill -TERM "$SERVER"
  wait "$SERVER"
  SERVER=
fi

# Bots with more matches than a plot has points, forfeits and logs: the
# benchmark's own database, small (4 bots, each in some 1,400 matches).
if [ "$WHICH" != browser ]; then
  "$ARENA" bench --web --matches 2400 --bots 4 --clients 1 --requests 12 \
    --keep "$ROOT/big.db" > "$ROOT/bench.out" 2>&1 || { cat "$ROOT/bench.out"; exit 1; }
  serve "$ROOT/big.db" "$ROOT/serve-big.out"
  node "$HERE/test_web_scale.mjs" "$URL" bot1 bot2
  kill -TERM "$SERVER"
  wait "$SERVER"
  SERVER=

  # A tournament playing while the web reads it: slow bots (ismcts, 300 ms a
  # decision), two matches at a time, stopped with SIGTERM part way.
  L() { "$ARENA" --db "$ROOT/live.db" "$@"; }
  ISMCTS="$(dirname "$GREEDY_BOT")/ismcts --ms 300"
  L bot add slow1 --no-test --cmd "$ISMCTS" >/dev/null
  L bot add slow2 --no-test --cmd "$ISMCTS" >/dev/null
  serve "$ROOT/live.db" "$ROOT/serve-live.out"
  "$ARENA" --db "$ROOT/live.db" tournament --games 8 --concurrency 2 --memory-mb 0 --quiet \
    > "$ROOT/live-arena.out" 2>&1 &        # not through L: $! must be the arena itself
  PLAYER=$!
  node "$HERE/test_web_live.mjs" "$URL" playing 8 "$PLAYER" || { kill -TERM "$PLAYER"; exit 1; }
  # One of its matches followed as it plays, until it is stored.
  node "$HERE/test_web_playing.mjs" "$URL" || { kill -TERM "$PLAYER"; exit 1; }
  kill -TERM "$PLAYER"
  wait "$PLAYER" && fail=0 || fail=$?   # SIGTERM: stores what is finished, exits 130
  PLAYER=
  [ "$fail" = 130 ] || { echo "the arena stopped with $fail"; cat "$ROOT/live-arena.out"; exit 1; }
  node "$HERE/test_web_live.mjs" "$URL" stopped 8 0
  kill -TERM "$SERVER"
  wait "$SERVER"
  SERVER=
fi
