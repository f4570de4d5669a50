#!/usr/bin/env bash
# test_arena_remote.sh - remote workers over TCP, end to end: an arena with
# no workers of its own (--concurrency 0 --listen tcp://127.0.0.1:*) and
# real `referee worker` processes that connect to it, as workers in other
# containers or on other machines do.
#
# usage: test_arena_remote.sh ARENA REFEREE RANDOM GREEDY [TEST...]
#
# - killed:  a worker killed -9 in the middle of a match: its match is
#            handed to another worker, every match is stored once, and the
#            killed worker's bots die with it;
# - capacity: a worker of capacity 3 holds three matches at once (each
#            held by a bot that never says hello); killed -9, all three go to
#            another worker (capacity 2, given two at once), every match is
#            stored once with the results of the same tournament played
#            honestly, and no bot of the killed worker outlives it;
# - stay:    a worker with --stay outlives its arena and serves the next one
#            at the same address (an arena restarted by its orchestrator);
# - strange: a peer that answers a match it was not given is ignored, and
#            the match it held goes to a real worker when it leaves;
# - curve:   with CURVE keys, only the workers the arena lists get matches:
#            one with an unlisted key and one with none are refused;
# - forge_seed, forge_flip, forge_contended: a worker that plays nothing
#            and forges its results (forge_worker.py: real records of
#            another seed, or of the job's seed with the result line turned
#            over, which only a replay tells): each refused with a line naming the worker, the
#            forger dropped after two, a real worker plays every match, each
#            stored once with the results (and standings) of the same
#            tournament played honestly elsewhere; forge_contended: records
#            of another seed made to end `contended` (which the arena plays
#            again rather than stores) are refused just the same;
#            forge_escape: a record with a terminal's escape sequence is
#            refused, and the log that quotes it shows none;
#            forge_ladder: a ladder refuses and drops a forger too;
# - check_replay: `arena check --replay` passes on an honest database and
#            names the match whose record was altered by hand (two decisions
#            swapped: the row still agrees, only the replay tells).
set -euo pipefail

if [ $# -lt 4 ]; then
  echo "usage: $0 ARENA REFEREE RANDOM GREEDY [TEST...]" >&2
  exit 2
fi
ARENA=$(readlink -f "$1") REFEREE=$(readlink -f "$2") RANDOM_BOT=$(readlink -f "$3")
GREEDY_BOT=$(readlink -f "$4")
shift 4
# shellcheck source=remote_lib.sh
source "$(dirname "$(readlink -f "$0")")/remote_lib.sh"

# ---- tests ------------------------------------------------------------------

test_no_listen() {
  new_test no_listen
  add_two
  local rc=0
  ar tournament --concurrency 0 >"$T/out" 2>&1 || rc=$?
  [ "$rc" -ne 0 ] || fail "--concurrency 0 without --listen was accepted"
  [ "$(wc -l <"$T/out")" -eq 1 ] && grep -q -- "--listen" "$T/out" ||
    fail "expected one line naming --listen, got: $(cat "$T/out")"
}

test_killed() {
  new_test killed
  # The first match's second bot sleeps (holding its seat) until its worker
  # is killed; every later start of it is the greedy bot.
  ar bot add r --no-test --cmd "$RANDOM_BOT --marker=$T/r" >/dev/null
  ln -s "$(command -v sleep)" "$T/hold"
  printf 'if [ -e %s/held ]; then exec %s; fi\ntouch %s/held\nexec %s/hold 60\n' \
    "$T" "$GREEDY_BOT" "$T" "$T" >"$T/held.sh"
  ar bot add s --no-test --cmd "sh $T/held.sh" >/dev/null
  start_arena --games 4
  # The held bot tells the test through a file, and runs a bot from
  # another folder: no sandbox, which would show it neither.
  start_worker a --sandbox none
  local a=$WORKER_PID
  eventually test -e "$T/held" || fail "worker a never started a match"
  # Among the arenas at work: this one, its remote worker, where workers join.
  eventually run_rows_are "1 $ENDPOINT" || fail "arena_runs: $(run_rows)"
  kill -9 "$a"
  start_worker b --sandbox none
  arena_done
  [ -z "$(run_rows)" ] || fail "a finished arena keeps its row: $(run_rows)"
  grep -q "went away; match [0-9]* goes to another worker" "$T/arena.err" ||
    fail "the arena did not hand the killed worker's match out again: $(cat "$T/arena.err")"
  [ "$(stored)" -eq 4 ] || fail "expected 4 stored matches, got $(stored)"
  [ "$(jobs_in a)" -eq 0 ] || fail "the killed worker reported a match"
  [ "$(jobs_in b)" -eq 4 ] || fail "worker b played $(jobs_in b) matches, not 4"
  ar check >/dev/null || fail "arena check failed"
  ar matches --format csv | grep -q -E ',(timeout|crash|disconnect),' &&
    fail "a forfeit was stored: $(ar matches)"
  # No bot of the killed worker outlives it: neither the held one nor the
  # random bot of the match it held (bounded wait: they die on SIGKILL).
  none_left "$T/" 2>"$T/left" || fail "the killed worker's bots outlived it: $(cat "$T/left")"
  note "killed mid-match; the match was played again by another worker; no bot left"
}

# Three of the held bot's starts hold their match (a bot that never says
# hello); every later one is the greedy bot.
held_three() {
  ln -s "$(command -v sleep)" "$T/hold"
  # shellcheck disable=SC2016  # $n is the script's
  printf 'for n in 1 2 3; do if mkdir %s/held.$n 2>/dev/null; then exec %s/hold 600; fi; done\nexec %s\n' \
    "$T" "$T" "$GREEDY_BOT" >"$T/held.sh"
}
three_requeued() {
  [ "$(grep -c "went away; match [0-9]* goes to another worker" "$T/arena.err")" -eq 3 ]
}
three_held() { [ "$(find "$T" -maxdepth 1 -type d -name 'held.[0-9]' | wc -l)" -eq 3 ]; }

test_capacity() {
  new_test capacity
  honest
  ar bot add r --no-test --cmd "$RANDOM_BOT" >/dev/null
  held_three
  ar bot add g --no-test --cmd "sh $T/held.sh" >/dev/null
  start_arena --games $FORGE_GAMES --seed $FORGE_SEED --handshake-ms 60000
  start_worker a --sandbox none --capacity 3
  local a=$WORKER_PID
  # Three matches at once: one worker, three held bots.
  eventually three_held || fail "the worker of capacity 3 held $(find "$T" -maxdepth 1 -type d -name 'held.[0-9]' | wc -l) matches"
  [ "$(grep -c ': playing$' "$T/a.log")" -eq 3 ] || fail "worker a took: $(cat "$T/a.log")"
  kill -9 "$a"
  eventually three_requeued ||
    fail "the killed worker's three matches were not all handed out again: $(cat "$T/arena.err")"
  start_worker b --sandbox none --capacity 2
  arena_done
  [ "$(grep "went away; match" "$T/arena.err" | sort -u | wc -l)" -eq 3 ] ||
    fail "a match was handed out twice: $(cat "$T/arena.err")"
  # Given two at once: its log starts with two matches taken.
  [ "$(head -2 "$T/b.log" | grep -c ': playing$')" -eq 2 ] ||
    fail "the worker of capacity 2 was not given two matches at once: $(cat "$T/b.log")"
  [ "$(jobs_in a)" -eq 0 ] || fail "the killed worker reported a match"
  [ "$(jobs_in b)" -eq $FORGE_GAMES ] || fail "worker b played $(jobs_in b), not $FORGE_GAMES"
  [ "$(stored)" -eq $FORGE_GAMES ] || fail "stored $(stored) matches, not $FORGE_GAMES"
  # Stored in the order they ended (the id), each with its own job's seed:
  # the results of the honest tournament, in another order.
  diff <(matches_of "$HONEST" | cut -d, -f2-8 | sort) <(matches_of "$DB" | cut -d, -f2-8 | sort) \
    >"$T/diff" || fail "the stored results differ from the honest ones: $(cat "$T/diff")"
  ar check --replay >/dev/null 2>&1 || fail "arena check --replay failed"
  none_left "$T/hold" 2>"$T/left" || fail "the killed worker's bots outlived it: $(cat "$T/left")"
  note "three matches at once on one worker; killed, all three played again elsewhere, stored once"
}

test_stay() {
  new_test stay
  add_two
  start_arena --games 2
  start_worker w --stay
  local w=$WORKER_PID
  arena_done
  kill -0 "$w" 2>/dev/null || fail "the worker left with its first arena"
  # The next arena on the same address: the worker reconnects and says
  # ready again, without being restarted.
  LISTEN=$ENDPOINT start_arena --games 2 --seed 9
  arena_done
  [ "$(jobs_in w)" -eq 4 ] || fail "the worker played $(jobs_in w) matches, not 4"
  kill -TERM "$w"
  wait_exit "$w"
  note "one worker served two arenas in a row"
}

test_strange() {
  new_test strange
  add_two
  start_arena --games 2
  # A peer that says ready, takes a match, answers another one with a
  # made-up record, and leaves.
  "$PYTHON" - "$ENDPOINT" >"$T/peer.out" 2>&1 <<'EOF' || fail "peer: $(cat "$T/peer.out")"
import sys, zmq, msgpack
s = zmq.Context().socket(zmq.DEALER)
s.setsockopt(zmq.LINGER, 2000)
s.connect(sys.argv[1])
s.send(msgpack.packb({"type": "ready", "protocol": 1, "pid": 1}))
if not s.poll(120000):
    sys.exit("no job came")
job = msgpack.unpackb(s.recv())
assert job["type"] == "job", job
s.send(msgpack.packb({"type": "result", "id": job["id"] + 100, "error": None,
                      "record": "forged", "started_ms": 0, "finished_ms": 0}))
s.close()
EOF
  start_worker w
  arena_done
  grep -q "answered a match it was not given; ignored" "$T/arena.err" ||
    fail "the made-up answer was not reported: $(cat "$T/arena.err")"
  [ "$(stored)" -eq 2 ] && [ "$(jobs_in w)" -eq 2 ] ||
    fail "expected the real worker to play both matches: $(stored) stored, $(jobs_in w) played"
  ar check >/dev/null || fail "arena check failed"
  note "a made-up answer was ignored; the held match went to a real worker"
}

both_refused() { grep -q "refused" "$T/unlisted.log" && grep -q "refused" "$T/plain.log"; }

test_curve() {
  new_test curve
  add_two
  local k
  for k in arena listed unlisted; do ar keygen "$T/$k" >/dev/null; done
  [ "$(stat -c %a "$T/arena")" = 600 ] || fail "the secret key file is not private"
  { echo "# the workers admitted"; cat "$T/listed.pub"; } >"$T/workers"
  start_arena --games 2 --curve-key "$T/arena" --curve-workers "$T/workers"
  start_worker unlisted --curve-server "$T/arena.pub" --curve-key "$T/unlisted"
  start_worker plain
  eventually both_refused || true
  grep -q "refused this worker (wrong or unknown key)" "$T/unlisted.log" ||
    fail "the unlisted worker was not told: $(cat "$T/unlisted.log")"
  grep -q "refused this worker" "$T/plain.log" || fail "the keyless worker was not told"
  start_worker listed --curve-server "$T/arena.pub" --curve-key "$T/listed"
  arena_done
  [ "$(jobs_in listed)" -eq 2 ] && [ "$(jobs_in unlisted)" -eq 0 ] && [ "$(jobs_in plain)" -eq 0 ] ||
    fail "matches went to $(jobs_in listed) listed, $(jobs_in unlisted) unlisted, $(jobs_in plain) plain"
  [ "$(grep -c refused "$T/unlisted.log")" -eq 1 ] || fail "a refusal was told more than once"
  # Bad key files and flags: one line, non-zero.
  echo "not a key" >"$T/bad"
  cat "$T/arena" "$T/listed" >"$T/two"                        # two secret keys in one file
  sed 's/$/ listed/' "$T/listed.pub" >"$T/trailing"           # a key with a word after it
  local out rc
  for args in "--curve-key $T/bad --curve-workers $T/workers" "--curve-workers $T/workers" \
              "--curve-key $T/arena --curve-workers $T/bad" \
              "--curve-key $T/two --curve-workers $T/workers" \
              "--curve-key $T/arena --curve-workers $T/trailing"; do
    rc=0
    # shellcheck disable=SC2086
    out=$(ar tournament --concurrency 0 --listen "tcp://127.0.0.1:*" $args 2>&1) || rc=$?
    [ "$rc" -ne 0 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] || fail "accepted or unclear: $args: $out"
  done
  rc=0
  out=$("$REFEREE" worker --connect tcp://127.0.0.1:1 --curve-server "$T/bad" \
        --curve-key "$T/listed" 2>&1) || rc=$?
  [ "$rc" -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] || fail "worker took a bad key: $out"
  note "only the listed worker played; the others were refused"
}

# ---- forging workers ----------------------------------------------------------
forger_refused() {
  local mode=$1
  new_test "forge_$mode"
  honest
  add_two
  start_arena --games $FORGE_GAMES --seed $FORGE_SEED
  "$PYTHON" "$HERE/forge_worker.py" "$ENDPOINT" "$mode" "$ROOT/records" "$T/forger.jobs" \
    >"$T/forger.out" 2>&1 &
  local forger=$!
  PIDS+=("$forger")
  eventually dropped || fail "the forger was not dropped: $(cat "$T/arena.err")"
  wait_exit "$forger"
  [ "$WAITED" -eq 0 ] || fail "the forger: $(cat "$T/forger.out")"
  [ "$(stored)" -eq 0 ] || fail "a forged result was stored: $(ar matches)"
  start_worker honest
  arena_done
  # Two jobs, two matches (a refused match goes to another worker), each
  # refused with a line naming the worker; then a stop.
  [ "$(grep '^job ' "$T/forger.jobs" | sort -u | wc -l)" -eq 2 ] &&
    [ "$(tail -1 "$T/forger.jobs")" = stop ] || fail "the forger's jobs: $(cat "$T/forger.jobs")"
  local who="worker [0-9]* (remote pid $forger at 127.0.0.1)"
  [ "$(grep -c "refused the result of match [0-9]* from $who" "$T/arena.err")" -eq 2 ] ||
    fail "the refusals do not name the forger: $(cat "$T/arena.err")"
  grep -q "dropped $who: 2 of its records did not replay" "$T/arena.err" ||
    fail "the drop was not said: $(cat "$T/arena.err")"
  ! grep -q $'\e' "$T/arena.err" || fail "the log shows a worker's escape sequence"
  # Every match stored once, with the honest results (id to decisions; not
  # the seconds): the standings never saw a forged one.
  [ "$(stored)" -eq $FORGE_GAMES ] || fail "stored $(stored) matches, not $FORGE_GAMES"
  diff <(matches_of "$HONEST" | cut -d, -f1-8) <(matches_of "$DB" | cut -d, -f1-8) \
    >"$T/diff" || fail "the stored results differ from the honest ones: $(cat "$T/diff")"
  diff <("$ARENA" --db "$HONEST" standings) <(ar standings) >"$T/diff" ||
    fail "the standings differ from the honest ones: $(cat "$T/diff")"
  ar check --replay >/dev/null 2>&1 || fail "arena check --replay failed"
  note "two forged results refused, the forger dropped, every match played honestly once"
}

test_forge_seed() { forger_refused seed; }
test_forge_flip() { forger_refused flip; }
test_forge_contended() { forger_refused contended; }
test_forge_escape() { forger_refused escape; }

ladder_endpoint() {
  ENDPOINT=$(run_rows | cut -d' ' -f2)
  [[ "$ENDPOINT" == tcp://* ]]
}

# The ladder stores results through the same check: a forger there is
# refused and dropped too, and its matches are played by a real worker.
test_forge_ladder() {
  new_test forge_ladder
  honest
  add_two
  : >"$T/arena.err"
  ar ladder --concurrency 0 --listen "tcp://127.0.0.1:*" --matches 4 >"$T/arena.out" \
    2>>"$T/arena.err" &
  ARENA_PID=$!
  PIDS+=("$ARENA_PID")
  # A ladder says where workers connect in its row of arena_runs.
  eventually ladder_endpoint || fail "the ladder shows no endpoint: $(cat "$T/arena.err")"
  "$PYTHON" "$HERE/forge_worker.py" "$ENDPOINT" seed "$ROOT/records" "$T/forger.jobs" \
    >"$T/forger.out" 2>&1 &
  local forger=$!
  PIDS+=("$forger")
  eventually dropped || fail "the forger was not dropped: $(cat "$T/arena.err")"
  wait_exit "$forger"
  [ "$(stored)" -eq 0 ] || fail "a forged result was stored: $(ar matches)"
  start_worker honest
  arena_done
  [ "$(grep -c "refused the result of match [0-9]* from worker [0-9]* (remote pid $forger" \
       "$T/arena.err")" -eq 2 ] || fail "the refusals do not name the forger: $(cat "$T/arena.err")"
  [ "$(stored)" -eq 4 ] || fail "stored $(stored) matches, not 4"
  ar check --replay >/dev/null 2>&1 || fail "arena check --replay failed"
  note "the ladder refused two forged results, dropped the forger, stored 4 real matches"
}

test_check_replay() {
  new_test check_replay
  honest
  cp "$HONEST" "$DB"
  local out rc=0
  out=$(ar check --replay 2>"$T/err") || rc=$?
  [ "$rc" -eq 0 ] && grep -q "every stored match ($FORGE_GAMES) replays to its row" <<<"$out" ||
    fail "an honest database failed: $out $(cat "$T/err")"
  grep -q "replayed $FORGE_GAMES matches" "$T/err" || fail "no progress on stderr: $(cat "$T/err")"
  # Match 2's first two decisions swapped by hand: its row (result, count
  # of decisions, hash) still agrees with its record, which no longer replays.
  "$PYTHON" - "$DB" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rec, = db.execute("SELECT record FROM matches WHERE id = 2").fetchone()
lines = rec.split("\n")
first = [i for i, line in enumerate(lines) if line.startswith("decision ")][:2]
lines[first[0]], lines[first[1]] = lines[first[1]], lines[first[0]]
db.execute("UPDATE matches SET record = ? WHERE id = 2", ("\n".join(lines),))
db.commit()
PY
  rc=0
  out=$(ar check --replay 2>"$T/err") || rc=$?
  [ "$rc" -eq 1 ] || fail "check --replay passed an altered record (status $rc): $out"
  [ "$(grep -c '^match ' <<<"$out")" -eq 1 ] && grep -q '^match 2: mismatch: ' <<<"$out" ||
    fail "check --replay did not name match 2 alone: $out"
  grep -q "1 of $FORGE_GAMES stored matches do not replay" "$T/err" ||
    fail "no count: $(cat "$T/err")"
  note "check --replay passes an honest database and names the altered match"
}

ALL=(no_listen killed capacity stay strange curve forge_seed forge_flip forge_contended forge_escape forge_ladder check_replay)
for t in "${@:-${ALL[@]}}"; do "test_$t"; done
echo "test_arena_remote: all passed"
