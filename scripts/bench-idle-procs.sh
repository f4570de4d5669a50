#!/usr/bin/env bash
# bench-idle-procs.sh - does a match cost more on a busy machine? Runs short
# matches (Goofspiel, two C random bots, the default sandbox) in batches,
# alternately with and without IDLE idle processes (`sleep 600`) started
# beside them, and prints the CPU time per match (user + sys of the referee,
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

# One batch: prints "cpu_ms_per_match wall_ms_per_match".
batch() {
  local seed0=$1
  # shellcheck disable=SC2086
  /usr/bin/time -f "%e %U %S" -o "$tmp/time" bash -c '
    for ((i = 0; i < '"$matches"'; i++)); do
      "$0" play --game goofspiel --quiet --seed $(('"$seed0"' + i)) --bot "$1" --bot "$1" '"${BENCH_FLAGS:-}"' \
        >/dev/null || exit 1
    done' "$referee" "$bot"
  awk -v n="$matches" '{ printf "%.2f %.2f\n", ($2 + $3) * 1000 / n, $1 * 1000 / n }' "$tmp/time"
}

start_sleepers() {
  for ((i = 0; i < idle; i++)); do
    sleep 600 &
    sleepers+=($!)
  done
}

echo "processes on this machine: $(ls -d /proc/[0-9]* | wc -l); $matches matches a batch, $rounds rounds"
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
