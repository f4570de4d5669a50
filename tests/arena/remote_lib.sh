# remote_lib.sh - what the tests of remote workers share (sourced): a
# scratch folder removed at exit with every process started, named tests,
# bounded waits, an arena listening on TCP and `referee worker` processes
# that join it, network namespaces joined by veth pairs (root only). The
# sourcing script sets ARENA REFEREE RANDOM_BOT GREEDY_BOT and LIB_NAME (the
# scratch folder's prefix) first.

HERE=$(dirname "$(readlink -f "$0")")
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=$(command -v python3)

ROOT=$(mktemp -d "${TMPDIR:-/tmp}/${LIB_NAME:-arena-remote}.XXXXXX")
PIDS=() NSES=()
cleanup() {
  local p ns
  [ "$(type -t cleanup_more)" = function ] && cleanup_more
  for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  for p in $(procs_with "$ROOT/" | cut -d' ' -f1); do kill -9 "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  for ns in "${NSES[@]}"; do ip netns del "$ns" 2>/dev/null || true; done
  rm -rf "$ROOT"
}
trap cleanup EXIT

CURRENT= T= DB=
# shellcheck source=../lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"     # fail, note
new_test() {
  CURRENT=$1 T=$ROOT/$1 DB=$ROOT/$1/arena.db
  mkdir -p "$T"
  echo "== $1"
}
ar() { "$ARENA" --db "$DB" "$@"; }

# How long a step may take before the test calls it stuck: far above what a
# loaded 2-core machine needs, since every wait below ends as soon as its
# condition holds (the bound only matters when something is broken).
PATIENCE=120

# Runs COMMAND every 50 ms until it succeeds (0) or $PATIENCE seconds pass (1).
eventually() {
  local deadline=$((SECONDS + PATIENCE))
  until "$@"; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.05
  done
}

add_two() {
  ar bot add r --no-test --cmd "$RANDOM_BOT" >/dev/null
  ar bot add g --no-test --cmd "$GREEDY_BOT" >/dev/null
}

# Starts `arena tournament ARGS` in the background, listening on $LISTEN
# (default: any port), stderr in $T/arena.err; sets ARENA_PID and ENDPOINT,
# the address it printed for workers.
start_arena() {
  # The files exist before the background job starts, so that nothing
  # reads them before its redirections have made them.
  : >"$T/arena.out"
  : >"$T/arena.err"
  ar tournament --quiet --concurrency 0 --listen "${LISTEN:-tcp://127.0.0.1:*}" "$@" \
    >>"$T/arena.out" 2>>"$T/arena.err" &
  ARENA_PID=$!
  PIDS+=("$ARENA_PID")
  ENDPOINT=
  eventually endpoint_or_exit || true
  [ -n "$ENDPOINT" ] && return 0
  cat "$T/arena.err" >&2
  fail "the arena printed no endpoint for workers"
}

# True once the arena printed its endpoint (in ENDPOINT) or has exited.
endpoint_or_exit() {
  ENDPOINT=$(sed -n 's/^arena: workers connect to \(tcp:[^ ]*\) .*/\1/p' "$T/arena.err")
  [ -n "$ENDPOINT" ] || ! kill -0 "$ARENA_PID" 2>/dev/null
}

# Starts a worker; WORKER_PID. Its log is $T/$1.log.
start_worker() {
  local name=$1
  shift
  "$REFEREE" worker --connect "$ENDPOINT" --verbose "$@" 2>"$T/$name.log" &
  WORKER_PID=$!
  PIDS+=("$WORKER_PID")
}

# Waits for pid $1, which is ending on its own, to exit; its status in WAITED.
wait_exit() {
  eventually gone "$1" || fail "process $1 still running after $PATIENCE s"
  WAITED=0
  wait "$1" || WAITED=$?
}
gone() { ! kill -0 "$1" 2>/dev/null; }

# Waits for the arena to finish, successfully.
arena_done() {
  wait_exit "$ARENA_PID"
  [ "$WAITED" -eq 0 ] || fail "the arena failed: $(cat "$T/arena.err")"
}

# The arenas at work (arena_runs): "WORKERS LISTENING" a line.
run_rows() {
  "$PYTHON" - "$DB" <<'PY'
import sqlite3, sys
for workers, listening in sqlite3.connect(sys.argv[1]).execute(
        "SELECT workers, listening FROM arena_runs"):
    print(workers, listening)
PY
}
run_rows_are() { [ "$(run_rows)" = "$1" ]; }

jobs_in() { grep '^referee worker: job ' "$T/$1.log" | grep -vc ': playing$' || true; }
stored() { ar matches --format csv | tail -n +2 | grep -c . || true; }

# Live processes whose command line contains $1 (read from /proc).
procs_with() {
  local d args
  for d in /proc/[0-9]*; do
    args=()
    mapfile -d '' args 2>/dev/null <"$d/cmdline" || continue
    [ ${#args[@]} -gt 0 ] && [[ "${args[*]}" == *"$1"* ]] && echo "${d#/proc/} ${args[*]}"
  done
  return 0
}

# True once no live process's command line contains $1 (waits up to 5 s:
# processes killed by a signal take a moment to go); else lists them on stderr.
none_left() {
  local left i
  for i in $(seq 100); do
    left=$(procs_with "$1")
    [ -z "$left" ] && return 0
    sleep 0.05
  done
  echo "$left" >&2
  return 1
}

# ---- forging workers ----------------------------------------------------------

FORGE_GAMES=4 FORGE_SEED=7
HONEST=$ROOT/honest.db
matches_of() { "$ARENA" --db "$1" matches --format csv; }

# The forgers' tournament played honestly by the arena's own worker, in
# $HONEST, its records exported to $ROOT/records/ (what forge_worker.py
# forges from).
honest() {
  [ -e "$HONEST" ] && return 0
  DB=$HONEST add_two
  "$ARENA" --db "$HONEST" tournament --quiet --concurrency 1 --games $FORGE_GAMES \
    --seed $FORGE_SEED >/dev/null
  mkdir -p "$ROOT/records"
  local i
  for i in $(seq $((FORGE_GAMES))); do
    "$ARENA" --db "$HONEST" export "$i" "$ROOT/records/$i" >/dev/null
  done
}
dropped() { grep -q "arena: dropped worker" "$T/arena.err"; }

# ---- network namespaces (root only) ---------------------------------------------

# A command runs in namespace NS by `nsenter --net=/run/netns/NS COMMAND`
# (it execs COMMAND: a process started in the background keeps its pid),
# not `ip netns exec`: that one mounts a sysfs of its own over /sys, which
# hides the cgroups, and sandboxed bots would lose their cgroup limits (the
# memory one then falls back to an address-space limit a sanitized bot
# cannot start under).

# ns_make NS: network namespace NS, its loopback up, deleted at exit. 1 when
# it cannot be made (no root, or no netns support).
ns_make() {
  ip netns add "$1" 2>/dev/null || return 1
  NSES+=("$1")
  ip -n "$1" link set lo up
}

# ns_join NS DEV ADDR PEER_NS PEER_DEV PEER_ADDR: namespace NS made (ns_make)
# and joined to PEER_NS (made already) by a veth pair, DEV in NS with
# ADDR/30 and PEER_DEV in PEER_NS with PEER_ADDR/30, both up. 1 when NS
# cannot be made. Several runs may share the machine: the caller's names
# and addresses carry a tag of its own.
ns_join() {
  local ns=$1 dev=$2 addr=$3 peer_ns=$4 peer_dev=$5 peer_addr=$6
  ns_make "$ns" || return 1
  ip link add "$dev" type veth peer name "$peer_dev"
  ip link set "$dev" netns "$ns"
  ip link set "$peer_dev" netns "$peer_ns"
  ip -n "$ns" addr add "$addr/30" dev "$dev"
  ip -n "$peer_ns" addr add "$peer_addr/30" dev "$peer_dev"
  ip -n "$ns" link set "$dev" up
  ip -n "$peer_ns" link set "$peer_dev" up
}
