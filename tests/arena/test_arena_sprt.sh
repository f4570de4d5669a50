#!/usr/bin/env bash
# `arena sprt`: fishtest's test on stored seed pairs. Greedy against random
# must accept "stronger by 200 Elo" and the reverse must reject it; pairs
# are counted as units; bad input is one clear line and exit 2. With
# --seats 4 it counts the team games where the two bots are opposed, and
# only those; the 2-player test never sees them.
# Usage: test_arena_sprt.sh ARENA RANDOM GREEDY
set -euo pipefail
arena=$1 random=$2 greedy=$3
tmp=$(mktemp -d /tmp/arena-sprt-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"
A() { "$arena" --db "$tmp/a.db" "$@"; }
A bot add greedy --no-test --cmd "$greedy" >/dev/null
A bot add random --no-test --cmd "$random" >/dev/null
A bot add idle --no-test --cmd "$random" >/dev/null
# --memory-mb 0: sanitizer builds of the bots need the address space.
A tournament --games 40 --concurrency 2 --quiet --memory-mb 0 greedy random
forfeits=$(A matches --format csv | tail -n +2 | awk -F, '$7 != ""' | wc -l)
[ "$forfeits" -eq 0 ] || fail "$forfeits matches ended by forfeit; the test needs real games"

out=$(A sprt greedy random --elo0 0 --elo1 200) && rc=0 || rc=$?
[ "$rc" -eq 0 ] || fail "greedy vs random: exit $rc, H1 expected: $out"
[[ "$out" == *"pairs 20"* ]] || fail "40 games are 20 seed pairs: $out"
[[ "$out" == *"H1 accepted"* ]] || fail "no H1 verdict: $out"
A sprt random greedy --elo0 0 --elo1 200 >/dev/null && rc=0 || rc=$?
[ "$rc" -eq 1 ] || fail "random vs greedy: exit $rc, H0 expected"

# Team games: greedy opposes random in 2 of every 3 splits of 4 bots.
A bot add greedy2 --cmd "$greedy" >/dev/null
A tournament --format teams --players 4 --games 8 --concurrency 2 --quiet --memory-mb 0 \
  greedy random greedy2 idle
out=$(A sprt greedy random --elo0 0 --elo1 200) && rc=0 || rc=$?
[[ "$out" == *"games 40 "* && "$out" == *"pairs 20"* ]] || fail "2 players mixed with 4: $out"
out=$(A sprt greedy random --seats 4 --elo0 0 --elo1 200) && rc=0 || rc=$?
[[ "$out" == *"games 16 "* && "$out" == *"pairs 8"* ]] || fail "8 seed pairs opposed: $out"
[ "$rc" -ne 1 ] && [ "$rc" -ne 2 ] || fail "greedy's team vs random's: exit $rc: $out"
out=$(A sprt greedy greedy2 --seats 4) && rc=0 || rc=$?
[[ "$out" == *"games 16 "* ]] || fail "greedy vs greedy2 in team games: $out"

for args in "greedy random --seats 9" "greedy random --seats 3" "greedy nobody" "greedy greedy" "greedy idle" "greedy random --elo0 5 --elo1 1" \
            "greedy random --alpha x" "greedy random --bogus 1"; do
  err=$(A sprt $args 2>&1 >/dev/null) && rc=0 || rc=$?
  [ "$rc" -eq 2 ] || fail "sprt $args: exit $rc"
  [ "$(echo "$err" | wc -l)" -eq 1 ] && [[ "$err" == arena:* ]] || fail "sprt $args: '$err'"
done
echo "1 passed, 0 failed"
