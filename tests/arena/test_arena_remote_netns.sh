#!/usr/bin/env bash
# test_arena_remote_netns.sh - workers on other hosts, on one machine: the
# arena in one network namespace, each worker in its own, joined to the
# arena's by a veth pair with private addresses (10.231.N.0/30 ...), over
# TCP with CURVE (keys in the database: arena worker add). Root only: where
# namespaces cannot be made it skips (exit 77) saying why. The namespaces
# and their links are removed at the end, failed or not.
#
# usage: test_arena_remote_netns.sh ARENA REFEREE RANDOM GREEDY [TEST...]
#
# - play:    two workers in two namespaces play a tournament between them;
# - killed:  a worker killed -9 mid-match: its match is played again by the
#            other, every match stored once;
# - cut:     a worker's link cut (veth down) for longer than the heartbeat
#            while it plays: its match goes to the other worker, every match
#            stored once, the cut worker's late result ignored;
# - refused: a worker with an unknown key and one with a revoked key, each
#            from its namespace, are refused and play nothing;
# - forger:  a worker that forges its results (forge_worker.py, over CURVE
#            from its namespace) is refused and dropped; an honest worker
#            plays every match.
set -euo pipefail

if [ $# -lt 4 ]; then
  echo "usage: $0 ARENA REFEREE RANDOM GREEDY [TEST...]" >&2
  exit 2
fi
ARENA=$(readlink -f "$1") REFEREE=$(readlink -f "$2") RANDOM_BOT=$(readlink -f "$3")
GREEDY_BOT=$(readlink -f "$4")
shift 4

skip() { echo "SKIP: $*: network namespaces need root (CI runs it as root)"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "not root"
command -v ip >/dev/null || skip "no ip command (iproute2)"

LIB_NAME=arena-netns
# shellcheck source=remote_lib.sh
source "$(dirname "$(readlink -f "$0")")/remote_lib.sh"

# Names and addresses of this run's own: several runs may share the machine.
TAG=$(( $$ % 100000 ))
SUBNET=10.231.$(( $$ % 250 ))
NS_ARENA=arwk${TAG}a
ns_make "$NS_ARENA" || skip "ip netns add failed"

# Worker namespace I (1, 2, 3): its veth pair to the arena's namespace,
# SUBNET.(4I+1) on the arena's side, SUBNET.(4I+2) on the worker's; the
# worker's namespace in NS_I, the arena's address for it in ADDR_I.
link_worker_ns() {
  local i=$1 ns=arwk${TAG}w$1 a=va${TAG}x$1 w=vw${TAG}x$1
  ns_join "$ns" "$w" "$SUBNET.$((4 * i + 2))" "$NS_ARENA" "$a" "$SUBNET.$((4 * i + 1))" ||
    fail "cannot make namespace $ns"
  printf -v "NS_$i" %s "$ns"
  printf -v "ADDR_$i" %s "$SUBNET.$((4 * i + 1))"
  printf -v "VETH_$i" %s "$a"
}
for i in 1 2 3; do link_worker_ns $i; done

# The arena runs in its namespace; so do the other arena commands (the
# database is a file, the same from everywhere), entered by nsenter
# (remote_lib.sh says why).
ar() { nsenter "--net=/run/netns/$NS_ARENA" "$ARENA" --db "$DB" "$@"; }
LISTEN="tcp://0.0.0.0:*"
port() { echo "${ENDPOINT##*:}"; }

# ns_worker NAME I [ARGS...]: a worker in namespace I with key $T/NAME
# (made and added unless it exists); WORKER_PID.
ns_worker() {
  local name=$1 i=$2 ns addr
  shift 2
  ns=NS_$i addr=ADDR_$i
  [ -e "$T/$name" ] || ar worker add "$name" --out "$T/$name" >/dev/null
  nsenter "--net=/run/netns/${!ns}" "$REFEREE" worker --connect "tcp://${!addr}:$(port)" --verbose \
    --sandbox none --curve-server "$T/arena.pub" --curve-key "$T/$name" "$@" \
    2>"$T/$name.log" &
  WORKER_PID=$!
  PIDS+=("$WORKER_PID")
}
arena_keys() { ar keygen "$T/arena" >/dev/null; }
distinct_stored() { ar matches --format csv | tail -n +2 | cut -d, -f1 | sort -u | grep -c . || true; }
# The first match's second bot holds its worker (sleeps) until the test is
# done with it; every later start of it is the greedy bot.
add_holder() {
  ar bot add r --no-test --cmd "$RANDOM_BOT" >/dev/null
  ln -s "$(command -v sleep)" "$T/hold"
  printf 'if [ -e %s/held ]; then exec %s; fi\ntouch %s/held\nexec %s/hold 600\n' \
    "$T" "$GREEDY_BOT" "$T" "$T" >"$T/held.sh"
  ar bot add s --no-test --cmd "sh $T/held.sh" >/dev/null
}

test_play() {
  new_test play
  add_two
  arena_keys
  start_arena --games 4 --curve-key "$T/arena"
  ns_worker one 1
  ns_worker two 2
  arena_done
  [ "$(stored)" -eq 4 ] || fail "expected 4 stored matches, got $(stored)"
  [ $(( $(jobs_in one) + $(jobs_in two) )) -eq 4 ] || fail "the workers played $(jobs_in one) + $(jobs_in two)"
  grep -q "remote pid" "$T/arena.err" && fail "a worker was refused: $(cat "$T/arena.err")"
  ar check >/dev/null || fail "arena check failed"
  note "two workers in two namespaces played the tournament over TCP with CURVE"
}

test_killed() {
  new_test killed
  add_holder
  arena_keys
  start_arena --games 4 --curve-key "$T/arena" --handshake-ms 60000
  ns_worker one 1
  local one=$WORKER_PID
  eventually test -e "$T/held" || fail "worker one never started a match"
  kill -9 "$one"
  ns_worker two 2
  arena_done
  grep -q "went away; match [0-9]* goes to another worker" "$T/arena.err" ||
    fail "the killed worker's match was not handed out again: $(cat "$T/arena.err")"
  [ "$(stored)" -eq 4 ] && [ "$(distinct_stored)" -eq 4 ] || fail "stored $(stored), $(distinct_stored) distinct"
  [ "$(jobs_in two)" -eq 4 ] || fail "worker two played $(jobs_in two) matches, not 4"
  note "killed mid-match in its namespace; played again by the other, stored once"
}

test_cut() {
  new_test cut
  add_holder
  arena_keys
  start_arena --games 4 --curve-key "$T/arena" --handshake-ms 60000
  ns_worker one 1
  eventually test -e "$T/held" || fail "worker one never started a match"
  ip -n "$NS_ARENA" link set "$VETH_1" down
  local t0=$SECONDS
  # The heartbeat drops a silent peer after 10 s; the next probe finds it.
  eventually grep -q "went away; match [0-9]* goes to another worker" "$T/arena.err" ||
    fail "the cut worker's match was not handed out again: $(cat "$T/arena.err")"
  [ $((SECONDS - t0)) -ge 9 ] || fail "the match was handed out before the heartbeat ran out"
  ns_worker two 2
  arena_done
  ip -n "$NS_ARENA" link set "$VETH_1" up
  [ "$(stored)" -eq 4 ] && [ "$(distinct_stored)" -eq 4 ] || fail "stored $(stored), $(distinct_stored) distinct"
  [ "$(jobs_in two)" -eq 4 ] || fail "worker two played $(jobs_in two) matches, not 4"
  ar check >/dev/null || fail "arena check failed"
  note "a link cut past the heartbeat: its match played again elsewhere, stored once"
}

test_refused() {
  new_test refused
  add_two
  arena_keys
  ar keygen "$T/stranger" >/dev/null
  ar worker add gone --out "$T/gone" >/dev/null
  ar worker revoke gone >/dev/null
  start_arena --games 2 --curve-key "$T/arena"
  ns_worker stranger 3
  ns_worker gone 2
  eventually grep -q "refused this worker (wrong or unknown key)" "$T/stranger.log" ||
    fail "the unknown key was not refused: $(cat "$T/stranger.log")"
  eventually grep -q "refused this worker (wrong or unknown key)" "$T/gone.log" ||
    fail "the revoked key was not refused: $(cat "$T/gone.log")"
  ns_worker one 1
  arena_done
  [ "$(jobs_in one)" -eq 2 ] && [ "$(jobs_in stranger)" -eq 0 ] && [ "$(jobs_in gone)" -eq 0 ] ||
    fail "matches went to one $(jobs_in one), stranger $(jobs_in stranger), gone $(jobs_in gone)"
  note "an unknown key and a revoked key refused across namespaces"
}

test_forger() {
  new_test forger
  honest
  add_two
  arena_keys
  ar worker add forger --out "$T/forger" >/dev/null
  start_arena --games $FORGE_GAMES --seed $FORGE_SEED --curve-key "$T/arena"
  nsenter "--net=/run/netns/$NS_3" "$PYTHON" "$HERE/forge_worker.py" "tcp://$ADDR_3:$(port)" seed \
    "$ROOT/records" "$T/forger.jobs" "$T/arena.pub" "$T/forger" >"$T/forger.out" 2>&1 &
  local forger=$!
  PIDS+=("$forger")
  eventually dropped || fail "the forger was not dropped: $(cat "$T/arena.err")"
  wait_exit "$forger"
  [ "$WAITED" -eq 0 ] || fail "the forger: $(cat "$T/forger.out")"
  [ "$(stored)" -eq 0 ] || fail "a forged result was stored: $(ar matches)"
  grep -q "refused the result of match [0-9]* from worker [0-9]* (remote pid $forger at $SUBNET.14)" \
    "$T/arena.err" || fail "no refusal naming the forger: $(cat "$T/arena.err")"
  ns_worker honest 1
  arena_done
  [ "$(stored)" -eq $FORGE_GAMES ] && [ "$(distinct_stored)" -eq $FORGE_GAMES ] ||
    fail "stored $(stored)"
  diff <(matches_of "$HONEST" | cut -d, -f1-8) <(ar matches --format csv | cut -d, -f1-8) \
    >"$T/diff" || fail "the stored results differ from the honest ones: $(cat "$T/diff")"
  ar check --replay >/dev/null 2>&1 || fail "arena check --replay failed"
  note "a forger in its namespace refused and dropped; an honest worker played every match"
}

ALL=(play killed cut refused forger)
for t in "${@:-${ALL[@]}}"; do "test_$t"; done
echo "test_arena_remote_netns: all passed"
