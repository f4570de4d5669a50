#!/usr/bin/env bash
# The search bots in real matches under the real referee: a playout budget
# and a seed (--seed, else ARENA_BOT_SEED) replay an ismcts match exactly;
# it plays 4-player games; under
# a tight time control and a wish for far more time it never loses on
# time; its bench prints the same signature twice; pimc plays a match; bad
# flags are one line and exit 2.
# Usage: test_search_bots.sh REFEREE ISMCTS PIMC GREEDY
set -euo pipefail
referee=$1 ismcts=$2 pimc=$3 greedy=$4
tmp=$(mktemp -d /tmp/ismcts-bot-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"
# --memory-mb 0: sanitizer builds of the bot need the address space. A
# roomy clock, so that a loaded machine never cuts a playout budget short
# (the bots stop early rather than lose on time, and a replay would differ).
play() { "$referee" play --memory-mb 0 --move-ms 60000 --bank-ms 600000 "$@"; }
hash_of() { sed -n 's/.*hash: \([0-9a-f]*\).*/\1/p' <<<"$1"; }

# A seed and a playout budget replay the match; another seed plays another.
one=$(play --seed 4 --record "$tmp/a.rec" --bot "$ismcts --playouts 150 --seed 9" --bot "$greedy")
# (An explicit --seed wins over the referee's ARENA_BOT_SEED.)
two=$(play --seed 4 --record "$tmp/b.rec" --bot "ARENA_BOT_SEED=5 $ismcts --playouts 150 --seed 9" \
      --bot "$greedy")
other=$(play --seed 4 --bot "$ismcts --playouts 150 --seed 10" --bot "$greedy")
[[ "$one" == *"reason: markers"* || "$one" == *"reason: round_limit"* ]] || fail "no real game: $one"
[ -n "$(hash_of "$one")" ] && [ "$(hash_of "$one")" = "$(hash_of "$two")" ] ||
  fail "same seed, another match: $one / $two"
[ "$(hash_of "$one")" != "$(hash_of "$other")" ] || fail "the bot's seed changed nothing"
cmp -s <(grep -v '^decision' "$tmp/a.rec") <(grep -v '^decision' "$tmp/b.rec") || fail "records differ"
"$referee" replay "$tmp/a.rec" >/dev/null || fail "the record does not replay"

# Without --seed the bot takes the referee's ARENA_BOT_SEED (arena rerun
# sets the same one): equal seeds play the same match, others another.
env3=$(play --seed 4 --round-limit 6 --bot "ARENA_BOT_SEED=3 $ismcts --playouts 150" --bot "$greedy")
again=$(play --seed 4 --round-limit 6 --bot "ARENA_BOT_SEED=3 $ismcts --playouts 150" --bot "$greedy")
env5=$(play --seed 4 --round-limit 6 --bot "ARENA_BOT_SEED=5 $ismcts --playouts 150" --bot "$greedy")
[ -n "$(hash_of "$env3")" ] && [ "$(hash_of "$env3")" = "$(hash_of "$again")" ] ||
  fail "same ARENA_BOT_SEED, another match: $env3 / $again"
[ "$(hash_of "$env3")" != "$(hash_of "$env5")" ] || fail "ARENA_BOT_SEED changed nothing"
err=$(ARENA_BOT_SEED=x "$pimc" --playouts 2 2>&1 >/dev/null) && rc=0 || rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <<<"$err")" -eq 1 ] && [[ "$err" == *ARENA_BOT_SEED* ]] ||
  fail "a malformed ARENA_BOT_SEED: exit $rc: $err"

# Four players, two teams, a search bot in each.
four=$(play --players 4 --seed 2 --bot "$ismcts --playouts 60" --bot "$greedy" \
       --bot "$greedy" --bot "$ismcts --playouts 60 --seed 2")
[[ "$four" == *"reason: markers"* || "$four" == *"reason: round_limit"* ]] || fail "4 players: $four"

# A tight clock and a bot asking for 5 s a decision: it keeps to the clock,
# counted as the referee counts it (CPU time by default, or wall time), and
# uses it (the record's decision lines: wall ms, then cpu=ms).
for clock in cpu wall; do
  tight=$(play --seed 6 --round-limit 10 --move-ms 150 --bank-ms 5000 --clock $clock \
          --record "$tmp/t.rec" --bot "$ismcts --ms 5000 --clock $clock" --bot "$greedy")
  [[ "$tight" != *timeout* ]] || fail "--clock $clock: lost on time: $tight"
  slowest=$(awk -v f=$([ $clock = cpu ] && echo 4 || echo 3) '$1 == "decision" && $2 == 0 {
              v = $f; sub(/^cpu=/, "", v); if (v + 0 > m) m = v + 0 } END { print m + 0 }' "$tmp/t.rec")
  awk -v m="$slowest" 'BEGIN { exit !(m > 50) }' || fail "--clock $clock: slowest $slowest ms"
done

# The bench: the same signature twice.
s1=$("$ismcts" --bench --playouts 200 | grep '^signature')
s2=$("$ismcts" --bench --playouts 200 | grep '^signature')
[ -n "$s1" ] && [ "$s1" = "$s2" ] || fail "bench signatures differ: '$s1' '$s2'"

# pimc: a whole match, on the same driver.
ab=$(play --seed 8 --bot "$greedy" --bot "$pimc --playouts 2 --depth 2")
[[ "$ab" == *"reason: markers"* || "$ab" == *"reason: round_limit"* ]] || fail "pimc: $ab"

"$ismcts" --help | grep -q -- '--playouts' || fail "--help"
for args in "--playouts 0" "--playouts x" "--ms 10 --playouts 10" "--rollout smart" \
            "--c -1" "--bogus" "--seed" "--clock sun"; do
  err=$("$ismcts" $args 2>&1 >/dev/null) && rc=0 || rc=$?
  [ "$rc" -eq 2 ] || fail "ismcts $args: exit $rc"
  [ "$(echo "$err" | wc -l)" -eq 1 ] && [[ "$err" == ismcts:* ]] || fail "ismcts $args: '$err'"
done
for args in "--depth 9" "--depth" "--c 1"; do
  err=$("$pimc" $args 2>&1 >/dev/null) && rc=0 || rc=$?
  [ "$rc" -eq 2 ] && [[ "$err" == pimc:* ]] || fail "pimc $args: exit $rc, '$err'"
done
echo "1 passed, 0 failed"
