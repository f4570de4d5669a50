#!/usr/bin/env bash
# Bots declare their games (issue 26). A Goofspiel-only bot
# (goofspiel_bot.py, through the Python SDK: it leaves any other game at
# its welcome) is accepted with --game goofspiel and refused with --game
# warchest, saying which game and why; bot add without --game finds each
# bot's games by its check; bot test tries every game and reports each;
# bot list shows the games (table, CSV, JSON); versions carry their own.
# A Goofspiel tournament of every bot leaves out the War-Chest-only bot
# and says so (every format: round-robin and Swiss here); one that names
# it, or an SPRT that would play it, is refused in one line, exit 2, with
# nothing stored. A Goofspiel ladder pairs only Goofspiel bots and its
# log says whom it left out, once.
# Usage: test_arena_games.sh ARENA GREEDY RANDOM GOOFSPIEL_BOT.py
set -euo pipefail
arena=$1 greedy=$(realpath "$2") random=$(realpath "$3") gsbot="/usr/bin/python3 $(realpath "$4")"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-games-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"
A() { "$arena" --db "$tmp/a.db" "$@"; }
# stdout and stderr apart: out, err, rc.
run() { rc=0; "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?; out=$(cat "$tmp/out"); err=$(cat "$tmp/err"); }
sql() { python3 -c 'import sqlite3, sys
for row in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]):
    print("|".join(str(v) for v in row))' "$tmp/a.db" "$1"; }
# No sandbox (the bots run from this checkout) and no address-space limit
# (sanitizer builds of the C bots reserve terabytes of it).
export ARENA_SANDBOX=none
run_opts=(--sandbox none --memory-mb 0 --concurrency 2 --quiet)

# 1. The Goofspiel bot, told War Chest: refused, with the game and why.
run A bot add gs --memory-mb 0 --cmd "$gsbot" --game warchest
[ "$rc" -eq 2 ] || fail "gs --game warchest: exit $rc: $out $err"
[ "$err" = "arena: bot add gs: refused: it cannot play warchest (crash in seat 0 (seat 0's bot exited with status 3)); fix it, or register it anyway with --no-test" ] ||
  fail "gs --game warchest: $err"
grep -q "^goofspiel_bot: I play goofspiel, not warchest" <<<"$out" || fail "no log tail: $out"
run A bot add gs --memory-mb 0 --cmd "$gsbot" --game goofspiel --game warchest
[ "$rc" -eq 2 ] && grep -q "refused: it cannot play warchest (crash" <<<"$err" ||
  fail "gs --game goofspiel --game warchest: $rc $err"
[ ! -e "$tmp/a.db" ] || [ -z "$(sql "SELECT id FROM bots")" ] || fail "a refused bot was stored"
# ... and told Goofspiel, accepted for Goofspiel alone.
run A bot add gs --memory-mb 0 --cmd "$gsbot" --game goofspiel
[ "$rc" -eq 0 ] || fail "gs --game goofspiel: exit $rc: $out $err"
grep -q "^bot test gs in goofspiel: ok: plays both seats" <<<"$out" || fail "gs check: $out"
! grep -q "in warchest" <<<"$out" || fail "gs was tried in War Chest: $out"
[ "$(tail -1 <<<"$out")" = "  it plays goofspiel" ] || fail "gs: $out"

# 2. No --game: each bot plays the games whose check it passes.
run A bot add gs2 --memory-mb 0 --cmd "$gsbot"
[ "$rc" -eq 0 ] && [ "$(tail -1 <<<"$out")" = "  it plays goofspiel; not warchest, which it failed" ] ||
  fail "gs2: $rc $out $err"
run A bot add greedy --memory-mb 0 --cmd "$greedy"
[ "$rc" -eq 0 ] && [ "$(tail -1 <<<"$out")" = "  it plays warchest; not goofspiel, which it failed" ] ||
  fail "greedy: $rc $out $err"
run A bot add rnd --memory-mb 0 --cmd "$random"
[ "$rc" -eq 0 ] && [ "$(tail -1 <<<"$out")" = "  it plays warchest goofspiel" ] || fail "rnd: $rc $out $err"
run A bot add never --memory-mb 0 --cmd /bin/false
[ "$rc" -eq 2 ] && [ "$(wc -l <<<"$err")" -eq 1 ] &&
  grep -q "^arena: bot add never: refused: it cannot play any game (warchest: crash in seat 0 (.*); goofspiel: crash in seat 0 (.*)); fix it" <<<"$err" ||
  fail "never: $rc $err"
# A version carries its own games: gs@2 is a War Chest bot.
run A bot add gs --memory-mb 0 --version 2 --cmd "$random" --game warchest
[ "$rc" -eq 0 ] || fail "gs@2: $rc $err"
[ "$(sql "SELECT b.name || '@' || b.version || ':' || g.game FROM bot_games g
          JOIN bots b ON b.id = g.bot_id ORDER BY b.id, g.game" | tr '\n' ' ')" = \
  "gs@:goofspiel gs2@:goofspiel greedy@:warchest rnd@:goofspiel rnd@:warchest gs@2:warchest " ] ||
  fail "stored games: $(sql "SELECT * FROM bot_games")"

# 3. bot test: every game, each reported; it must play its own games.
run A bot test gs2 --memory-mb 0
[ "$rc" -eq 0 ] && grep -q "^bot test gs2 in warchest: FAILED: crash in seat 0" <<<"$out" &&
  grep -q "^bot test gs2 in goofspiel: ok: plays both seats" <<<"$out" &&
  [ "$(tail -1 <<<"$out")" = "bot test gs2: plays goofspiel; cannot play warchest" ] ||
  fail "bot test gs2: $rc $out"
run A bot test gs2 --memory-mb 0 --game warchest
[ "$rc" -eq 1 ] && [ "$(tail -1 <<<"$out")" = "bot test gs2: FAILED: it cannot play warchest, which it must" ] ||
  fail "bot test gs2 --game warchest: $rc $out"
run A bot test --cmd /bin/false --memory-mb 0 --game goofspiel
[ "$rc" -eq 1 ] && ! grep -q "in warchest" <<<"$out" || fail "bot test --cmd --game: $rc $out"

# 4. bot list shows them: table, CSV, JSON.
A bot list >"$tmp/list.txt"
grep -q "^bot .* plays .*command$" "$tmp/list.txt" || fail "table head: $(cat "$tmp/list.txt")"
grep -q "^gs2 .* goofspiel  *$gsbot$" "$tmp/list.txt" || fail "table: $(cat "$tmp/list.txt")"
grep -q "^rnd .* goofspiel warchest  *$random$" "$tmp/list.txt" || fail "table: $(cat "$tmp/list.txt")"
A bot list --format csv >"$tmp/list.csv"
A bot list --format json >"$tmp/list.json"
python3 - "$tmp/list.csv" "$tmp/list.json" <<'PY' || fail "csv/json: $(cat "$tmp/list.csv" "$tmp/list.json")"
import csv, json, sys
rows = {r["bot"]: r["plays"] for r in csv.DictReader(open(sys.argv[1], newline=""))}
want = {"gs#1": "goofspiel", "gs@2": "warchest", "gs2": "goofspiel", "greedy": "warchest",
        "rnd": "goofspiel warchest"}
assert rows == want, rows
bots = {b["bot"]: b["plays"] for b in json.load(open(sys.argv[2]))}
assert bots == {k: v.split() for k, v in want.items()}, bots
PY

# 5. A Goofspiel tournament of every bot leaves out the War Chest bots,
# one line each, and plays the others: no forfeits.
run A tournament --game goofspiel --cards 3 --games 2 "${run_opts[@]}"
[ "$rc" -eq 0 ] || fail "goofspiel tournament: $rc $err"
[ "$(grep "left out" <<<"$err")" = "arena: left out greedy: it plays warchest, not goofspiel
arena: left out gs@2: it plays warchest, not goofspiel" ] || fail "left out: $err"
[ "$(sql "SELECT count(*), count(DISTINCT s.bot_id), sum(m.culprit IS NOT NULL),
                 sum(s.bot_id IN (SELECT id FROM bots WHERE name = 'greedy' OR version = '2'))
          FROM match_seats s JOIN matches m ON m.id = s.match_id")" = "12|3|0|0" ] ||
  fail "goofspiel matches: $(sql "SELECT s.match_id, s.bot_id, m.reason FROM match_seats s JOIN matches m ON m.id = s.match_id")"
# Swiss: the same entrants.
run A tournament --game goofspiel --cards 3 --games 2 --format swiss --rounds 1 --seed 3 "${run_opts[@]}"
[ "$rc" -eq 0 ] && [ "$(grep -c "left out" <<<"$err")" -eq 2 ] || fail "swiss: $rc $err"
[ "$(sql "SELECT bots FROM tournaments ORDER BY id DESC LIMIT 1")" = "$(sql "SELECT bots FROM tournaments WHERE id = 1")" ] ||
  fail "swiss entrants: $(sql "SELECT id, bots FROM tournaments")"
# A War Chest tournament leaves out the Goofspiel bots.
run A tournament --games 2 --round-limit 6 "${run_opts[@]}"
[ "$rc" -eq 0 ] && [ "$(grep "left out" <<<"$err")" = "arena: left out gs#1: it plays goofspiel, not warchest
arena: left out gs2: it plays goofspiel, not warchest" ] || fail "warchest tournament: $rc $err"

# 6. Naming a bot for a game it does not play: refused, one line, exit 2,
# no tournament stored; the same for an SPRT that would play it.
before=$(sql "SELECT count(*) FROM tournaments")
for format in round-robin gauntlet; do
  run A tournament --game goofspiel --cards 3 --games 2 --format "$format" rnd greedy "${run_opts[@]}"
  [ "$rc" -eq 2 ] && [ "$err" = "arena: bot greedy does not play goofspiel (it plays warchest; a version that does: bot add greedy --version V --game goofspiel)" ] ||
    fail "named greedy ($format): $rc $err"
done
run A tournament --game goofspiel --cards 3 --games 2 gs "${run_opts[@]}" rnd   # gs: its newest, gs@2
[ "$rc" -eq 2 ] && grep -q "^arena: bot gs@2 does not play goofspiel" <<<"$err" || fail "named gs: $rc $err"
run A sprt rnd greedy --play --game goofspiel --cards 3 "${run_opts[@]}"
[ "$rc" -eq 2 ] && [ "$(wc -l <<<"$err")" -eq 1 ] && grep -q "bot greedy does not play goofspiel" <<<"$err" ||
  fail "sprt --play greedy in goofspiel: $rc $err"
[ "$(sql "SELECT count(*) FROM tournaments")" = "$before" ] || fail "a refused tournament was stored"

# 7. A Goofspiel ladder pairs only Goofspiel bots; its log says whom it
# left out, once however often it reads the bots again.
run A ladder --game goofspiel --cards 3 --matches 8 --reload 0.2 --sandbox none --memory-mb 0 \
  --concurrency 2
[ "$rc" -eq 0 ] || fail "ladder: $rc $err"
[ "$(grep "left out" <<<"$err")" = "arena: ladder goofspiel: greedy left out: it plays warchest, not goofspiel
arena: ladder goofspiel: gs@2 left out: it plays warchest, not goofspiel" ] || fail "ladder log: $err"
[ "$(sql "SELECT count(*), sum(culprit IS NOT NULL) FROM matches WHERE ladder_id IS NOT NULL")" = "8|0" ] &&
  [ "$(sql "SELECT DISTINCT b.name || '@' || b.version FROM matches m
            JOIN match_seats s ON s.match_id = m.id JOIN bots b ON b.id = s.bot_id
            WHERE m.ladder_id IS NOT NULL ORDER BY 1" | tr '\n' ' ')" = "gs2@ gs@ rnd@ " ] &&
  [ "$(sql "SELECT count(*) FROM matches m JOIN match_seats s ON s.match_id = m.id
            WHERE m.ladder_id IS NOT NULL AND s.bot_id IN (SELECT id FROM bots WHERE name = 'greedy' OR version = '2')")" = 0 ] ||
  fail "ladder matches: $(sql "SELECT m.id, s.bot_id FROM matches m JOIN match_seats s ON s.match_id = m.id WHERE m.ladder_id IS NOT NULL")"
echo "games: declared, checked, listed; tournaments and ladders keep to them"
