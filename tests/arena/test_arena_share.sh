#!/usr/bin/env bash
# Two arenas on one tournament share its work: each match is claimed once,
# so every match is played by one of them and stored once, and both play.
# An arena killed with its matches claimed loses them to the other once its
# claims lapse (a lease of 10 s).
# The bots wait for a "go" file before starting, so that both arenas hold
# claims before either plays: the test does not depend on the machine's load.
# (--sandbox none: a sandboxed bot would not see the go file in our /tmp.)
# Usage: test_arena_share.sh ARENA RANDOM GREEDY SQL
set -euo pipefail
arena=$1 random=$2 greedy=$3 sqltool=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-share-XXXXXX")
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 -- "-$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/../lib.sh"
A() { "$arena" --db "$tmp/a.db" "$@"; }
sql() { "$sqltool" "$tmp/a.db" "$1"; }
gate() { printf 'while [ ! -e %q ]; do sleep 0.05; done; exec %q' "$tmp/go" "$1"; }
# An arena in a process group of its own (setsid), so that all of it can be killed.
start() {  # start NAME SEED
  setsid "$arena" --db "$tmp/a.db" tournament --games 12 --concurrency 2 --seed "$2" \
    --memory-mb 0 --handshake-ms 120000 --clock wall --ponder \
    --force-concurrency --sandbox none r g >"$tmp/$1.out" 2>"$tmp/$1.err" &
  pids+=($!)
}
claims() {  # claims OWNER_COUNT_AT_LEAST: waits until that many arenas hold claims
  for _ in $(seq 1200); do
    [ "$(sql "SELECT count(DISTINCT owner) FROM match_claims")" -ge "$1" ] && return 0
    sleep 0.05
  done
  fail "fewer than $1 arenas hold claims: $(cat "$tmp"/*.err)"
}
once() {  # once TOURNAMENT: every planned match stored exactly once
  local t=$1
  [ "$(sql "SELECT count(*), count(DISTINCT game_index), min(game_index), max(game_index)
            FROM matches WHERE tournament_id = $t")" = "12|12|0|11" ] ||
    fail "tournament $t: not every match stored once: $(sql "SELECT game_index FROM matches
            WHERE tournament_id = $t ORDER BY 1" | tr '\n' ' ')"
  [ "$(sql "SELECT count(*) FROM match_claims WHERE tournament_id = $t")" = 0 ] ||
    fail "tournament $t: claims left behind"
}

A bot add r --no-test --cmd "sh -c '$(gate "$random")'" >/dev/null
A bot add g --no-test --cmd "sh -c '$(gate "$greedy")'" >/dev/null

# Two arenas, one tournament, both finish.
start a 1
claims 1
start b 1
claims 2
touch "$tmp/go"
rc=0; wait "${pids[0]}" || rc=$?
[ "$rc" -eq 0 ] || fail "arena a: exit $rc: $(tail -3 "$tmp/a.err")"
rc=0; wait "${pids[1]}" || rc=$?
[ "$rc" -eq 0 ] || fail "arena b: exit $rc: $(tail -3 "$tmp/b.err")"
pids=()
once 1
for x in a b; do
  grep -q "matches played here, [0-9]* by another arena" "$tmp/$x.err" ||
    grep -q "waiting for [0-9]* matches another arena is playing" "$tmp/$x.err" ||
    fail "arena $x does not say it shared the work: $(tail -3 "$tmp/$x.err")"
done
here_a=$(sed -n 's/^arena: \([0-9]*\) matches played here.*/\1/p' "$tmp/a.err")
here_b=$(sed -n 's/^arena: \([0-9]*\) matches played here.*/\1/p' "$tmp/b.err")
# The one that finished last says how the work was split; both played some.
split=$(cat "$tmp/a.err" "$tmp/b.err" | sed -n 's/^arena: \([0-9]*\) matches played here, \([0-9]*\) by another arena.*/\1 \2/p' | head -1)
[ -n "$split" ] || fail "no arena said how the work was split"
read -r mine theirs <<<"$split"
[ "$mine" -gt 0 ] && [ "$theirs" -gt 0 ] && [ $((mine + theirs)) -eq 12 ] ||
  fail "work not shared: $split (a: ${here_a:-?}, b: ${here_b:-?})"
A check >/dev/null || fail "ratings check failed"
echo "shared: 12 matches stored once, split $mine + $theirs"

# An arena killed holding claims: the other takes its matches over when they lapse.
rm -f "$tmp/go"
start a 2
claims 1
kill -9 -- "-${pids[0]}"
wait "${pids[0]}" 2>/dev/null || true
pids=()
touch "$tmp/go"
t0=$(date +%s)
start b 2
rc=0; wait "${pids[0]}" || rc=$?
pids=()
[ "$rc" -eq 0 ] || fail "arena b after a was killed: exit $rc: $(tail -3 "$tmp/b.err")"
grep -q "waiting for [1-9][0-9]* matches another arena is playing" "$tmp/b.err" ||
  fail "b did not wait for the killed arena's claims: $(cat "$tmp/b.err")"
once 2
echo "takeover: the killed arena's matches played after $(( $(date +%s) - t0 )) s"
