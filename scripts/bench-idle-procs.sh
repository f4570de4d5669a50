#!/usr/bin/env bash
# bench-idle-procs.sh - does a match cost more on a busy machine? Runs short
# matches (Goofspiel, two C random bots, the default sandbox) in batches,
# alternately with and without IDLE idle processes (`sleep 600`) started
# beside them, and prints the referee's own CPU time per match (its task
# clock from perf stat --no-inherit; without perf, user + sys of the referee,
# its bots and their sandboxes) and the wall time per match of each batch,
# then the median of the per-round ratios with / without. A referee whose
# bookkeeping scanned /proc paid for every process of the machine; one that
# walks its own descendants should give a ratio of 1 within the noise.
# Usage: scripts/bench-idle-procs.sh [IDLE [MATCHES [ROUNDS]]]   (after a build)
#   defaults: 1000 idle processes, 20 matches a batch, 5 rounds.
#   REFEREE=path   another referee binary (e.g. an older build, to compare)
#   extra referee play flags in BENCH_FLAGS (e.g. BENCH_FLAGS="--sandbox none")
set -euo pipefail
idle=${1:-1000} matches=${2:-20} rounds=${3:-5}
repo=$(cd "$(dirname "$0")/.." && pwd)
referee=${REFEREE:-$repo/build/referee/referee}
bot=$repo/build/agents/random
perf=$(command -v perf || true)
for f in "$referee" "$bot"; do
  [ -x "$f" ] || { echo "bench-idle-procs: build first ($f)" >&2; exit 2; }
done
tmp=$(mktemp -d /tmp/bench-idle-procs-XXXXXX)
sleepers=()
stop_sleepers() {
  if [ ${#sleepers[@]} -gt 0 ]; then
    kill "${sleepers[@]}" 2>/dev/null || true
    wait "${sleepers[@]}" 2>/dev/null || true
  fi
  sleepers=()
}
trap 'stop_sleepers; rm -rf "$tmp"' EXIT

# One batch: prints "cpu_ms_per_match wall_ms_per_match". The CPU is the
# referee's own (perf stat --no-inherit: its task clock, not its bots'), or
# without perf everything the matches ran (user + sys of the referee, its
# bots and their sandboxes).
batch() {
  local seed0=$1 t0 t1
  : >"$tmp/clock"
  t0=$(date +%s%N)
  for ((i = 0; i < matches; i++)); do
    # shellcheck disable=SC2086
    if [ -n "$perf" ]; then
      "$perf" stat --no-inherit -x, -e task-clock --append -o "$tmp/clock" \
        "$referee" play --game goofspiel --quiet --seed $((seed0 + i)) --bot "$bot" --bot "$bot" \
        ${BENCH_FLAGS:-} >/dev/null
    else
      /usr/bin/time -a -o "$tmp/clock" -f "%U %S" \
        "$referee" play --game goofspiel --quiet --seed $((seed0 + i)) --bot "$bot" --bot "$bot" \
        ${BENCH_FLAGS:-} >/dev/null
    fi
  done
  t1=$(date +%s%N)
  awk -F'[, ]' -v n="$matches" -v wall=$(((t1 - t0) / 1000)) '
    /task-clock/ { ms += $1 }
    /^[0-9.]+ [0-9.]+$/ { ms += ($1 + $2) * 1000 }
    END { printf "%.2f %.2f\n", ms / n, wall / 1000 / n }' "$tmp/clock"
}

start_sleepers() {
  for ((i = 0; i < idle; i++)); do
    sleep 600 &
    sleepers+=($!)
  done
}

what="the referee, its bots and sandboxes (no perf)"
[ -z "$perf" ] || what="the referee alone (perf stat)"
echo "processes on this machine: $(ls -d /proc/[0-9]* | wc -l); $matches matches a batch, $rounds rounds; cpu: $what"
printf "%-6s %-28s %-28s %s\n" round "without: cpu, wall ms/match" "with $idle idle: cpu, wall" "ratio cpu, wall"
: >"$tmp/ratios"
for ((r = 0; r < rounds; r++)); do
  seed=$((1000 * r + 1))
  if ((r % 2 == 0)); then
    read -r c0 w0 < <(batch "$seed")
    start_sleepers
    read -r c1 w1 < <(batch "$seed")
    stop_sleepers
  else
    start_sleepers
    read -r c1 w1 < <(batch "$seed")
    stop_sleepers
    read -r c0 w0 < <(batch "$seed")
  fi
  rc=$(awk -v a="$c1" -v b="$c0" 'BEGIN { printf "%.3f", a / b }')
  rw=$(awk -v a="$w1" -v b="$w0" 'BEGIN { printf "%.3f", a / b }')
  echo "$rc $rw" >>"$tmp/ratios"
  printf "%-6d %-28s %-28s %s %s\n" "$r" "$c0 $w0" "$c1 $w1" "$rc" "$rw"
done
sort -n -k1 "$tmp/ratios" | awk '{ c[NR] = $1 } END { printf "median ratio, cpu per match:  %.3f (range %.3f..%.3f)\n", c[int((NR + 1) / 2)], c[1], c[NR] }'
sort -n -k2 "$tmp/ratios" | awk '{ w[NR] = $2 } END { printf "median ratio, wall per match: %.3f (range %.3f..%.3f)\n", w[int((NR + 1) / 2)], w[1], w[NR] }'
