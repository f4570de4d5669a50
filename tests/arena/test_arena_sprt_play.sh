#!/usr/bin/env bash
# `arena sprt A B --play`: plays seed pairs until the SPRT decides, as an
# ordinary tournament. Greedy against random with a wide margin accepts H1
# long before --max-games; stopped by SIGTERM after its first pair and run
# again, it resumes the same tournament; the stored games are whole seed
# pairs of one tournament, which standings and a second run see; a run
# capped by --max-games stops there undecided; bad arguments are one line
# and exit 2.
# Usage: test_arena_sprt_play.sh ARENA RANDOM GREEDY
set -euo pipefail
arena=$1 random=$2 greedy=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-sprt-play-XXXXXX")
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"
A() { "$arena" --db "$tmp/a.db" "$@"; }
A bot add random --no-test --cmd "$random" >/dev/null
A bot add greedy --no-test --cmd "$greedy" >/dev/null
# Greedy that takes 0.2 s to start: a pair lasts long enough to be stopped.
# (No sandbox: a sandboxed sh would not see the program it is to exec.)
A bot add slow --no-test --cmd "sh -c 'sleep 0.2; exec $greedy'" >/dev/null
# --memory-mb 0: sanitizer builds of the bots need the address space.
play=(sprt slow random --play --elo0 0 --elo1 200 --max-games 200 --concurrency 1
      --memory-mb 0 --sandbox none)

# Stopped after its first pair (SIGTERM), then the same command again.
# (The program itself in the background, not the function: the signal is its.)
"$arena" --db "$tmp/a.db" "${play[@]}" >"$tmp/1.out" 2>"$tmp/1.err" &
pid=$!
for _ in $(seq 600); do
  grep -q '^sprt: pairs 1 ' "$tmp/1.out" && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
kill -TERM "$pid" 2>/dev/null || true
wait "$pid" && rc=0 || rc=$?
pid=
[ "$rc" -eq 130 ] || fail "stopped run: exit $rc: $(cat "$tmp/1.err")"
grep -q 'stopped: [0-9]* of 200 matches stored' "$tmp/1.err" || fail "no stop line: $(cat "$tmp/1.err")"
A "${play[@]}" >"$tmp/2.out" 2>"$tmp/2.err" && rc=0 || rc=$?
[ "$rc" -eq 0 ] || fail "resumed run: exit $rc: $(cat "$tmp/2.err")"
grep -q 'resuming tournament 1: [1-9][0-9]* of 200 matches stored' "$tmp/2.err" \
  || fail "not resumed: $(cat "$tmp/2.err")"
grep -q 'H1 accepted' "$tmp/2.out" || fail "no H1: $(cat "$tmp/2.out")"
lines=$(grep -c '^sprt: pairs ' "$tmp/2.out")
[ "$lines" -ge 2 ] || fail "one SPRT line a pair: $(cat "$tmp/2.out")"

# One tournament of whole seed pairs, far fewer than --max-games.
A matches --format csv | tail -n +2 | cut -d, -f2,3 | sort | uniq -c >"$tmp/pairs"
tours=$(awk '{ split($2, f, ","); print f[1] }' "$tmp/pairs" | sort -u)
[ "$tours" = 1 ] || fail "games outside tournament 1: $tours"
awk '$1 != 2 { exit 1 }' "$tmp/pairs" || fail "a seed without both seatings: $(cat "$tmp/pairs")"
stored=$(A matches --format csv | tail -n +2 | wc -l)
[ "$stored" -ge 4 ] && [ "$stored" -le 40 ] || fail "$stored games stored for a wide margin"
grep -q "^tournament 1: $stored games stored" "$tmp/2.out" || fail "count: $(cat "$tmp/2.out")"
A standings --tournament 1 | grep -q '^ *1  slow ' || fail "standings do not show it"

# Decided: the same command again plays nothing and says the verdict.
A "${play[@]}" >"$tmp/3.out" 2>&1 || fail "third run: $(cat "$tmp/3.out")"
grep -q 'H1 accepted' "$tmp/3.out" || fail "third run: $(cat "$tmp/3.out")"
[ "$(A matches --format csv | tail -n +2 | wc -l)" -eq "$stored" ] || fail "played again"

# Capped: 2 pairs cannot decide 0 against 5 Elo; it stops there, exit 0.
out=$(A sprt greedy random --play --elo0 0 --elo1 5 --max-games 4 --concurrency 2 \
        --memory-mb 0 2>"$tmp/4.err") || fail "capped run: $(cat "$tmp/4.err")"
[[ "$out" == *"tournament 2: 4 games stored"* && "$out" == *"undecided after --max-games 4"* ]] \
  || fail "capped: $out"
[ "$(echo "$out" | grep -c '^sprt: pairs ')" -eq 2 ] || fail "capped lines: $out"

for args in "greedy greedy --play" "greedy nobody --play" "greedy random --play --max-games 1" \
            "greedy random --play --max-games 3" "greedy random --play --tournament 1" \
            "greedy random --play --elo0 9 --elo1 1" "greedy --play" \
            "greedy random --max-games 4" "greedy random --play --bogus 1"; do
  err=$(A sprt $args 2>&1 >/dev/null) && rc=0 || rc=$?
  [ "$rc" -eq 2 ] || fail "sprt $args: exit $rc"
  [ "$(echo "$err" | wc -l)" -eq 1 ] && [[ "$err" == arena:* ]] || fail "sprt $args: '$err'"
done
[ "$(A matches --format csv | tail -n +2 | wc -l)" -eq $((stored + 4)) ] \
  || fail "a bad command stored games"
echo "1 passed, 0 failed"
