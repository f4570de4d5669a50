#!/usr/bin/env bash
# Four players, end to end: 4-player matches of the sample bots through the
# real referee (dealt and drafted), and a small team tournament in the arena
# with its 4-player standings.
# Usage: test_arena_teams.sh ARENA REFEREE RANDOM GREEDY REPO
set -euo pipefail
arena=$1 ref=$2 random=$3 greedy=$4 repo=$5
tmp=$(mktemp -d /tmp/arena-teams-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"

# 1. The referee with four bots: every seat decides, teams win together.
for setup in dealt draft; do
  "$ref" play --players 4 --setup "$setup" --seed 11 --memory-mb 0 \
    --bot "$greedy" --bot "$random" --bot "$greedy" --bot "$random" --record "$tmp/$setup.rec" >/dev/null
  reason=$(awk '/^reason /{print $2}' "$tmp/$setup.rec")
  case "$reason" in markers|round_limit) ;; *) fail "4-player $setup match ended by $reason" ;; esac
  for seat in 0 1 2 3; do
    grep -q "^decision $seat " "$tmp/$setup.rec" || fail "seat $seat never decided ($setup)"
  done
  read -r _ s0 s1 s2 s3 < <(grep '^result ' "$tmp/$setup.rec")
  [ "$s0" = "$s2" ] && [ "$s1" = "$s3" ] || fail "teammates scored apart: $s0 $s1 $s2 $s3"
  "$ref" replay "$tmp/$setup.rec" >/dev/null || fail "4-player $setup record does not verify"
done
echo "referee: 4-player matches, dealt and drafted, valid"

# 2. A team tournament: 4 bots, every split into two teams, seed pairs.
db=$tmp/teams.db
A() { "$arena" --db "$db" "$@"; }
A bot add greedy --no-test --cmd "$greedy" >/dev/null
A bot add random --no-test --cmd "$random" >/dev/null
A bot add pygreedy --no-test --cmd "/usr/bin/python3 $repo/agents/python/greedy_bot.py" >/dev/null
A bot add random7 --no-test --cmd "ARENA_BOT_SEED=7 $random" >/dev/null
err=$(A tournament --players 4 --games 2 2>&1 >/dev/null) && fail "--players 4 without teams accepted"
[[ "$err" == *"--format teams"* ]] || fail "unclear error: $err"
A tournament --format teams --games 2 --concurrency 2 --memory-mb 0 --quiet
n=$(A matches --format csv | tail -n +2 | wc -l)
[ "$n" -eq 6 ] || fail "a 4-bot team tournament of 2 games per split has 6 matches, not $n"
A matches --format csv | tail -n +2 | awk -F, '{ if (split($4, b, " ") != 4) exit 1 }' ||
  fail "a team match without 4 seats"
rows=$(A standings --players 4 --format csv | tail -n +2)
[ "$(echo "$rows" | wc -l)" -eq 4 ] || fail "4-player standings should rate 4 bots: $rows"
echo "$rows" | awk -F, '{ if ($6 != 6 || $7 + $8 + $9 != $6 || $12 != 4) exit 1 }' ||
  fail "each bot plays all 6 team games: $rows"
[ -z "$(A standings --players 2 --format csv | tail -n +2)" ] || fail "2-player rows from team games"
A standings | grep -q "^4 players" || fail "the standings table does not head the 4-player table"
A check >/dev/null || fail "ratings differ from a recompute"
A replay 1 >/dev/null || fail "team match 1 does not verify"
echo "arena: team tournament of 6 matches, 4-player standings, ratings check"
echo "2 passed, 0 failed"
