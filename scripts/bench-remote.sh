#!/usr/bin/env bash
# bench-remote.sh - a remote bot's decision time against the same bot local,
# in one run: the greedy C bot registered twice, once as a local bot (run
# by the referee) and once as a remote bot (arena submit --remote, played
# by `arena connect` on this machine through the gateway over CURVE on
# loopback), both against the random bot in one tournament, --clock wall,
# one match at a time. Prints each one's mean wall time per decision as the
# referee measured it (its records), and the difference: what the relay,
# the gateway and the CURVE link cost a decision.
#
# usage: scripts/bench-remote.sh [BUILD_DIR] [GAMES]   (default build, 10)
set -euo pipefail
build=$(readlink -f "${1:-build}") games=${2:-10}
arena=$build/arena/arena greedy=$build/agents/greedy random=$build/agents/random
[ -x "$arena" ] && [ -x "$greedy" ] && [ -x "$random" ] || {
  echo "bench-remote: build first (no $arena, $greedy or $random)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-bench-remote.XXXXXX")
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null; rm -rf "$tmp"' EXIT
A() { "$arena" --db "$tmp/arena.db" "$@"; }
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
A user add me --endpoint "tcp://127.0.0.1:$port" --out "$tmp/me.cred" >/dev/null
A gateway --listen "tcp://127.0.0.1:$port" 2>"$tmp/gw.log" &
pids+=($!)
for _ in $(seq 100); do grep -q listening "$tmp/gw.log" && break; sleep 0.1; done
"$arena" submit --credentials "$tmp/me.cred" --name remote --version 1 --game warchest \
  --remote >/dev/null
"$arena" connect --credentials "$tmp/me.cred" --name remote -- "$greedy" >"$tmp/connect.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do grep -q "^connected" "$tmp/connect.log" && break; sleep 0.1; done
A bot add local --no-test --cmd "$greedy" >/dev/null
A bot add opponent --no-test --cmd "$random" >/dev/null
A tournament --format gauntlet opponent remote local --games "$games" --clock wall \
  --concurrency 1 --move-ms 5000 --bank-ms 60000 --quiet >/dev/null 2>"$tmp/tour.err" ||
  { cat "$tmp/tour.err" >&2; exit 1; }
# Each match's seat lines: "SEAT BOT VERSION ID SCORE DECISIONS TIME(s) ...".
n=$(A matches --format csv | tail -n +2 | grep -c .)
for id in $(seq "$n"); do A match "$id"; done | awk '
  $2 == "remote" || $2 == "local" {
    t = $7; sub(/s$/, "", t); time[$2] += t; dec[$2] += $6; matches[$2]++ }
  END {
    for (b in time)
      printf "%-7s greedy: %4d matches, %6d decisions, %.3f ms per decision (wall, at the referee)\n",
             b, matches[b], dec[b], 1000 * time[b] / dec[b]
    if (dec["remote"] && dec["local"])
      printf "remote - local: %.3f ms per decision (relay, gateway, CURVE on loopback)\n",
             1000 * (time["remote"] / dec["remote"] - time["local"] / dec["local"])
  }'
grep -h "round trip" "$tmp"/*.log 2>/dev/null | tail -1 || true
