#!/usr/bin/env bash
# bench-remote.sh - a remote bot's decision time against the same bot local,
# in one run: the greedy C bot registered twice, once as a local bot (run
# by the referee) and once as a remote bot (arena submit --remote, played
# by `arena connect` on this machine through the gateway over CURVE on
# loopback), both against the random bot in one tournament, --clock wall,
# one match at a time. Prints each one's mean wall time per decision as the
# referee measured it (its records), the part of it a remote seat was
# allowed for its link (its round trip, bounded: not charged) and what was
# charged, and the difference and ratios to the local copy: what the relay,
# the gateway and the CURVE link cost a decision, and what of it the
# allowance gives back. As root, where ip and tc
# are, a third copy plays from a network namespace of its own whose link
# to the gateway has 20 ms added to each round trip (netem, 10 ms each way).
#
# usage: scripts/bench-remote.sh [BUILD_DIR] [GAMES]   (default build, 10)
set -euo pipefail
build=$(readlink -f "${1:-build}") games=${2:-10}
arena=$build/arena/arena greedy=$build/agents/greedy random=$build/agents/random
[ -x "$arena" ] && [ -x "$greedy" ] && [ -x "$random" ] || {
  echo "bench-remote: build first (no $arena, $greedy or $random)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-bench-remote.XXXXXX")
pids=()
ns=
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null
      [ -n "$ns" ] && ip netns del "$ns"; rm -rf "$tmp"' EXIT
A() { "$arena" --db "$tmp/arena.db" "$@"; }
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
A user add me --endpoint "tcp://127.0.0.1:$port" --out "$tmp/me.cred" >/dev/null
bots=(opponent remote local)
if [ "$(id -u)" = 0 ] && command -v ip >/dev/null && command -v tc >/dev/null &&
   ip netns add "arbench$$" 2>/dev/null; then
  ns=arbench$$ net=10.234.$(( $$ % 250 ))
  ip link add "vb$$a" type veth peer name "vb$$b"
  ip link set "vb$$b" netns "$ns"
  ip addr add "$net.1/30" dev "vb$$a"
  ip -n "$ns" addr add "$net.2/30" dev "vb$$b"
  ip link set "vb$$a" up
  ip -n "$ns" link set "vb$$b" up
  ip -n "$ns" link set lo up
  if tc qdisc add dev "vb$$a" root netem delay 10ms 2>/dev/null &&
     ip netns exec "$ns" tc qdisc add dev "vb$$b" root netem delay 10ms 2>/dev/null; then
    A user add far --endpoint "tcp://$net.1:$port" --out "$tmp/far.cred" >/dev/null
    bots+=(remote20)
  else
    echo "bench-remote: no netem here (tc qdisc ... netem): the 20 ms run is left out" >&2
    ip netns del "$ns"
    ns=
  fi
fi
"$arena" --db "$tmp/arena.db" gateway --listen "tcp://0.0.0.0:$port" 2>"$tmp/gw.log" &
pids+=($!)
for _ in $(seq 100); do grep -q listening "$tmp/gw.log" && break; sleep 0.1; done
"$arena" submit --credentials "$tmp/me.cred" --name remote --version 1 --game warchest \
  --remote >/dev/null
"$arena" connect --credentials "$tmp/me.cred" --name remote -- "$greedy" >"$tmp/connect.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do grep -q "^connected" "$tmp/connect.log" && break; sleep 0.1; done
if [ -n "$ns" ]; then
  "$arena" submit --credentials "$tmp/far.cred" --name remote20 --version 1 --game warchest \
    --remote >/dev/null
  ip netns exec "$ns" "$arena" connect --credentials "$tmp/far.cred" --name remote20 -- \
    "$greedy" >"$tmp/connect20.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do grep -q "^connected" "$tmp/connect20.log" && break; sleep 0.1; done
fi
A bot add local --no-test --cmd "$greedy" >/dev/null
A bot add opponent --no-test --cmd "$random" >/dev/null
A tournament --format gauntlet "${bots[@]}" --games "$games" --clock wall \
  --concurrency 1 --move-ms 5000 --bank-ms 60000 --quiet >/dev/null 2>"$tmp/tour.err" ||
  { cat "$tmp/tour.err" >&2; exit 1; }
# Each match's seat lines: "SEAT BOT VERSION ID SCORE DECISIONS TIME(s) ...", and a
# remote seat's "seat N played remotely: S s of its time was its link's round trip,
# not charged": the allowance (sdk/PROTOCOL.md), off the wall time when charged.
n=$(A matches --format csv | tail -n +2 | grep -c .)
for id in $(seq "$n"); do A match "$id"; done | awk '
  /^match / { delete name }
  $1 ~ /^[0-9]+$/ && NF >= 7 { name[$1] = $2 }
  $2 == "remote" || $2 == "local" || $2 == "remote20" {
    t = $7; sub(/s$/, "", t); time[$2] += t; dec[$2] += $6; matches[$2]++ }
  /^seat [0-9]+ played remotely: / { link[name[$2]] += $5 }
  END {
    for (b in time)
      printf "%-8s greedy: %4d matches, %6d decisions, %.3f ms per decision (wall, at the referee), %.3f ms of it its link allowance: %.3f ms charged\n",
             b, matches[b], dec[b], 1000 * time[b] / dec[b], 1000 * link[b] / dec[b],
             1000 * (time[b] - link[b]) / dec[b]
    if (dec["remote"] && dec["local"])
      printf "remote - local: %.3f ms per decision (relay, gateway, CURVE on loopback); remote / local: %.2f wall, %.2f charged\n",
             1000 * (time["remote"] / dec["remote"] - time["local"] / dec["local"]),
             (time["remote"] / dec["remote"]) / (time["local"] / dec["local"]),
             ((time["remote"] - link["remote"]) / dec["remote"]) / (time["local"] / dec["local"])
    if (dec["remote20"] && dec["local"])
      printf "remote20 - local: %.3f ms per decision (the same, 20 ms added to each round trip); remote20 / local: %.2f wall, %.2f charged\n",
             1000 * (time["remote20"] / dec["remote20"] - time["local"] / dec["local"]),
             (time["remote20"] / dec["remote20"]) / (time["local"] / dec["local"]),
             ((time["remote20"] - link["remote20"]) / dec["remote20"]) / (time["local"] / dec["local"])
  }'
