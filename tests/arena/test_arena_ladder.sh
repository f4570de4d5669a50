#!/usr/bin/env bash
# test_arena_ladder.sh - `arena ladder` end to end with real bots and the
# real referee: six sample bots and one that crashes; while it runs a second
# shell adds a version and disables a bot (both picked up); the crashing bot
# is disabled after --max-forfeits with its reason; SIGTERM stops it with
# what ran stored, and the same command goes on: `arena check` clean, no
# game_index twice, none reused. Bounded: every wait has a deadline.
#
# usage: test_arena_ladder.sh ARENA RANDOM GREEDY SQL
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 ARENA RANDOM GREEDY SQL" >&2; exit 2; }
arena=$(readlink -f "$1") random=$(readlink -f "$2") greedy=$(readlink -f "$3")
sqltool=$(readlink -f "$4")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-ladder.XXXXXX")
pid=
trap '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"
FAIL_LOG="$tmp/log"
db=$tmp/arena.db
A() { "$arena" --db "$db" "$@"; }
sql() { "$sqltool" "$db" "$1"; }
# Waits (up to 90 s) until the SQL query prints something other than 0.
wait_for() {
  for _ in $(seq 450); do
    [ "$(sql "$1")" != 0 ] && return 0
    kill -0 "$pid" 2>/dev/null || fail "the ladder died waiting for: $2"
    sleep 0.2
  done
  fail "timed out waiting for: $2"
}
games_of() {
  sql "SELECT count(*) FROM match_seats s JOIN matches m ON m.id = s.match_id
       JOIN bots b ON b.id = s.bot_id WHERE m.ladder_id IS NOT NULL AND $1"
}

for b in r1 r2 r3 r4; do A bot add $b --no-test --cmd "$random" >/dev/null; done
for b in g1 g2; do A bot add $b --no-test --cmd "$greedy" >/dev/null; done
A bot add crasher --no-test --cmd /bin/false >/dev/null
# Short clocks keep the matches quick; the bots re-read every 0.2 s.
flags=(--name main --concurrency 2 --move-ms 200 --bank-ms 2000 --max-forfeits 3
       --fit-every 5 --reload 0.2 --log-seconds 1 --grace 20)
"$arena" --db "$db" ladder "${flags[@]}" 2>"$tmp/log" &
pid=$!
wait_for "SELECT count(*) >= 10 FROM matches" "10 matches"

# A second shell: a new version of r1, and r2 disabled.
A bot add r1 --no-test --cmd "$random" --version 2 >/dev/null
A bot disable r2 --reason "by hand" >/dev/null
for _ in $(seq 100); do
  grep -q "r2 no longer plays" "$tmp/log" && grep -q "r1@2 plays" "$tmp/log" && break
  sleep 0.1
done
grep -q "r2 no longer plays" "$tmp/log" || fail "r2's disabling not picked up"
r2_then=$(games_of "b.name = 'r2'")
wait_for "SELECT count(*) >= 2 FROM match_seats s JOIN matches m ON m.id = s.match_id
          JOIN bots b ON b.id = s.bot_id WHERE b.name = 'r1' AND b.version = '2'" "r1@2 playing"
wait_for "SELECT count(*) FROM bots WHERE name = 'crasher' AND status = 'disabled'" \
  "the crashing bot disabled"
wait_for "SELECT count(*) >= 30 FROM matches" "30 matches"
# The ladder's row among the arenas at work (schema 12): its pid, its two workers.
wait_for "SELECT count(*) FROM arena_runs WHERE pid = $pid AND workers = 2
          AND ladder_id IS NOT NULL" "the ladder's row with its two workers"
[ "$(sql "SELECT count(*) FROM arena_runs")" = 1 ] || fail "arena_runs: $(sql "SELECT * FROM arena_runs")"

kill -TERM "$pid"
rc=0; wait "$pid" || rc=$?
pid=
[ "$rc" = 0 ] || fail "SIGTERM: exit $rc"
grep -q "stopped: .* matches stored this run.*run the same command to go on" "$tmp/log" ||
  fail "no stop message"
# r2 played at most the seed pair it was in when it was disabled.
[ "$(games_of "b.name = 'r2'")" -le $((r2_then + 2)) ] || fail "r2 kept playing"

A bot list --format json >"$tmp/bots.json"
python3 - "$tmp/bots.json" <<'PY' || fail "bot list: $(cat "$tmp/bots.json")"
import json, sys
bots = {b["bot"]: b for b in json.load(open(sys.argv[1]))}
c = bots["crasher"]
assert c["status"] == "disabled", c
assert c["reason"].startswith("3 forfeits in a row in ladder main (") and "last match " in c["reason"], c
assert bots["r2"]["status"] == "disabled" and bots["r2"]["reason"] == "by hand"
assert bots["r1@2"]["games"] >= 2 and bots["r1@2"]["previous"] == [
    b["id"] for b in bots.values() if b["name"] == "r1" and b["version"] != "2"][0], bots
PY
# The crashing bot's last matches were all its forfeits, and it stopped there.
[ "$(games_of "b.name = 'crasher'")" -le 4 ] || fail "crasher played on"

check_store() {
  A check >/dev/null || fail "arena check after $1"
  [ "$(sql "SELECT count(*) FROM (SELECT 1 FROM matches GROUP BY ladder_id, game_index
            HAVING count(*) > 1)")" = 0 ] || fail "a game_index twice after $1"
  [ "$(sql "SELECT count(*) FROM matches m WHERE (SELECT count(*) FROM match_seats s
            WHERE s.match_id = m.id) <> m.seats")" = 0 ] || fail "a match half stored after $1"
  # A seed pair: one seed, the seats swapped in its second match.
  local pairs="FROM matches a JOIN matches b ON b.ladder_id = a.ladder_id
               AND b.game_index = a.game_index + 1 WHERE a.game_index % 2 = 0"
  seat_of() { echo "(SELECT bot_id FROM match_seats WHERE match_id = $1.id AND seat = $2)"; }
  [ "$(sql "SELECT count(*) $pairs")" -gt 0 ] || fail "no seed pair stored after $1"
  [ "$(sql "SELECT count(*) $pairs AND (a.seed <> b.seed OR $(seat_of a 0) <> $(seat_of b 1)
            OR $(seat_of a 1) <> $(seat_of b 0))")" = 0 ] ||
    fail "a seed pair not played both ways after $1"
}
check_store "SIGTERM"
[ "$(sql "SELECT count(*) FROM arena_runs")" = 0 ] || fail "a stopped ladder keeps its row"
before=$(sql "SELECT count(*) FROM matches") top=$(sql "SELECT max(game_index) FROM matches")
fits=$(sql "SELECT count(*) FROM rating_fits")
[ "$fits" -ge 2 ] || fail "rating history: $fits fits"

# The same command goes on where it stopped.
A ladder "${flags[@]}" --matches 6 2>"$tmp/log2" || fail "restart: $(cat "$tmp/log2")"
grep -q "going on: $before matches stored" "$tmp/log2" || fail "restart: $(head -3 "$tmp/log2")"
[ "$(sql "SELECT count(*) FROM matches")" = $((before + 6)) ] || fail "restart stored"
[ "$(sql "SELECT count(*) FROM matches WHERE game_index > $top")" = 6 ] ||
  fail "the restart reused game indexes"
check_store "the restart"

# A ladder of another game or options under the same name is refused.
rc=0; A ladder --name main --option setup=draft --matches 2 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] && grep -q "ladder main plays" "$tmp/err" || fail "other options: $rc $(cat "$tmp/err")"

# Its standings: today's JSON fields, its matches only.
A standings --ladder main --format json >"$tmp/st.json"
python3 - "$tmp/st.json" "$((before + 6))" <<'PY' || fail "standings: $(cat "$tmp/st.json")"
import json, sys
rows = json.load(open(sys.argv[1]))
rows = rows if isinstance(rows, list) else rows[next(iter(rows))]
for r in rows:
    assert {"bot", "players", "games", "wins", "elo", "ci95"} <= set(r), r
assert sum(r["games"] for r in rows) == 2 * int(sys.argv[2]), rows
PY
echo "ok"
