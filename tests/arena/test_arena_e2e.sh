#!/usr/bin/env bash
# test_arena_e2e.sh - the arena end to end: real `arena`, `referee worker`
# and sample bot processes on SQLite files in temporary directories.
#
# usage: test_arena_e2e.sh ARENA REFEREE RANDOM GREEDY SQL [TEST...]
#   SQL is tests/arena/arena_e2e_sql (CI has no sqlite3 CLI).
#   With TEST names, only those run (e.g. kill_resume bad_input).
#
# Every test has its own directory under one temporary root, removed at
# exit. The bots' commands carry --marker=<test dir> (the sample bots
# ignore their arguments) and the kill tests start the referee through a
# symlink inside the test dir, so the processes of a test can be told from
# everyone else's by their command line alone.
set -euo pipefail

if [ $# -lt 5 ]; then
  echo "usage: $0 ARENA REFEREE RANDOM GREEDY SQL [TEST...]" >&2
  exit 2
fi
for f in "${@:1:5}"; do
  [ -x "$f" ] || { echo "test_arena_e2e: not executable: $f" >&2; exit 2; }
done
# Absolute paths: bot commands run in other directories, and the referee
# symlinks must point somewhere.
ARENA=$(readlink -f "$1") REFEREE=$(readlink -f "$2") RANDOM_BOT=$(readlink -f "$3")
GREEDY_BOT=$(readlink -f "$4") SQL=$(readlink -f "$5")
shift 5
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=$(command -v python3)

ROOT=$(mktemp -d "${TMPDIR:-/tmp}/arena-e2e.XXXXXX")
# How long processes may take to go after their arena is killed.
GRACE_S=2

# ---- helpers ----------------------------------------------------------------

T= DB= CURRENT=
. "$(dirname "$0")/../lib.sh"

# Live processes whose command line contains $1: "pid args" lines. Reads
# /proc directly (no procps in CI); zombies have no command line.
procs_with() {
  local d args
  for d in /proc/[0-9]*; do
    args=()
    mapfile -d '' args 2>/dev/null <"$d/cmdline" || continue
    [ ${#args[@]} -gt 0 ] || continue
    [[ "${args[*]}" == *"$1"* ]] && printf '%s %s\n' "${d#/proc/}" "${args[*]}"
  done
  return 0
}

# Kills (by pid) whatever a test left behind; only processes carrying the
# test's own marker.
kill_ours() {
  local pid rest
  while read -r pid rest; do
    kill -9 "$pid" 2>/dev/null || true
  done < <(procs_with "$1")
}

cleanup() {
  kill_ours "$ROOT"
  if [ -n "${ARENA_E2E_KEEP:-}" ]; then
    echo "test_arena_e2e: kept $ROOT" >&2
  else
    rm -rf "$ROOT"
  fi
}
trap cleanup EXIT

# A fresh test directory and database path.
new_test() {
  CURRENT=$1
  T=$ROOT/$1
  mkdir -p "$T/bin"
  DB=$T/arena.db
  ln -s "$REFEREE" "$T/bin/referee"
}

ar() { "$ARENA" --db "$DB" "$@"; }
sql() { "$SQL" "$DB" "$1"; }

# Runs the arena; stdout, stderr and the status land in $T/out, $T/err, RC.
RC=0
try() {
  RC=0
  "$ARENA" "$@" >"$T/out" 2>"$T/err" || RC=$?
}

# Runs the arena and insists on success.
ok() {
  try "$@"
  [ "$RC" -eq 0 ] || fail "arena $* exited $RC: $(head -c 2000 "$T/err")"
}

eq() { [ "$1" == "$2" ] || fail "$3: expected '$2', got '$1'"; }

# The three sample bots, their commands carrying the test's marker.
add_sample_bots() {
  ok --db "$DB" bot add greedy --no-test --cmd "$GREEDY_BOT --marker=$T"
  ok --db "$DB" bot add random --no-test --cmd "$RANDOM_BOT --marker=$T"
  ok --db "$DB" bot add random7 --no-test --cmd "ARENA_BOT_SEED=7 $RANDOM_BOT --marker=$T"
}

bot_id() { sql "SELECT id FROM bots WHERE name = '$1' AND removed_at IS NULL"; }
# SQL for the bot in seat $2 of the match row aliased $1, and for "bot $1
# plays in the match row aliased $2 (default: matches)".
seat() { echo "(SELECT bot_id FROM match_seats WHERE match_id = $1.id AND seat = $2)"; }
plays() { echo "$1 IN (SELECT bot_id FROM match_seats WHERE match_id = ${2:-matches}.id)"; }
stored() { sql "SELECT count(*) FROM matches${1:+ WHERE tournament_id = $1}"; }

# awk over the data rows of a CSV file ("-": stdin) whose header names the
# columns: $c["games"] is the games column.
csv_awk() {
  local file=$1 prog=$2
  shift 2
  awk -F, "$@" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } '"$prog" "$file"
}

# The CSV's header has every named column.
csv_has() {
  local file=$1 name header
  shift
  header=$(head -1 "$file")
  for name in "$@"; do
    [[ ",$header," == *",$name,"* ]] || fail "no column '$name' in $header"
  done
}

# Total games in a standings CSV on stdin.
games_total() { csv_awk - '{ s += $c["games"] } END { print s + 0 }'; }

# Every match played to its end: no forfeit (a crash, a timeout...) by a
# sample bot, which would mean the bots never really played.
no_forfeits() {
  local bad
  bad=$(sql "SELECT id, reason, detail FROM matches WHERE culprit IS NOT NULL LIMIT 3")
  [ -z "$bad" ] || fail "forfeited matches: $bad"
}

# The arena's consistency check must pass.
check_ok() {
  ok --db "$DB" check
  grep -q "ratings equal a recompute" "$T/out" || fail "check said: $(cat "$T/out")"
}

# Waits up to GRACE_S for no process of this test to remain.
no_leftovers() {
  local left i
  for ((i = 0; i < GRACE_S * 20; i++)); do
    left=$(procs_with "$T")
    [ -z "$left" ] && return 0
    sleep 0.05
  done
  fail "processes still there $GRACE_S s (or more) after $1:"$'\n'"$left"
}

# One-line error, non-zero status, nothing on stdout; $1 must appear in it.
expect_error() {
  local want=$1
  shift
  try "$@"
  [ "$RC" -ne 0 ] || fail "arena $* succeeded; wanted an error about '$want'"
  [ ! -s "$T/out" ] || fail "arena $* wrote to stdout: $(head -c 500 "$T/out")"
  [ "$(wc -l <"$T/err")" -eq 1 ] || fail "arena $* wanted one line on stderr, got:
$(head -c 3000 "$T/err")"
  grep -q '^arena: ' "$T/err" || fail "arena $*: error does not start 'arena: ': $(cat "$T/err")"
  grep -qF -- "$want" "$T/err" || fail "arena $*: error lacks '$want': $(cat "$T/err")"
}

# Valid JSON (NaN and Infinity are not JSON) holding a list of N objects.
json_list() {
  "$PYTHON" -c '
import json, sys
def bad(c): sys.exit("not JSON: " + c)
data = json.load(open(sys.argv[1]), parse_constant=bad)
if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
    sys.exit("not a list of objects")
if len(data) != int(sys.argv[2]):
    sys.exit("%d rows, wanted %s" % (len(data), sys.argv[2]))
' "$1" "$2" || fail "$1 is not a JSON list of $2 objects: $(head -c 1000 "$1")"
}

# ---- 1: a round-robin of the three sample bots ---------------------------------

test_round_robin() {
  new_test round_robin
  add_sample_bots
  # --db after the command, as the CLI allows; the default referee path.
  ok tournament --games 4 --concurrency 2 greedy random random7 --db "$DB"
  grep -q "^tournament 1 finished" "$T/out" || fail "no 'finished' line: $(cat "$T/out")"

  eq "$(stored)" 12 "matches stored"
  eq "$(sql 'SELECT planned, finished_at IS NOT NULL FROM tournaments')" "12|1" "planned|finished"

  ok --db "$DB" standings --format csv
  cp "$T/out" "$T/standings.csv"
  csv_has "$T/standings.csv" rank bot elo ci95 live_elo games wins draws losses score_pct los_next
  eq "$(($(wc -l <"$T/standings.csv") - 1))" 3 "standings rows"
  csv_awk "$T/standings.csv" '$c["games"] != 8 || $c["wins"] + $c["draws"] + $c["losses"] != 8 {
                               bad = 1; print } END { exit bad }' >"$T/bad" ||
    fail "rows without 8 games or with W+D+L != games: $(cat "$T/bad")"
  eq "$(csv_awk "$T/standings.csv" 'NR == 2 { print $c["rank"] "," $c["bot"] }')" "1,greedy" \
     "first place"
  # First on merit, not by the name tie-break: the most points, and more
  # than half of them.
  csv_awk "$T/standings.csv" 'NR == 2 { top = $c["score_pct"] }
                              NR > 2 && $c["score_pct"] >= top { bad = 1 }
                              END { exit bad || top <= 50 }' || fail "greedy is not clearly best: $(cat "$T/standings.csv")"
  no_forfeits
  eq "$(csv_awk "$T/standings.csv" '{ print $c["bot"] }' | sort | tr '\n' ' ')" \
     "greedy random random7 " \
     "bots in the standings"

  ok --db "$DB" crosstable --format csv
  csv_has "$T/out" bot opponent wins draws losses
  eq "$(csv_awk "$T/out" '{ print $c["bot"] "," $c["opponent"] }' | sort | tr '\n' ' ')" \
     "greedy,random greedy,random7 random,greedy random,random7 random7,greedy random7,random " \
     "crosstable pairs"
  csv_awk "$T/out" '$c["wins"] + $c["draws"] + $c["losses"] != 4 { bad = 1; print }
                    END { exit bad }' >"$T/bad" ||
    fail "crosstable cells without 4 games: $(cat "$T/bad")"
  # The table view too: every off-diagonal cell filled, none empty ('.').
  ok --db "$DB" crosstable
  eq "$(grep -cE ' x( |$)' "$T/out")" 3 "crosstable diagonal"
  ! grep -qE ' \.( |$)' "$T/out" || fail "an empty crosstable cell: $(cat "$T/out")"

  check_ok

  local ids
  ids=$(sql "SELECT id FROM matches ORDER BY id")
  eq "$(echo "$ids" | wc -l)" 12 "match ids"
  for id in $ids; do
    ok --db "$DB" replay "$id"
    grep -q "^match $id: verified" "$T/out" || fail "replay $id: $(cat "$T/out")"
  done

  # Seed pairs: game_index 2k and 2k+1 share the seed with the seats
  # swapped; every pairing plays the same games/2 seeds.
  local badpairs
  badpairs=$(sql "SELECT a.game_index FROM matches a JOIN matches b
                  ON b.tournament_id = a.tournament_id AND b.game_index = a.game_index + 1
                  WHERE a.game_index % 2 = 0
                    AND (a.seed != b.seed OR $(seat a 0) != $(seat b 1)
                         OR $(seat a 1) != $(seat b 0))")
  [ -z "$badpairs" ] || fail "seed pairs broken at game_index $badpairs"
  eq "$(sql "SELECT count(*) FROM matches a JOIN matches b
             ON b.tournament_id = a.tournament_id AND b.game_index = a.game_index + 1
             WHERE a.game_index % 2 = 0")" 6 "complete seed pairs"
  eq "$(sql 'SELECT count(DISTINCT seed) FROM matches')" 2 "distinct seeds (games/2)"
  eq "$(sql 'SELECT min(game_index), max(game_index), count(DISTINCT game_index) FROM matches')" \
     "0|11|12" "game indexes"

  # Re-played with the same bots and seed, a match comes out the same:
  # the first, and one with the seeded random bot.
  local r7
  r7=$(sql "SELECT min(id) FROM matches WHERE $(plays "$(bot_id random7)")")
  for id in 1 "$r7"; do
    ok --db "$DB" rerun "$id"
    grep -q "^identical to the stored match" "$T/out" || fail "rerun $id: $(cat "$T/out")"
  done
}

# ---- 2: a gauntlet --------------------------------------------------------------

test_gauntlet() {
  new_test gauntlet
  add_sample_bots
  ok --db "$DB" bot add random9 --no-test --cmd "ARENA_BOT_SEED=9 $RANDOM_BOT --marker=$T"
  # random first: it is the one that plays everyone.
  ok --db "$DB" tournament --format gauntlet --games 2 --concurrency 2 --quiet \
     random greedy random7 random9
  local hero
  hero=$(bot_id random)
  eq "$(sql 'SELECT planned FROM tournaments')" 6 "planned = (n-1)*games"
  eq "$(stored)" 6 "matches stored"
  eq "$(sql "SELECT count(*) FROM matches WHERE NOT $(plays "$hero")")" 0 \
     "matches without the first bot"
  eq "$(sql "SELECT count(DISTINCT bot_id) FROM match_seats WHERE bot_id != $hero")" \
     3 "opponents of the first bot"
  ok --db "$DB" crosstable --format csv
  eq "$(csv_awk "$T/out" '{ print $c["bot"] "," $c["opponent"] }' | sort | tr '\n' ' ')" \
     "greedy,random random,greedy random,random7 random,random9 random7,random random9,random " \
     "gauntlet pairs"
  ok --db "$DB" standings --format csv
  eq "$(games_total <"$T/out")" 12 "standings games"
  eq "$(csv_awk "$T/out" '$c["bot"] == "random" { print $c["games"] }')" 6 "the first bot's games"
  no_forfeits
  check_ok
}

# ---- 3: a draft tournament ------------------------------------------------------

test_draft() {
  new_test draft
  add_sample_bots
  ok --db "$DB" tournament --setup draft --games 2 --concurrency 2 --quiet greedy random
  eq "$(stored)" 2 "matches stored"
  eq "$(sql "SELECT count(*) FROM matches WHERE options LIKE '%setup=draft%'
                                     AND record LIKE '%options %setup=draft%'")" 2 \
     "matches with setup=draft in their options and records"
  local id
  for id in $(sql "SELECT id FROM matches"); do
    # A draft opens with the picks: 8 units, 4 a side.
    eq "$(sql "SELECT record FROM matches WHERE id = $id" | grep -c '^decision .* pick ')" 8 \
       "pick decisions in match $id"
    ok --db "$DB" replay "$id"
    grep -q "^match $id: verified" "$T/out" || fail "replay $id: $(cat "$T/out")"
  done
  no_forfeits
  check_ok
}

# ---- 4: kill -9 at several points, then resume ------------------------------------

# An arena killed with -9 cannot remove its worker socket directory
# (/tmp/arena-pool-XXXXXX): note the ones our workers use before a kill,
# and remove them once the arena is gone.
note_pools() {
  local pid args a
  while read -r pid args; do
    for a in $args; do
      case $a in
        ipc:///tmp/arena-pool-*/workers) a=${a#ipc://}; echo "${a%/workers}" ;;
      esac
    done
  done < <(procs_with "$T/bin/referee") >>"$T/pools"
}
remove_pools() {
  local d
  [ -f "$T/pools" ] || return 0
  for d in $(sort -u "$T/pools"); do
    rm -f "$d/workers"
    rmdir "$d" 2>/dev/null || true
  done
  rm -f "$T/pools"
}

# Polls until at least $1 matches are stored or process $2 is gone.
wait_stored() {
  local i
  for ((i = 0; i < 6000; i++)); do
    [ "$(stored)" -ge "$1" ] && return 0
    kill -0 "$2" 2>/dev/null || return 0
    sleep 0.02
  done
  fail "no $1 matches stored after 120 s"
}

# What must hold after any crash: no process left, the ratings a replay
# of the matches, nothing counted twice, nothing lost.
after_crash() {
  local what=$1 prev=$2 planned=$3 n tid
  no_leftovers "$what"
  check_ok
  n=$(stored)
  [ "$n" -le "$planned" ] || fail "$what: $n matches stored, more than the $planned planned"
  [ "$n" -ge "$prev" ] || fail "$what: $n matches stored, fewer than the $prev before"
  eq "$(sql 'SELECT count(DISTINCT game_index) FROM matches')" "$n" "$what: distinct game indexes"
  [ "$(sql 'SELECT count(*) FROM tournaments')" -le 1 ] || fail "$what: a second tournament"
  eq "$(sql 'SELECT count(*) FROM rating_history')" "$((2 * n))" "$what: rating history rows"
  eq "$(sql 'SELECT coalesce(sum(games), 0) FROM ratings')" "$((2 * n))" "$what: rated games"
  tid=$(sql 'SELECT id FROM tournaments')
  if [ -n "$tid" ]; then
    ok --db "$DB" standings --tournament "$tid" --format csv
    eq "$(games_total <"$T/out")" "$((2 * n))" "$what: standings games"
  fi
}

# The last run played exactly $1 matches (jobs its workers ran), $2 having
# been stored before it.
played_exactly() {
  local s=es; [ "$1" = 1 ] && s=
  grep -qx "arena: $1 match$s played, $2 stored before" "$T/err" ||
    fail "expected $1 matches played after $2 stored, got: $(grep played "$T/err")"
}

test_kill_resume() {
  new_test kill_resume
  add_sample_bots
  # Big enough that the timed kills all land mid-tournament on a fast
  # machine too (the sample bots play ~50 matches a second on 2 cores).
  local games=100 planned=300
  local cmd=(tournament --games "$games" --concurrency 2 --move-ms 2000
             --referee "$T/bin/referee" greedy random random7)
  local prev=0 run=0 killed=0 partial=0 point pid rc n
  # t:SECONDS kills after a delay; n:+K once K more matches are stored.
  for point in t:0.02 t:0.2 n:+1 t:0.7 n:+15 t:1.5 n:+30; do
    run=$((run + 1))
    "$ARENA" --db "$DB" "${cmd[@]}" >"$T/run$run.out" 2>"$T/run$run.err" &
    pid=$!
    case $point in
      t:*) sleep "${point#t:}" ;;
      n:*) wait_stored "$((prev + ${point#n:+}))" "$pid" ;;
    esac
    note_pools
    kill -9 "$pid" 2>/dev/null || true
    rc=0
    wait "$pid" 2>/dev/null || rc=$?
    remove_pools
    n=$(stored)
    if [ "$rc" -eq 137 ]; then
      killed=$((killed + 1))
      [ "$n" -gt 0 ] && [ "$n" -lt "$planned" ] && partial=$((partial + 1))
    elif [ "$rc" -ne 0 ]; then
      fail "run $run ($point) exited $rc: $(head -c 2000 "$T/run$run.err")"
    fi
    note "run $run: kill at $point, status $rc, $n of $planned stored"
    after_crash "kill at $point" "$prev" "$planned"
    prev=$n
    [ "$n" -lt "$planned" ] || break
  done
  [ "$killed" -ge 5 ] || fail "only $killed runs were killed before they finished"
  [ "$partial" -ge 3 ] || fail "only $partial kills left a partly played tournament"

  # The same command again: it resumes and completes.
  ok --db "$DB" "${cmd[@]}"
  grep -q "^arena: resuming tournament 1: $prev of $planned matches stored" "$T/err" ||
    fail "no resume message for $prev stored: $(head -5 "$T/err")"
  # It played exactly the missing matches: as many jobs as were missing.
  played_exactly "$((planned - prev))" "$prev"
  no_leftovers "the tournament finished"
  check_ok
  no_forfeits
  eq "$(stored)" "$planned" "matches stored at the end"
  eq "$(sql 'SELECT min(game_index), max(game_index), count(DISTINCT game_index) FROM matches')" \
     "0|$((planned - 1))|$planned" "game indexes at the end"
  eq "$(sql 'SELECT count(*), sum(finished_at IS NOT NULL) FROM tournaments')" "1|1" \
     "one tournament, finished"
  eq "$(sql 'SELECT count(DISTINCT seed) FROM matches')" "$((games / 2))" "distinct seeds"
  eq "$(sql "SELECT count(*) FROM matches a JOIN matches b ON b.game_index = a.game_index + 1
             WHERE a.game_index % 2 = 0 AND a.seed = b.seed
               AND $(seat a 0) = $(seat b 1) AND $(seat a 1) = $(seat b 0)")" "$((planned / 2))" \
     "seed pairs across the resumes"
  ok --db "$DB" standings --tournament 1 --format csv
  eq "$(games_total <"$T/out")" "$((2 * planned))" "standings games at the end"
  ok --db "$DB" crosstable --format csv
  csv_awk "$T/out" '$c["wins"] + $c["draws"] + $c["losses"] != g { bad = 1; print }
                    END { exit bad }' -v g="$games" >"$T/bad" || fail "crosstable cells without $games games: $(cat "$T/bad")"
  # Spot checks: matches played in different runs replay.
  for id in 1 $((planned / 2)) "$planned"; do
    ok --db "$DB" replay "$id"
  done
}

# ---- 5: --resume -----------------------------------------------------------------

# Starts a tournament in the background and kills it once $1 matches of it
# are stored; the rest of the arguments are the tournament's.
start_and_crash() {
  local want=$1 pid tid
  shift
  local before
  before=$(sql 'SELECT count(*) FROM matches')
  "$ARENA" --db "$DB" tournament --referee "$T/bin/referee" "$@" >/dev/null 2>"$T/crash.err" &
  pid=$!
  wait_stored "$((before + want))" "$pid"
  note_pools
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  remove_pools
  no_leftovers "kill -9"
  tid=$(sql 'SELECT max(id) FROM tournaments')
  eq "$(sql "SELECT finished_at IS NULL AND
                    (SELECT count(*) FROM matches WHERE tournament_id = $tid) < planned
             FROM tournaments WHERE id = $tid")" 1 "tournament $tid left unfinished"
}

test_resume() {
  new_test resume
  add_sample_bots
  # 1: a draft gauntlet with its own seed, 2: a round-robin; both crash.
  start_and_crash 3 --format gauntlet --setup draft --seed 42 --games 20 --concurrency 2 \
    greedy random random7
  start_and_crash 3 --games 20 --concurrency 2 random random7
  local n1 n2
  n1=$(stored 1)
  n2=$(stored 2)

  # --resume carries on the latest unfinished one: 2, leaving 1 alone.
  ok --db "$DB" tournament --resume --concurrency 2
  grep -q "^arena: resuming tournament 2: $n2 of 20 matches stored" "$T/err" ||
    fail "resume of 2: $(head -3 "$T/err")"
  played_exactly "$((20 - n2))" "$n2"
  grep -q "^tournament 2 finished" "$T/out" || fail "resume of 2: $(head -3 "$T/out")"
  eq "$(stored 2)" 20 "tournament 2 matches"
  eq "$(stored 1)" "$n1" "tournament 1 matches while 2 resumed"
  eq "$(sql 'SELECT finished_at IS NOT NULL FROM tournaments ORDER BY id')" $'0\n1' "finished"

  # Then 1, with its own format, setup and seed.
  ok --db "$DB" tournament --resume --concurrency 2
  grep -q "^arena: resuming tournament 1: $n1 of 40 matches stored" "$T/err" ||
    fail "resume of 1: $(head -3 "$T/err")"
  played_exactly "$((40 - n1))" "$n1"
  eq "$(stored 1)" 40 "tournament 1 matches"
  eq "$(sql 'SELECT count(*) FROM tournaments')" 2 "tournaments (resume adds none)"
  eq "$(sql "SELECT count(*) FROM matches WHERE tournament_id = 1
             AND options LIKE '%setup=draft%' AND $(plays "$(bot_id greedy)")")" 40 \
     "tournament 1 matches: draft, with the gauntlet's first bot"
  eq "$(sql 'SELECT count(DISTINCT seed) FROM matches WHERE tournament_id = 1')" 10 \
     "tournament 1 seeds"
  # Its seeds are those of seed 42: the same command from scratch in a
  # second database plays the same seeds.
  local db1=$DB
  DB=$T/fresh.db
  add_sample_bots
  ok --db "$DB" tournament --format gauntlet --setup draft --seed 42 --games 2 --quiet \
     --concurrency 2 greedy random random7
  local fresh_seed
  fresh_seed=$(sql 'SELECT DISTINCT seed FROM matches')
  DB=$db1
  eq "$(sql "SELECT count(*) FROM matches WHERE tournament_id = 1 AND seed = $fresh_seed")" 4 \
     "tournament 1's first seed pair matches seed 42"
  no_forfeits
  check_ok
  no_leftovers "the resumed tournaments finished"

  expect_error "no unfinished tournament to resume" --db "$DB" tournament --resume
  expect_error "--resume takes no bots" --db "$DB" tournament --resume greedy
}

# ---- 6: bad input ----------------------------------------------------------------

snapshot() {
  {
    ar standings --format csv
    ar standings --tournament 1 --format csv
    ar crosstable --format csv
    ar bot list
    sql 'SELECT count(*) FROM matches'
    sql 'SELECT id, game, format, games, options, seed, bots, planned, finished_at IS NOT NULL
         FROM tournaments'
    sql 'SELECT id, name, removed_at IS NOT NULL FROM bots'
    sql 'SELECT bot_id, elo, games FROM ratings'
  } >"$1"
}

test_bad_input() {
  new_test bad_input
  add_sample_bots
  ok --db "$DB" tournament --games 2 --concurrency 2 --quiet greedy random random7
  snapshot "$T/before"

  expect_error "unknown bot 'nosuch'" --db "$DB" tournament greedy nosuch
  expect_error "named twice" --db "$DB" tournament greedy greedy
  expect_error "at least 2 bots" --db "$DB" tournament greedy
  expect_error "no database at /nonexistent/x.db" --db /nonexistent/x.db standings
  expect_error "no database at /nonexistent/x.db" --db /nonexistent/x.db crosstable
  expect_error "no database at $T/missing.db" --db "$T/missing.db" tournament greedy random
  [ ! -e "$T/missing.db" ] || fail "a tournament on a missing database created it"
  expect_error "/nonexistent/x.db" --db /nonexistent/x.db bot add x --no-test --cmd "$GREEDY_BOT"
  expect_error "even" --db "$DB" tournament --games 3 greedy random
  expect_error "--games" --db "$DB" tournament --games abc greedy random
  expect_error "--games" --db "$DB" tournament --games 0 greedy random
  expect_error "--concurrency" --db "$DB" tournament --concurrency 0 greedy random
  expect_error "--format" --db "$DB" tournament --format nonsense greedy random
  expect_error "--format" --db "$DB" standings --format nonsense
  expect_error "unknown option '--bogus'" --db "$DB" tournament --bogus greedy random
  expect_error "unknown option '--bogus'" --db "$DB" tournament greedy random --bogus
  expect_error "unknown option '--bogus'" --db "$DB" standings --bogus
  expect_error "setup" --db "$DB" tournament --setup nonsense greedy random
  expect_error "--seed" --db "$DB" tournament --seed -1 greedy random
  expect_error "--strikes" --db "$DB" tournament --strikes 1001 greedy random
  expect_error "/no/such/bot" --db "$DB" bot add x --no-test --cmd /no/such/bot
  expect_error "no_such_command_zz" --db "$DB" bot add x --no-test --cmd "no_such_command_zz --flag"
  expect_error "already registered" --db "$DB" bot add greedy --no-test --cmd "$GREEDY_BOT"
  expect_error "bot name" --db "$DB" bot add "bad name" --cmd "$GREEDY_BOT" --no-test
  expect_error "no registered bot named nosuch" --db "$DB" bot remove nosuch
  expect_error "no match 999" --db "$DB" replay 999
  expect_error "no match 999" --db "$DB" rerun 999
  expect_error "a match number" --db "$DB" replay abc
  expect_error "no tournament 99" --db "$DB" standings --tournament 99
  expect_error "unknown command" --db "$DB" nonsense

  snapshot "$T/after"
  diff "$T/before" "$T/after" >"$T/diff" || fail "bad input changed the database:
$(cat "$T/diff")"
  check_ok

  # A stored tournament whose terms are out of their range (arenas before
  # ref_terms took --strikes up to 36000000, which workers then ignored) is
  # refused when resumed, in one line, not handed to workers that would
  # refuse every job of it.
  local finished
  finished=$(sql 'SELECT finished_at FROM tournaments WHERE id = 1')
  terms_sql() { "$PYTHON" -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1])
c.execute(sys.argv[2]); c.commit()' "$DB" "$1"; }
  terms_sql 'UPDATE tournaments SET strikes = 5000, finished_at = NULL WHERE id = 1'
  expect_error "strikes is out of its range" --db "$DB" tournament --resume --concurrency 2
  eq "$(sql 'SELECT count(*) FROM tournaments')" 1 "tournaments after a refused resume"
  terms_sql "UPDATE tournaments SET strikes = 0, finished_at = $finished WHERE id = 1"

  # A removed bot keeps its past matches.
  local r7 id
  r7=$(bot_id random7)
  ar standings --tournament 1 --format csv >"$T/standings.before"
  ok --db "$DB" bot remove random7
  ok --db "$DB" bot list
  ! grep -q random7 "$T/out" || fail "random7 still listed: $(cat "$T/out")"
  ar standings --tournament 1 --format csv >"$T/standings.after"
  diff "$T/standings.before" "$T/standings.after" >"$T/diff" ||
    fail "removing a bot changed the standings: $(cat "$T/diff")"
  eq "$(csv_awk "$T/standings.after" '$c["bot"] == "random7" { print $c["games"] }')" 4 \
     "random7's games"
  eq "$(sql "SELECT count(*) FROM matches WHERE $(plays "$r7")")" 4 "random7's matches"
  id=$(sql "SELECT min(id) FROM matches WHERE $(plays "$r7")")
  ok --db "$DB" replay "$id"
  grep -q "^match $id: verified" "$T/out" || fail "replay $id: $(cat "$T/out")"
  ok --db "$DB" rerun "$id"
  grep -q "^identical to the stored match" "$T/out" || fail "rerun $id: $(cat "$T/out")"
  expect_error "unknown bot 'random7'" --db "$DB" tournament greedy random7
  expect_error "no registered bot named random7" --db "$DB" bot remove random7
  check_ok
}

# ---- 7: progress -----------------------------------------------------------------

test_progress() {
  new_test progress
  add_sample_bots
  # stderr is a file here: plain lines, no progress bar.
  ok --db "$DB" tournament --games 10 --concurrency 2 greedy random
  grep -E '^arena: [0-9]+/10 matches' "$T/err" >"$T/progress" || true
  [ "$(wc -l <"$T/progress")" -ge 2 ] || fail "too few progress lines: $(cat "$T/err")"
  eq "$(tail -1 "$T/progress" | cut -d, -f1)" "arena: 10/10 matches" "last progress line"
  awk -F'[ /]' '{ n = $2 + 0; if (n < last || n > 10) { bad = 1; print } last = n }
                END { exit bad }' "$T/progress" >"$T/bad" ||
    fail "progress counts out of order: $(cat "$T/bad")"
  ! grep -q $'\r' "$T/err" || fail "a terminal progress bar on a non-terminal stderr"
  eq "$(head -1 "$T/err")" "arena: tournament 1: planning 10 matches" "the first line"
  eq "$(tail -n +2 "$T/err" | grep -cv '^arena: [0-9]*/10 matches, ETA [0-9]*:[0-9][0-9], leader ')" \
     1 "stderr lines other than progress"
  eq "$(tail -1 "$T/err")" "arena: 10 matches played" "the last line"
  grep -q "^tournament 1 finished" "$T/out" || fail "no 'finished': $(cat "$T/out")"
  grep -q "greedy" "$T/out" || fail "no standings after the tournament: $(cat "$T/out")"

  # The same command again plays nothing and says so.
  ok --db "$DB" tournament --games 10 --concurrency 2 greedy random
  grep -q "^arena: resuming tournament 1: 10 of 10 matches stored" "$T/err" ||
    fail "no resume message: $(cat "$T/err")"
  ! grep -q 'matches, ETA' "$T/err" || fail "progress with nothing to play: $(cat "$T/err")"
  eq "$(stored)" 10 "matches after re-running a finished tournament"

  # --quiet: neither progress nor standings.
  ok --db "$DB" tournament --games 2 --seed 5 --concurrency 2 --quiet greedy random
  [ ! -s "$T/err" ] || fail "--quiet wrote to stderr: $(cat "$T/err")"
  [ ! -s "$T/out" ] || fail "--quiet wrote to stdout: $(cat "$T/out")"
  eq "$(stored)" 12 "matches after the quiet tournament"
}

# ---- JSON reports ------------------------------------------------------------------

test_json() {
  new_test json
  add_sample_bots
  ar standings --format json >"$T/empty.json"
  json_list "$T/empty.json" 0
  ar crosstable --format json >"$T/empty-cross.json"
  json_list "$T/empty-cross.json" 0
  # A sweep (greedy wins every game) and a three-bot round-robin.
  ok --db "$DB" tournament --games 2 --concurrency 2 --quiet greedy random
  ok --db "$DB" tournament --games 2 --concurrency 2 --quiet greedy random random7
  ar standings --tournament 1 --format json >"$T/t1.json"
  json_list "$T/t1.json" 2
  ar standings --format json >"$T/all.json"
  json_list "$T/all.json" 3
  ar crosstable --format json >"$T/cross.json"
  json_list "$T/cross.json" 6
  ar matches --format json >"$T/matches.json"
  json_list "$T/matches.json" 8
  # The JSON says what the CSV says.
  ar standings --format csv >"$T/all.csv"
  "$PYTHON" -c '
import csv, json, sys
rows = json.load(open(sys.argv[1]))
table = list(csv.DictReader(open(sys.argv[2])))
for j, c in zip(rows, table):
    for k in ("rank", "games", "wins", "draws", "losses"):
        assert j[k] == int(c[k]), (k, j, c)
    assert j["bot"] == c["bot"], (j, c)
    assert j["wins"] + j["draws"] + j["losses"] == j["games"], j
assert len(rows) == len(table)
assert rows[-1]["los_next"] is None
' "$T/all.json" "$T/all.csv" || fail "JSON and CSV standings differ"
}

# ---- main ---------------------------------------------------------------------------

all=(round_robin gauntlet draft kill_resume resume bad_input progress json)
[ $# -gt 0 ] && all=("$@")
failed=()
for name in "${all[@]}"; do
  declare -F "test_$name" >/dev/null || { echo "no test $name" >&2; exit 2; }
  start=$SECONDS
  rc=0
  # A subshell per test: a failure ends that test only.
  # (set -e is ignored inside a subshell that is part of an || list.)
  set +e
  ( set -euo pipefail; "test_$name" )
  rc=$?
  set -e
  if [ "$rc" -eq 0 ]; then
    echo "ok   $name ($((SECONDS - start)) s)"
  else
    echo "FAIL $name ($((SECONDS - start)) s)"
    failed+=("$name")
  fi
  kill_ours "$ROOT/$name"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "test_arena_e2e: failed: ${failed[*]}" >&2
  exit 1
fi
echo "test_arena_e2e: all ${#all[@]} passed"
