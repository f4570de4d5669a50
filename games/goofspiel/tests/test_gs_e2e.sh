#!/usr/bin/env bash
# Goofspiel end to end, with programs that know no game:
#  1. `referee games` lists it; `referee play --game goofspiel` plays it with
#     every sample bot (C, Python, JavaScript, awk and bash through the
#     stdio bridge), 2 and 3 seats; each record replays and shows;
#  2. `arena tournament --game goofspiel` plays a round-robin that is rated,
#     passes `arena check`, and whose matches replay and rerun identically;
#     the same command again finds the same tournament; then a free-for-all
#     of 3 seats, each for itself, rated and checked.
# (--memory-mb 0: sanitizer builds of the C bots reserve terabytes.)
# Usage: test_gs_e2e.sh REFEREE ARENA C_RANDOM REPO
set -euo pipefail
ref=$1 arena=$2 c_random=$3 repo=$4
cd "$repo"
tmp=$(mktemp -d /tmp/arena-gs-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$repo/tests/lib.sh"

"$ref" games >"$tmp/games"
grep -q '^goofspiel  *2,3,4  ' "$tmp/games" || fail "referee games: $(cat "$tmp/games")"
[ "$(wc -l <"$tmp/games")" -ge 2 ] || fail "referee games lists fewer than 2 games"

bots=(
  "$c_random"
  "/usr/bin/python3 agents/python/random_bot.py"
  "node agents/js/random.js"
  "sdk/stdio/arena-stdio -- awk -f agents/stdio/first.awk"
  "sdk/stdio/arena-stdio -- bash agents/stdio/random.sh"
)
n=0
for bot in "${bots[@]}"; do
  for players in 2 3; do
    args=(--game goofspiel --players "$players" --cards 6 --seed $((n + 1)) --memory-mb 0)
    for ((i = 0; i < players; i++)); do
      [ $i -eq 1 ] && args+=(--bot "$c_random") || args+=(--bot "$bot")
    done
    rec=$tmp/m$n.rec
    "$ref" play "${args[@]}" --record "$rec" --quiet >/dev/null || fail "play: $bot"
    reason=$(awk '/^reason /{print $2}' "$rec")
    [ "$reason" = points ] || fail "$bot, $players seats: ended by '$reason': $(grep '^detail' "$rec")"
    [ "$(grep -c '^decision ' "$rec")" -eq $((6 * players)) ] || fail "$bot: not 6 rounds"
    "$ref" replay "$rec" >/dev/null || fail "replay of $bot's match"
    "$ref" show "$rec" | grep -q '^after 6 rounds' || fail "show of $bot's match"
    n=$((n + 1))
  done
done
echo "referee: $n goofspiel matches by every sample bot, 2 and 3 seats, replayed"

db=$tmp/arena.db
"$arena" --db "$db" bot add crandom --cmd "$c_random" >/dev/null
"$arena" --db "$db" bot add pyrandom --cmd "/usr/bin/python3 $repo/agents/python/random_bot.py" >/dev/null
"$arena" --db "$db" bot add first --cmd "$repo/sdk/stdio/arena-stdio -- awk -f $repo/agents/stdio/first.awk" >/dev/null
targs=(--db "$db" tournament --game goofspiel --cards 8 --games 4 --concurrency 2 --memory-mb 0)
"$arena" "${targs[@]}" --quiet || fail "arena tournament --game goofspiel"
"$arena" --db "$db" standings --format csv >"$tmp/standings"
[ "$(wc -l <"$tmp/standings")" -eq 4 ] || fail "standings: $(cat "$tmp/standings")"
"$arena" --db "$db" check | grep -q 'ratings equal a recompute' || fail "arena check"
"$arena" --db "$db" matches --format csv >"$tmp/matches"
[ "$(grep -c ',points,' "$tmp/matches")" -eq 12 ] || fail "12 matches by points: $(cat "$tmp/matches")"
for id in 1 7 12; do
  "$arena" --db "$db" replay "$id" | grep -q "^match $id: verified" || fail "arena replay $id"
  "$arena" --db "$db" rerun "$id" | grep -q '^identical to the stored match' || fail "rerun $id"
done
"$arena" "${targs[@]}" >/dev/null 2>"$tmp/again" || fail "the same tournament again"
grep -q 'resuming tournament 1: 12 of 12' "$tmp/again" || fail "not found again: $(cat "$tmp/again")"
echo "arena: a goofspiel round-robin, rated, checked, replayed and rerun"

# Three seats, each for itself: every bot in every seat under one seed.
"$arena" --db "$db" tournament --game goofspiel --players 3 --cards 6 --format free-for-all \
  --games 3 --concurrency 2 --memory-mb 0 --quiet || fail "a 3-seat free-for-all"
"$arena" --db "$db" matches --tournament 2 --format csv >"$tmp/ffa"
[ "$(grep -c ',points,' "$tmp/ffa")" -eq 3 ] || fail "3 matches by points: $(cat "$tmp/ffa")"
"$arena" --db "$db" standings --players 3 --format csv >"$tmp/ffa-standings" ||
  fail "3-seat standings"
[ "$(wc -l <"$tmp/ffa-standings")" -eq 4 ] || fail "3-seat standings: $(cat "$tmp/ffa-standings")"
"$arena" --db "$db" check | grep -q 'ratings equal a recompute' || fail "arena check, 3 seats"
"$arena" --db "$db" replay 13 | grep -q "^match 13: verified" || fail "replay of a 3-seat match"
echo "arena: a 3-seat goofspiel free-for-all, rated and checked"
echo "1 passed, 0 failed"
