#!/usr/bin/env bash
# test_arena_fetch.sh - bots travel to workers by content hash, with real
# processes: a participant submits a bot through a real gateway (it lands
# in the organizer's store); an arena listening over TCP with CURVE plays
# it on a `referee worker --cache DIR` started in another folder which,
# when the machine allows a mount namespace (root), cannot even see the
# organizer's folder: it fetches the bot over the worker link, checks its
# hash, unpacks it read-only into its cache and plays its matches there in
# its sandbox.
# - fetched: every match stored, the bot's files in the cache, read-only,
#   fetched once, and its matches really played (not forfeited by it);
# - changed: a cached copy changed by hand (a line that would leave a
#   mark if it ran) is never run: the worker says it changed, discards it
#   and fetches it again, and the copy is the submitted one again;
# - refused: a worker asking for a hash that is not its match's, for a bot
#   of a match that is not its own, or for a malformed name, is refused
#   (the arena logs each); its own match's bot it gets, twice a bot at most;
# - local: the arena's own workers (no cache) play it from the store;
# - flags: --cache-mb without --cache, or out of range, one line, exit 2.
#
# usage: test_arena_fetch.sh ARENA REFEREE RANDOM GREEDY
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 ARENA REFEREE RANDOM GREEDY" >&2; exit 2; }
ARENA=$(readlink -f "$1") REFEREE=$(readlink -f "$2") RANDOM_BOT=$(readlink -f "$3")
GREEDY_BOT=$(readlink -f "$4")
shift 4
LIB_NAME=arena-fetch
src=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=remote_lib.sh
source "$(dirname "$(readlink -f "$0")")/remote_lib.sh"
cleanup_more() { chmod -R u+w "$ROOT" 2>/dev/null || true; }

new_test fetch
mkdir -p "$T/org" "$T/alice/mybot" "$T/far"
DB=$T/org/arena.db
port=$("$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

# ---- a participant's bot, through the gateway, into the store ----------------
ar user add alice --endpoint "tcp://127.0.0.1:$port" --out "$T/alice/arena.cred" >/dev/null
(cd "$T/org" && exec "$ARENA" --db "$DB" gateway --listen "tcp://127.0.0.1:$port" \
   2>"$T/org/gw.log") &
gw=$!
PIDS+=("$gw")
eventually grep -qs listening "$T/org/gw.log" || fail "the gateway did not start"
cp "$src/agents/python/random_bot.py" "$T/alice/mybot/bot.py"
cp -r "$src/sdk/python/arena_bot" "$T/alice/mybot/arena_bot"
rm -rf "$T/alice/mybot/arena_bot/__pycache__"
out=$(cd "$T/alice" && "$ARENA" submit --credentials arena.cred --name rnd --version 1 \
        --game warchest --cmd "/usr/bin/python3 bot.py" mybot) || fail "the submission: $out"
hash=$(sed -n 's/^content hash //p' <<<"$out")
[ ${#hash} = 64 ] && [ -d "$DB.store/$hash" ] || fail "not stored: $out"
ar bot add r --no-test --game warchest --cmd "$RANDOM_BOT" >/dev/null
kill "$gw" && wait "$gw" 2>/dev/null || true     # the participant is done

# ---- keys: the arena's and its one worker's ------------------------------------
ar keygen "$T/org/arena" >/dev/null
ar keygen "$T/far/worker" >/dev/null
cp "$T/org/arena.pub" "$T/far/"
cp "$T/far/worker.pub" "$T/org/workers"

# The worker, from its own folder; with a mount namespace, the organizer's
# folder (database, store) is an empty tmpfs in its eyes.
hidden=0
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then hidden=1; fi
far_worker() {   # far_worker NAME ARGS...
  local name=$1
  shift
  if [ $hidden = 1 ]; then
    (cd "$T/far" && exec unshare -m sh -c 'mount -t tmpfs none "$0" && exec "$@"' "$T/org" \
       "$REFEREE" worker --connect "$ENDPOINT" --verbose --curve-server arena.pub \
       --curve-key worker --cache cache "$@" 2>"$T/$name.log") &
  else
    (cd "$T/far" && exec "$REFEREE" worker --connect "$ENDPOINT" --verbose \
       --curve-server arena.pub --curve-key worker --cache cache "$@" 2>"$T/$name.log") &
  fi
  WORKER_PID=$!
  PIDS+=("$WORKER_PID")
}

# ---- refused: a worker asks for what it was not given ---------------------------
start_arena --games 2 --seed 1 --curve-key "$T/org/arena" --curve-workers "$T/org/workers"
"$PYTHON" "$HERE/fetch_worker.py" "$ENDPOINT" "$T/probe.out" "$T/org/arena.pub" \
  "$T/far/worker" >"$T/probe.log" 2>&1 &
PIDS+=($!)
eventually grep -q '^done$' "$T/probe.out" 2>/dev/null ||
  fail "the probing worker did not finish: $(cat "$T/probe.log" "$T/probe.out" 2>/dev/null)"
[ "$(sed -n 1p "$T/probe.out")" = "refused $(python3 -c 'import hashlib; print(hashlib.sha256(b"not a bot of this match").hexdigest())') is not a bot of your match" ] &&
  sed -n 2p "$T/probe.out" | grep -q "^refused match [0-9]* is not yours$" &&
  sed -n 3p "$T/probe.out" | grep -q "^refused a malformed fetch" &&
  [ "$(sed -n 4,7p "$T/probe.out" | grep -c "^archive [0-9]* $hash$")" = 4 ] &&
  sed -n 8p "$T/probe.out" | grep -q "^refused 4 fetches for one match are enough$" ||
  fail "the arena's answers to the probing worker: $(cat "$T/probe.out")"
[ "$(grep -c "arena: refused worker [0-9]* (remote .*) a bot's files: " "$T/arena.err")" = 4 ] ||
  fail "the arena did not log each refusal: $(cat "$T/arena.err")"
note "refused: a hash not of its match, another match's, a malformed one, a fifth fetch" \
  "for a match of 2 bots; its own sent"

# ---- fetched: a worker with none of the files plays the bot ---------------------
far_worker first
arena_done
[ "$(stored)" = 2 ] || fail "expected 2 stored matches, got $(stored)"
[ "$(grep -c "fetched bot ${hash:0:12}" "$T/first.log")" = 1 ] ||
  fail "the worker did not fetch the bot once: $(cat "$T/first.log")"
cache=$T/far/cache/$hash
[ -f "$cache/bot.py" ] && [ -d "$cache/arena_bot" ] || fail "no cached copy at $cache"
[ -z "$(find "$cache" -perm /222)" ] || fail "the cached copy is writable"
# rnd played: its matches ended normally, not by a forfeit of either seat.
all_played() {   # all_played N: N matches stored, each with rnd, none forfeited
  ar matches --format csv >"$T/matches.csv"
  "$PYTHON" - "$T/matches.csv" "$1" <<'PY' || fail "rnd's matches: $(cat "$T/matches.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == int(sys.argv[2]), rows
for r in rows:
    assert "rnd" in r["bots"].split() and r["culprit"] == "" and int(r["decisions"]) > 20, r
PY
}
all_played 2
[ $hidden = 1 ] && note "the worker, in a mount namespace without the organizer's folder," \
  "fetched the bot once and played its 2 matches" ||
  note "the worker fetched the bot once and played its 2 matches (not root: the organizer's" \
    "folder was visible to it, unused)"

# ---- changed: a cached copy changed by hand is never run ------------------------
chmod u+w "$cache" "$cache/bot.py"
sed -i "1i open('$T/changed-copy-ran', 'w').close()" "$cache/bot.py"
chmod a-w "$cache" "$cache/bot.py"
start_arena --games 2 --seed 2 --curve-key "$T/org/arena" --curve-workers "$T/org/workers"
# Capacity 2: both matches at once, the second sent while the first fetches.
far_worker second --sandbox none --capacity 2   # a bot without the sandbox could leave its mark
arena_done
# Held, not lost: the job that came during the fetch started after it,
# before the first match ended.
[ "$(grep -n ': playing$' "$T/second.log" | sed -n 2p | cut -d: -f1)" -lt \
  "$(grep -n ' decisions, ' "$T/second.log" | sed -n 1p | cut -d: -f1)" ] ||
  fail "the worker of capacity 2 did not hold both matches at once: $(cat "$T/second.log")"
[ "$(stored)" = 4 ] || fail "expected 4 stored matches, got $(stored)"
[ ! -e "$T/changed-copy-ran" ] || fail "the changed copy was run"
grep -q "the cached copy of bot ${hash:0:12}... changed (its files hash to .*): discarded, fetched again" \
  "$T/second.log" && [ "$(grep -c "fetched bot ${hash:0:12}" "$T/second.log")" = 1 ] ||
  fail "the worker did not say it discarded the changed copy: $(cat "$T/second.log")"
cmp -s "$cache/bot.py" "$T/alice/mybot/bot.py" || fail "the copy is not the submitted one again"
all_played 4
note "changed: the copy changed by hand was discarded (logged), fetched again, never run"

# ---- local: the arena's own workers run the bot from the store ------------------
ar tournament --quiet --concurrency 1 --games 2 --seed 3 >"$T/local.out" 2>"$T/local.err" ||
  fail "a local tournament: $(cat "$T/local.err")"
! grep -q "fetched bot" "$T/local.err" || fail "a local worker fetched: $(cat "$T/local.err")"
all_played 6
note "local: the arena's own workers played the bot from the store, nothing fetched"

# ---- flags ------------------------------------------------------------------
for args in "--cache-mb 5" "--cache $T/c --cache-mb 0" "--cache $T/c --cache-mb x"; do
  rc=0
  # shellcheck disable=SC2086
  out=$("$REFEREE" worker --connect tcp://127.0.0.1:1 $args 2>&1) || rc=$?
  [ "$rc" = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] || fail "worker $args: $rc $out"
done
note "flags: bad --cache-mb refused in one line"
echo "PASS"
