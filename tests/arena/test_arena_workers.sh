#!/usr/bin/env bash
# test_arena_workers.sh - workers managed in the database (arena worker
# add|list|revoke) and what a worker says at ready, with a real arena and
# real `referee worker` processes over TCP on loopback with CURVE.
#
# usage: test_arena_workers.sh ARENA REFEREE RANDOM GREEDY [TEST...]
#
# - db_keys:  an arena with --curve-key and no --curve-workers admits the
#             database's workers: one added with --out (the pair made), one
#             with --key, and one added while the arena runs (refused at its
#             first try, admitted once added); `worker list` counts each
#             one's matches and when it was last seen, as table, CSV, JSON;
#             a --curve-workers file works beside them;
# - revoke:   a worker revoked while it plays a match is refused at its
#             arena's next beat, not when the match ends: its match played
#             again by another worker and stored once, the worker told why
#             at once: it stops its running match (its bots gone), says so
#             and exits, long before the match would have ended; it is
#             refused when it comes back;
# - manage:   bad names, keys and commands: one line, non-zero;
# - games:    a worker that plays only goofspiel gets no War Chest match;
#             --games naming a game the referee lacks is refused at start;
# - protocol: a worker told by its arena that it speaks another protocol
#             says so in its log and stops (the arena's side is
#             tests/arena/test_arena_pool.c).
set -euo pipefail

if [ $# -lt 4 ]; then
  echo "usage: $0 ARENA REFEREE RANDOM GREEDY [TEST...]" >&2
  exit 2
fi
ARENA=$(readlink -f "$1") REFEREE=$(readlink -f "$2") RANDOM_BOT=$(readlink -f "$3")
GREEDY_BOT=$(readlink -f "$4")
shift 4
LIB_NAME=arena-workers
# shellcheck source=remote_lib.sh
source "$(dirname "$(readlink -f "$0")")/remote_lib.sh"

curve_worker() {   # NAME KEY [ARGS...]: a worker with the arena's key and its own
  local name=$1 key=$2
  shift 2
  start_worker "$name" --curve-server "$T/arena.pub" --curve-key "$key" "$@"
}
worker_field() {   # NAME FIELD: that worker's field in `worker list --format json`
  ar worker list --format json | "$PYTHON" -c '
import json, sys
w = [w for w in json.load(sys.stdin) if w["name"] == sys.argv[1]][0]
print(w[sys.argv[2]])' "$1" "$2"
}

test_db_keys() {
  new_test db_keys
  add_two
  ar keygen "$T/arena" >/dev/null
  ar worker add a --out "$T/a" >"$T/add.out" || fail "worker add --out failed"
  [ -e "$T/a" ] && [ -e "$T/a.pub" ] && [ "$(stat -c %a "$T/a")" = 600 ] ||
    fail "worker add --out made no private pair"
  ar keygen "$T/b" >/dev/null
  ar worker add b --key "$T/b.pub" >/dev/null
  ar keygen "$T/late" >/dev/null
  ar keygen "$T/filed" >/dev/null
  cp "$T/filed.pub" "$T/workers"
  start_arena --games 6 --curve-key "$T/arena" --curve-workers "$T/workers"
  curve_worker late "$T/late"
  eventually grep -q "refused this worker (wrong or unknown key)" "$T/late.log" ||
    fail "a worker not yet added was let in: $(cat "$T/late.log")"
  ar worker add late --key "$T/late.pub" >/dev/null
  eventually grep -q ": playing$" "$T/late.log" ||
    fail "a worker added while the arena ran was never let in: $(cat "$T/late.log")"
  curve_worker a "$T/a"
  curve_worker b "$T/b"
  curve_worker filed "$T/filed"
  arena_done
  [ "$(stored)" -eq 6 ] || fail "expected 6 stored matches, got $(stored)"
  local n total=0 w
  for w in a b late; do
    n=$(worker_field $w matches)
    [ "$n" -eq "$(jobs_in $w)" ] || fail "worker $w: listed $n matches, played $(jobs_in $w)"
    total=$((total + n))
    [ "$(jobs_in $w)" -eq 0 ] || [ "$(worker_field $w last_seen)" != None ] ||
      fail "worker $w played but was never seen"
  done
  [ $((total + $(jobs_in filed))) -eq 6 ] || fail "the workers' matches add to $total + filed"
  ar worker list | grep -q '^late .* admitted$' || fail "table: $(ar worker list)"
  [ "$(ar worker list --format csv | head -1)" = "name,key,added,last_seen,matches,status" ] ||
    fail "csv header: $(ar worker list --format csv)"
  note "database keys and a key file admitted together; a worker added while running joined"
}

test_revoke() {
  new_test revoke
  ar bot add r --no-test --cmd "$RANDOM_BOT" >/dev/null
  # The first match's second bot sleeps (holding its worker) until revoked.
  ln -s "$(command -v sleep)" "$T/hold"
  printf 'if [ -e %s/held ]; then exec %s; fi\ntouch %s/held\nexec %s/hold 600\n' \
    "$T" "$GREEDY_BOT" "$T" "$T" >"$T/held.sh"
  ar bot add s --no-test --cmd "sh $T/held.sh" >/dev/null
  ar keygen "$T/arena" >/dev/null
  ar worker add bad --out "$T/bad" >/dev/null
  ar worker add good --out "$T/good" >/dev/null
  # The held bot never says hello: its match lasts the 120 s of its
  # handshake unless the revocation takes it away first.
  start_arena --games 4 --curve-key "$T/arena" --handshake-ms 120000
  curve_worker bad "$T/bad" --sandbox none
  local bad=$WORKER_PID
  eventually test -e "$T/held" || fail "worker bad never started a match"
  ar worker revoke bad >/dev/null
  local t0=$SECONDS
  eventually grep -q "arena: refused worker [0-9]* (remote .*): its key .* was revoked" \
    "$T/arena.err" || fail "the arena did not log the refusal: $(cat "$T/arena.err")"
  # At the arena's next beat (2 s), not when the match would have ended.
  [ $((SECONDS - t0)) -lt 20 ] || fail "the revoked worker was refused only after its match"
  grep -q "a revoked worker; match 1 goes to another worker" "$T/arena.err" ||
    fail "the revoked worker's match was not handed out again: $(cat "$T/arena.err")"
  # The worker hears it at once, not when its match is over: it stops the
  # match, says why and exits.
  wait_exit "$bad"
  [ $((SECONDS - t0)) -lt 60 ] || fail "the revoked worker left only after its match"
  [ "$WAITED" -ne 0 ] || fail "a revoked worker exited 0"
  grep -q "the arena stopped this worker: key_revoked" "$T/bad.log" ||
    fail "the revoked worker was not told why: $(cat "$T/bad.log")"
  grep -q "1 running match stopped; exiting" "$T/bad.log" ||
    fail "the revoked worker did not say it stopped its match: $(cat "$T/bad.log")"
  none_left "$T/hold" 2>"$T/left" || fail "the revoked worker's bots outlived it: $(cat "$T/left")"
  # It comes back with the same key: refused at the handshake.
  curve_worker again "$T/bad" --sandbox none
  eventually grep -q "refused this worker (wrong or unknown key)" "$T/again.log" ||
    fail "a revoked key was let in again: $(cat "$T/again.log")"
  curve_worker good "$T/good" --sandbox none
  arena_done
  [ "$(stored)" -eq 4 ] || fail "expected 4 stored matches, got $(stored)"
  [ "$(jobs_in good)" -eq 4 ] || fail "worker good played $(jobs_in good) matches, not 4"
  [ "$(jobs_in again)" -eq 0 ] || fail "the revoked key played"
  [ "$(worker_field bad status)" = revoked ] && [ "$(worker_field bad matches)" -eq 0 ] ||
    fail "worker list: $(ar worker list)"
  ar check >/dev/null || fail "arena check failed"
  note "revoked mid-match: told, its match played elsewhere and stored once"
}

test_manage() {
  new_test manage
  ar keygen "$T/k" >/dev/null
  echo "not a key" >"$T/bad.pub"
  ar worker add w --key "$T/k.pub" >/dev/null
  local args out rc
  for args in "add" "add x" "add x --key $T/bad.pub" "add x --key $T/k.pub --out $T/o" \
              "add bad/name --out $T/o2" "add w2 --key $T/k.pub" "add w --out $T/o3" \
              "revoke" "revoke nobody" "list --format xml" "nonsense"; do
    rc=0
    # shellcheck disable=SC2086
    out=$(ar worker $args 2>&1) || rc=$?
    [ "$rc" -ne 0 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] || fail "accepted or unclear: $args: $out"
  done
  ar worker revoke w >/dev/null
  rc=0
  out=$(ar worker revoke w 2>&1) || rc=$?
  [ "$rc" -ne 0 ] && grep -q "revoked already" <<<"$out" || fail "revoked twice: $out"
  [ "$(ar worker list --format json | "$PYTHON" -c 'import json,sys; print(len(json.load(sys.stdin)))')" -eq 1 ] ||
    fail "a refused add left a row: $(ar worker list)"
  # A row edited by hand with a quote, a comma and an escape: every format escapes it.
  "$PYTHON" -c 'import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute(
    "INSERT INTO workers(name, key, added_ms) VALUES (?, ?, 0)", ("ev\"il,\x1b[2J", "k,\"")); db.commit()' "$DB"
  ar worker list --format json | "$PYTHON" -c 'import json, sys; assert json.load(sys.stdin)[-1]["key"] == "k,\""' ||
    fail "JSON: $(ar worker list --format json)"
  ar worker list --format csv | "$PYTHON" -c 'import csv, sys; assert list(csv.reader(sys.stdin))[-1][1] == "k,\""' ||
    fail "CSV: $(ar worker list --format csv)"
  ! ar worker list | grep -q $'\e' || fail "the table shows an escape sequence"
  note "bad input: one line each; text from the database escaped"
}

test_games() {
  new_test games
  add_two
  start_arena --games 2
  start_worker goof --games goofspiel
  sleep 1      # time enough to be handed a match it cannot play, were it handed one
  start_worker any
  arena_done
  [ "$(jobs_in goof)" -eq 0 ] && [ "$(jobs_in any)" -eq 2 ] ||
    fail "goofspiel-only worker played $(jobs_in goof), the other $(jobs_in any)"
  local rc=0 out
  out=$("$REFEREE" worker --connect "$ENDPOINT" --games warchest,chess 2>&1) || rc=$?
  [ "$rc" -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && grep -q chess <<<"$out" ||
    fail "a game the referee lacks was accepted: $out"
  note "a worker gets only the games it said it plays"
}

test_protocol() {
  new_test protocol
  # A fake arena: a ROUTER that answers ready with the refusal an arena of
  # protocol 99 sends, after checking what the worker said.
  "$PYTHON" - "$T/port" >"$T/fake.out" 2>&1 <<'PY' &
import sys, zmq, msgpack
s = zmq.Context().socket(zmq.ROUTER)
port = s.bind_to_random_port("tcp://127.0.0.1")
open(sys.argv[1] + ".tmp", "w").write(str(port))
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
if not s.poll(60000):
    sys.exit("no ready")
ident, body = s.recv_multipart()
ready = msgpack.unpackb(body)
assert ready["type"] == "ready" and ready["protocol"] == 1, ready
assert "warchest" in ready["games"] and ready["capacity"] == 1, ready
s.send_multipart([ident, msgpack.packb({"type": "stop", "reason": "protocol_version",
                                        "protocol": 99})])
s.setsockopt(zmq.LINGER, 2000)
print("told")
PY
  PIDS+=($!)
  eventually test -e "$T/port" || fail "the fake arena did not start: $(cat "$T/fake.out")"
  local rc=0
  timeout 60 "$REFEREE" worker --connect "tcp://127.0.0.1:$(cat "$T/port")" 2>"$T/w.log" ||
    rc=$?
  [ "$rc" -eq 1 ] || fail "the refused worker exited $rc"
  grep -q "protocol_version: the arena speaks worker link protocol 99, this worker 1" "$T/w.log" ||
    fail "the worker did not say why: $(cat "$T/w.log")"
  eventually grep -q told "$T/fake.out" || fail "fake arena: $(cat "$T/fake.out")"
  note "refused for its protocol, the worker said so and stopped"
}

ALL=(db_keys revoke manage games protocol)
for t in "${@:-${ALL[@]}}"; do "test_$t"; done
echo "test_arena_workers: all passed"
