#!/usr/bin/env bash
# test_arena_events.sh - Swiss and knockout end to end with the sample bots:
# each is killed (SIGKILL) mid-run and run again; the resumed event must
# play exactly the matches an uninterrupted run plays (same seeds, bots,
# scores: its rounds were planned from the same stored results), store
# none twice, and keep the ratings a replay of the matches (arena check).
#
# usage: test_arena_events.sh ARENA RANDOM GREEDY
set -u
ARENA=$(readlink -f "$1") RANDOM_BOT=$(readlink -f "$2") GREEDY=$(readlink -f "$3")
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
. "$(dirname "$0")/../lib.sh"

register() {   # DB: 3 random bots (seeded, so each plays the same moves) and 2 greedy
    for i in 1 2 3; do
        "$ARENA" --db "$1" bot add "r$i" --cmd "$RANDOM_BOT --seed $i" >/dev/null || fail "bot add"
    done
    for i in 1 2; do
        "$ARENA" --db "$1" bot add "g$i" --cmd "$GREEDY" >/dev/null || fail "bot add"
    done
}

# What decides an event: each match's seed, bots in their seats, scores.
played() { "$ARENA" --db "$1" matches --format csv | tail -n +2 | cut -d, -f3-5 | sort; }

# FORMAT ARGS...: the event uninterrupted, then killed after 3 stored
# matches and run again with the same command.
check_format() {
    local name=$1; shift
    local whole="$DIR/$name-whole.db" cut="$DIR/$name-cut.db"
    register "$whole"
    register "$cut"
    "$ARENA" --db "$whole" tournament "$@" --concurrency 1 --quiet >/dev/null 2>&1 ||
        fail "$name: the uninterrupted run"
    "$ARENA" --db "$cut" tournament "$@" --concurrency 1 --quiet >/dev/null 2>&1 &
    local pid=$! stored=0
    for _ in $(seq 1 400); do
        stored=$("$ARENA" --db "$cut" matches --format csv 2>/dev/null | tail -n +2 | wc -l)
        [ "$stored" -ge 3 ] && break
        sleep 0.02
    done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    local total
    total=$(played "$whole" | wc -l)
    stored=$("$ARENA" --db "$cut" matches --format csv | tail -n +2 | wc -l)
    echo "$name: killed with $stored of $total matches stored"
    [ "$stored" -lt "$total" ] || echo "$name: (the run ended before the kill; resume is trivial)"
    "$ARENA" --db "$cut" tournament "$@" --concurrency 2 --quiet >/dev/null 2>&1 ||
        fail "$name: the resumed run"
    diff <(played "$whole") <(played "$cut") >&2 ||
        fail "$name: the resumed event played other matches than the uninterrupted one"
    "$ARENA" --db "$cut" check >/dev/null || fail "$name: arena check"
    # run again: nothing left, nothing added
    "$ARENA" --db "$cut" tournament "$@" --quiet >/dev/null 2>&1 || fail "$name: a third run"
    [ "$(played "$cut" | wc -l)" -eq "$total" ] || fail "$name: a finished event played more"
    echo "$name: $total matches, resumed identically"
}

# 5 bots (a bye each round), 3 rounds of 2 seed pairs: 2 pairings x 4 games x 3
check_format swiss --format swiss --rounds 3 --games 4 --seed 7
[ "$(played "$DIR/swiss-whole.db" | wc -l)" -eq 24 ] || fail "swiss: 24 matches expected"
# 5 bots: 4 ties (n - 1), 2 games each plus any tie-break pairs
check_format knockout --format knockout --games 2 --seed 7
n=$(played "$DIR/knockout-whole.db" | wc -l)
[ "$n" -ge 8 ] && [ "$n" -le 24 ] || fail "knockout: $n matches, not 8..24"

# Each event's own results before the Elo table: Swiss points (24 games'
# points and 3 byes of 2) with Buchholz; the knockout's bracket: 5 bots, 3
# byes and 4 ties, one winner, who lost no tie.
"$ARENA" --db "$DIR/swiss-whole.db" standings --tournament 1 >"$DIR/swiss.txt" ||
    fail "swiss standings"
python3 - "$DIR/swiss.txt" <<'PY' || fail "swiss results: $(cat "$DIR/swiss.txt")"
import sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[0].startswith("swiss, 3 rounds: points"), lines[0]
rows = [l.split() for l in lines[2:7]]
assert [r[0] for r in rows] == ["1", "2", "3", "4", "5"], rows
points = [float(r[2]) for r in rows]
assert sum(points) == 30 and points == sorted(points, reverse=True), points
assert sum(int(r[4]) for r in rows) == 3 and max(int(r[4]) for r in rows) == 1, rows
assert lines[7] == "" and lines[8] == "Elo over its matches:", lines[7:9]
PY
"$ARENA" --db "$DIR/knockout-whole.db" standings --tournament 1 >"$DIR/ko.txt" ||
    fail "knockout standings"
[ "$(grep -c ' bye$' "$DIR/ko.txt")" = 3 ] && [ "$(grep -c ' goes through' "$DIR/ko.txt")" = 4 ] &&
  grep -q "^quarterfinals:$" "$DIR/ko.txt" && grep -q "^final:$" "$DIR/ko.txt" ||
    fail "knockout bracket: $(cat "$DIR/ko.txt")"
winner=$(sed -n 's/^winner: //p' "$DIR/ko.txt")
[ -n "$winner" ] && [ "$(grep -c "goes through" "$DIR/ko.txt")" -ge 1 ] &&
  ! grep "goes through" "$DIR/ko.txt" | grep -v "$winner goes through" |
    grep -q "\] $winner " || fail "the winner $winner lost a tie: $(cat "$DIR/ko.txt")"

# bad arguments: one line, non-zero
out=$("$ARENA" --db "$DIR/swiss-whole.db" tournament --format knockout --rounds 2 2>&1) &&
    fail "--rounds with knockout accepted"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "not one line: $out"
"$ARENA" --db "$DIR/swiss-whole.db" tournament --format swiss --games 3 >/dev/null 2>&1 &&
    fail "odd --games accepted"
echo "PASS"
