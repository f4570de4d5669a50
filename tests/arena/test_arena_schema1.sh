#!/usr/bin/env bash
# test_arena_schema1.sh - today's arena on a database made by the arena of
# schema 1 (fixtures/schema1, see its README): a copy of it, migrated on
# first use, shows the same standings, crosstable, matches, bots, SPRT and
# ratings check as the old arena printed (the files beside it); the
# tournament the old arena left unfinished resumes from its stored columns;
# the command of a stored tournament finds it again.
#
# usage: test_arena_schema1.sh ARENA RANDOM GREEDY SQL FIXTURE_DIR
#   SQL is tests/arena/arena_e2e_sql (CI has no sqlite3 CLI).
set -euo pipefail

[ $# -eq 5 ] || { echo "usage: $0 ARENA RANDOM GREEDY SQL FIXTURE_DIR" >&2; exit 2; }
arena=$(readlink -f "$1") random=$(readlink -f "$2") greedy=$(readlink -f "$3")
sqltool=$(readlink -f "$4") fixture=$(readlink -f "$5")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-schema1.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"
db=$tmp/arena.db
cp "$fixture/arena.db" "$db"
A() { "$arena" --db "$db" "$@"; }
sql() { "$sqltool" "$db" "$1"; }

# The fixture's bots are `agent_random` and `agent_greedy` on the PATH.
mkdir "$tmp/bin"
ln -s "$random" "$tmp/bin/agent_random"
ln -s "$greedy" "$tmp/bin/agent_greedy"
export PATH=$tmp/bin:$PATH

# Schema 1 had no game: the migration names the one it played.
legacy=warchest
# The one change since: two bots named random3 (one removed, then one
# registered again as version 2) are told apart in every table, as
# random3#4 and random3@2; `same` reads them back as the old name.
# And the 95% intervals (with the LOS that follows from them) account for
# draws now (ratings/bt.c, dispersion): standings are compared without
# them, and each interval may only have narrowed (ci_narrower).
labels=0
mask_ci() {       # mask_ci NAME FILE: FILE's interval and LOS fields as ~
  case $1 in
    standings*.txt) awk '$1 ~ /^[0-9]+$/ { $4 = "~"; $NF = "~" } { print }' "$2" ;;
    standings*.csv) awk -F, -v OFS=, 'NR > 1 { $4 = "~"; $11 = "~" } { print }' "$2" ;;
    standings*.json) sed -E 's/"ci95": [0-9.]+/"ci95": ~/; s/"los_next": [0-9.]+/"los_next": ~/' "$2" ;;
    *) cat "$2" ;;
  esac
}
same() {          # same NAME FILE: FILE equals the old arena's output NAME
  local pad=''
  case $1 in *.txt) pad='  ' ;; esac
  if grep -q 'random3[@#]' "$2"; then labels=$((labels + 1)); fi
  sed -e "s/random3@2/random3$pad/g" -e "s/random3#4/random3$pad/g" "$2" >"$2.names"
  mask_ci "$1" "$2.names" >"$2.masked"
  mask_ci "$1" "$fixture/$1" >"$tmp/expected"
  diff -u "$tmp/expected" "$2.masked" >"$tmp/diff" ||
    fail "$1 differs from the old arena's: $(cat "$tmp/diff")"
}
ci_narrower() {   # ci_narrower NAME FILE: no CSV row's ci95 above the old one's
  paste -d, <(cut -d, -f2,4 "$fixture/$1") <(cut -d, -f2,4 "$2") | tail -n +2 |
    awk -F, '$4 > $2 + 0.05 { bad = 1; print "wider: " $0 } END { exit bad }' ||
    fail "$1: an interval grew"
}

# 1. Reports: as the old arena printed them. Standings gained a last
#    column (CSV) and field (JSON), the game; everything else is the same.
A standings >"$tmp/standings.txt"
"$arena" --db "$tmp/fresh.db" bot add x --no-test --cmd true >/dev/null   # today's schema, to compare
[ "$(sql 'PRAGMA user_version')" = "$("$sqltool" "$tmp/fresh.db" 'PRAGMA user_version')" ] ||
  fail "not migrated: schema $(sql 'PRAGMA user_version')"
same standings.txt "$tmp/standings.txt"
strip_game() {    # strip_game NAME: the CSV without its last column, which is the game
  awk -F, -v g="$legacy" 'NR == 1 && $NF != "game" { exit 1 } NR > 1 && $NF != g { exit 1 }' \
    "$tmp/$1" || fail "$1: the last column is not the game ($legacy): $(head -3 "$tmp/$1")"
  sed 's/,[^,]*$//' "$tmp/$1" >"$tmp/$1.old"
  same "$1" "$tmp/$1.old"
  ci_narrower "$1" "$tmp/$1.old"
}
A standings --format csv >"$tmp/standings.csv"
strip_game standings.csv
for t in 1 2 3; do
  A standings --tournament "$t" --format csv >"$tmp/standings-t$t.csv"
  strip_game "standings-t$t.csv"
done
A standings --format json >"$tmp/standings.json"
[ "$(grep -c "\"game\": \"$legacy\"}" "$tmp/standings.json")" = 8 ] || fail "JSON rows without the game"
sed "s/, \"game\": \"$legacy\"}/}/" "$tmp/standings.json" >"$tmp/standings.json.old"
same standings.json "$tmp/standings.json.old"
A crosstable --format csv >"$tmp/crosstable.csv"
same crosstable.csv "$tmp/crosstable.csv"
# Today's list adds the detail as a last column; the rest is as it was.
A matches --format csv | sed -e '1s/,detail$//' -e '2,$s/,\("\([^"]\|""\)*"\|[^,"]*\)$//' \
  >"$tmp/matches.csv"
same matches.csv "$tmp/matches.csv"
# bot list gained status and games columns: the same bots, all active.
A bot list --format csv >"$tmp/bots.csv"
[ "$(cut -d, -f2,5 "$tmp/bots.csv" | tail -n +2 | sed 's/provisional/active/' | tr '\n' ' ')" = \
  "$(awk 'NR > 1 { printf "%s,active ", $1 }' "$fixture/bots.txt")" ] ||
  fail "bot list: $(cat "$tmp/bots.csv")"
# check gained a second line: the per-bot summaries (schema 11) it also recomputes.
A check >"$tmp/check.out" || fail "arena check failed: $(cat "$tmp/check.out")"
head -1 "$tmp/check.out" >"$tmp/check.txt"
same check.txt "$tmp/check.txt"
[ "$(sed -n 2p "$tmp/check.out")" = "per-bot summaries equal a recompute from the match seats" ] ||
  fail "check's second line: $(cat "$tmp/check.out")"
rc=0
A sprt greedy random >"$tmp/sprt.txt" || rc=$?
[ "$rc" = 3 ] || fail "sprt exit $rc, the old arena's was 3 (keep playing)"
same sprt.txt "$tmp/sprt.txt"
[ "$labels" -ge 5 ] || fail "the two bots named random3 were not told apart ($labels reports)"
echo "reports: as the old arena printed them"

# 2. The old arena was killed inside tournament 3: resume it. Its spec
#    comes from the columns the migration filled from its key.
stored=$(sql 'SELECT count(*) FROM matches WHERE tournament_id = 3')
[ "$stored" -lt 16 ] || fail "the fixture's tournament 3 is not unfinished"
#    Its clock is the wall clock with bots pondering, as the old arena's was:
#    one match at a time is what two cores have room for.
A tournament --resume --concurrency 1 >"$tmp/out" 2>"$tmp/err" || fail "resume: $(cat "$tmp/err")"
grep -q "^arena: resuming tournament 3: $stored of 16 matches stored" "$tmp/err" ||
  fail "resume said: $(head -3 "$tmp/err")"
[ "$(sql "SELECT count(*), sum(elo_k = 24), sum(options LIKE '%setup=draft%'), sum(game = '$legacy')
          FROM matches WHERE tournament_id = 3")" = "16|16|16|16" ] ||
  fail "tournament 3 resumed with another spec: $(sql 'SELECT id, elo_k, options FROM matches WHERE tournament_id = 3')"
[ "$(sql 'SELECT finished_at IS NOT NULL FROM tournaments WHERE id = 3')" = 1 ] || fail "not finished"
# The first bot (greedy) plays every match of the gauntlet, in seed pairs.
[ "$(sql "SELECT count(*) FROM matches m WHERE tournament_id = 3 AND 1 IN
          (SELECT bot_id FROM match_seats WHERE match_id = m.id)")" = 16 ] || fail "gauntlet broken"
A check >/dev/null || fail "ratings differ after the resume"
A standings --tournament 1 --format csv >"$tmp/standings-t1.csv"
strip_game standings-t1.csv
echo "resume: tournament 3 finished from its stored columns"

# 3. The command that ran tournament 3 finds it, with nothing left to play,
#    once it names the old arena's time control (the wall clock, pondering).
A tournament --format gauntlet greedy random random7 --games 8 --setup draft --elo-k 24 \
  --move-ms 2000 --seed 9 --memory-mb 0 --clock wall --ponder --concurrency 1 >"$tmp/out" 2>"$tmp/err" ||
  fail "the same command: $(cat "$tmp/err")"
grep -q "^tournament 3 finished" "$tmp/out" || fail "the same command: $(head -3 "$tmp/out")"
[ "$(sql 'SELECT count(*) FROM tournaments')" = 3 ] || fail "the same command made a tournament"
[ "$(sql 'SELECT count(*) FROM matches')" = 34 ] || fail "the same command played again"
echo "the same command finds tournament 3"
echo "3 passed, 0 failed"
