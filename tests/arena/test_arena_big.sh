#!/usr/bin/env bash
# Big tournaments: --games 1000000 plans lazily (the first match is stored
# at once, memory stays under 100 MB), SIGTERM and Ctrl-C store what is
# finished and say how to resume, the same command resumes, --rating-interval
# prints standings as it goes, and the --games error states the limit.
# Usage: test_arena_big.sh ARENA RANDOM GREEDY
set -euo pipefail
arena=$1 random=$2 greedy=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-big-XXXXXX")
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"
A() { "$arena" --db "$tmp/a.db" "$@"; }
stored() { A matches --format csv | tail -n +2 | wc -l; }

A bot add r --no-test --cmd "$random" >/dev/null
A bot add g --no-test --cmd "$greedy" >/dev/null
err=$(A tournament --games 3 r g 2>&1) && fail "odd --games accepted"
[[ "$err" == *"even number from 2 to 1000000"* ]] || fail "the --games error hides the limit: $err"
err=$(A tournament --games 1000002 r g 2>&1) && fail "--games over the limit accepted"
[[ "$err" == *"from 2 to 1000000"* ]] || fail "unclear error: $err"

# A million games per pairing, stopped by SIGTERM, then by SIGINT, then by
# Ctrl-C at a terminal: SIGINT to the whole process group (GROUP; setsid
# makes the arena its leader), which the workers leave to the arena.
for sig in TERM INT GROUP; do
  leader=; [ "$sig" = GROUP ] && leader=setsid
  $leader "$arena" --db "$tmp/a.db" tournament --games 1000000 --concurrency 2 --memory-mb 0 \
    --rating-interval 4 r g \
    >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  before=$(stored)
  for _ in $(seq 600); do                  # the first match, however loaded the machine
    [ "$(stored)" -gt "$before" ] && break
    sleep 0.1
  done
  [ "$(stored)" -gt "$before" ] || fail "no match stored: $(cat "$tmp/err")"
  grep -q "planning 1000000 matches\|resuming tournament 1: [0-9]* of 1000000" "$tmp/err" ||
    fail "no planning line: $(head -3 "$tmp/err")"
  while [ "$(stored)" -lt $((before + 8)) ]; do sleep 0.1; done
  hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
  [ "$hwm" -lt 102400 ] || fail "the arena grew to $hwm kB with --games 1000000"
  if [ "$sig" = GROUP ]; then kill -s INT -- "-$pid"; else kill -s "$sig" "$pid"; fi
  rc=0; wait "$pid" || rc=$?
  pid=
  [ "$rc" -ne 0 ] || fail "SIG$sig: exit status 0"
  [ "$sig" != GROUP ] || [ "$rc" = 130 ] || fail "Ctrl-C to the group: exit $rc"
  ! grep -q "a worker stopped\|starting another" "$tmp/err" ||
    fail "SIG$sig: workers died of it: $(grep worker "$tmp/err")"
  n=$(stored)
  grep -q "stopped: $n of 1000000 matches stored; run the same command again" "$tmp/err" ||
    fail "SIG$sig (rc $rc, $n stored): no count of what is stored: $(tail -2 "$tmp/err")"
  grep -q "^standings after 4 of 1000000 matches:" "$tmp/out" ||
    grep -q "^standings after $((before + 4)) of 1000000 matches:" "$tmp/out" ||
    fail "--rating-interval printed no standings: $(head -3 "$tmp/out")"
  echo "SIG$sig: $n matches stored, peak memory $hwm kB"
done
grep -q "resuming tournament 1: [0-9]* of 1000000 matches stored" "$tmp/err" ||
  fail "the same command did not resume"
A check >/dev/null || fail "ratings check failed"
[ "$(A matches --format csv | tail -n +2 | cut -d, -f1 | sort | uniq -d | wc -l)" -eq 0 ] ||
  fail "a match stored twice"
echo "big: lazy planning, flat memory, stops with a count, resumes"
