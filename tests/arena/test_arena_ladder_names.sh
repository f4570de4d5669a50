#!/usr/bin/env bash
# test_arena_ladder_names.sh - a ladder's name and its silence, through the
# real program: on a database with no bots a ladder says it waits for bots
# and how to add one, and plays once two are added from another shell; a
# ladder without --name is named after its game (warchest), its options in
# its start line and its row; the same command goes on with it; one of
# other options is warchest-2; --ladder takes a unique beginning of a name.
#
# usage: test_arena_ladder_names.sh ARENA RANDOM SQL
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 ARENA RANDOM SQL" >&2; exit 2; }
arena=$(readlink -f "$1") random=$(readlink -f "$2") sqltool=$(readlink -f "$3")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-lnames.XXXXXX")
pid=
trap '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"
FAIL_LOG="$tmp/log"
db=$tmp/arena.db
A() { "$arena" --db "$db" "$@"; }
sql() { "$sqltool" "$db" "$1"; }
flags=(--concurrency 2 --move-ms 200 --bank-ms 2000 --memory-mb 0 --reload 0.2 --grace 20)

# An empty database: the ladder starts, says it waits, and how to add a bot.
"$arena" --db "$db" ladder "${flags[@]}" 2>"$tmp/log" &
pid=$!
for _ in $(seq 150); do grep -q "waiting for bots" "$tmp/log" && break; sleep 0.1; done
grep -q "^arena: ladder warchest: started: warchest players=2 setup=dealt royal_guard=2018 round_limit=100 (seed 1)$" \
  "$tmp/log" || fail "the start line: $(cat "$tmp/log")"
grep -q "^arena: ladder warchest: waiting for bots: 0 active, a match needs 2; .*bot add NAME --cmd CMD" \
  "$tmp/log" || fail "no word of waiting: $(cat "$tmp/log")"
A bot add r1 --no-test --cmd "$random" >/dev/null
A bot add r2 --no-test --cmd "$random" >/dev/null
for _ in $(seq 450); do
  [ "$(sql "SELECT count(*) >= 4 FROM matches")" = 1 ] && break
  kill -0 "$pid" 2>/dev/null || fail "the ladder died"
  sleep 0.2
done
[ "$(sql "SELECT count(*) >= 4 FROM matches")" = 1 ] || fail "no matches after the bots came"
kill -TERM "$pid"; rc=0; wait "$pid" || rc=$?; pid=
[ "$rc" = 0 ] || fail "stopped ladder: exit $rc"
[ "$(grep -c "waiting for bots" "$tmp/log")" = 1 ] || fail "the wait said more than once"
[ "$(sql "SELECT name || '|' || game || '|' || options FROM ladders")" = \
  "warchest|warchest|players=2 setup=dealt royal_guard=2018 round_limit=100" ] ||
  fail "the ladder's row: $(sql "SELECT * FROM ladders")"

# The same command goes on with it; other options make warchest-2.
"$arena" --db "$db" ladder "${flags[@]}" --matches 2 2>"$tmp/log" || fail "again: exit $?"
grep -q "^arena: ladder warchest: going on" "$tmp/log" || fail "not resumed: $(cat "$tmp/log")"
"$arena" --db "$db" ladder "${flags[@]}" --matches 2 --round-limit 50 2>"$tmp/log" ||
  fail "other options: exit $?"
grep -q "^arena: ladder warchest-2: started: warchest .*round_limit=50" "$tmp/log" ||
  fail "a second ladder: $(cat "$tmp/log")"
[ "$(sql "SELECT count(*) FROM ladders")" = 2 ] || fail "ladders: $(sql "SELECT * FROM ladders")"

# --ladder: a whole name, a unique beginning, an ambiguous one, none.
two=$(sql "SELECT count(*) FROM matches m JOIN ladders l ON l.id = m.ladder_id WHERE l.name = 'warchest-2'")
for ref in warchest-2 warchest-; do
  A standings --ladder "$ref" --format csv >"$tmp/out" || fail "--ladder $ref"
  [ "$(python3 -c 'import csv,sys; print(sum(int(r["games"]) for r in csv.DictReader(open(sys.argv[1]))))' "$tmp/out")" = \
    $((2 * two)) ] || fail "--ladder $ref: $(cat "$tmp/out")"
done
A history r1 --ladder warchest- >/dev/null || fail "history --ladder warchest-"
A standings --ladder warchest >/dev/null || fail "--ladder warchest (a whole name)"
rc=0; A standings --ladder war 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -qx "arena: 'war' begins the names of several ladders (warchest, warchest-2): give more of one" \
  "$tmp/err" || fail "an ambiguous --ladder: $rc $(cat "$tmp/err")"
rc=0; A crosstable --ladder nope 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -qx "arena: no ladder named 'nope'" "$tmp/err" || fail "no such ladder: $(cat "$tmp/err")"
echo "test_arena_ladder_names: ok"
