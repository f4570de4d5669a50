#!/usr/bin/env bash
# A match whose referee dies gets a verdict instead of being played for
# ever, through the real arena, workers, referee and bots: a worker killed
# mid-match once is replaced and the match played again; killed twice on
# the same match, the match is stored void with its reason (not rated, not
# counted in the standings) and the tournament finishes with every other
# match stored once, `arena check` passing and nothing left in TMPDIR; a
# bot whose connection flood kills its referee forfeits each of its matches,
# in a tournament and on a ladder (which disables it); a dead referee's last
# words naming a seat make the judged match that seat's forfeit.
# Usage: test_arena_verdict.sh ARENA RANDOM REPO
set -euo pipefail
arena=$1 random=$2 repo=$3
tmp=$(mktemp -d /tmp/arena-verdict-XXXXXX)   # short: TMPDIR must hold socket paths
cleanup() {
  pkill -KILL -f "$tmp/sleeper.py" 2>/dev/null || true
  pkill -KILL -f "$tmp/flood.py" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/../lib.sh"
FAIL_LOG="$tmp/err"
export TMPDIR=$tmp/t
mkdir "$TMPDIR"
A() { "$arena" --db "$tmp/a.db" "$@"; }

# Plays at random; when $tmp/hang exists, claims it (one bot only) and
# hangs, its pid left in $tmp/hung (it writes there: no sandbox, which
# would keep it in a read-only view).
cat > "$tmp/sleeper.py" <<PY
import os, random, sys, time
sys.path.insert(0, "$repo/sdk/python")
import arena_bot
seed = os.environ.get("ARENA_BOT_SEED", "0")
rng = random.Random(int(seed))
def decide(r):
    try:
        if os.path.exists("$tmp/hang"):
            os.rename("$tmp/hang", "$tmp/claim.%d" % os.getpid())
            with open("$tmp/hung.new", "w") as f:
                f.write("%d %s %s\n" % (os.getpid(), seed, os.environ["ARENA_SEAT"]))
            os.rename("$tmp/hung.new", "$tmp/hung")
            time.sleep(600)
    except OSError:
        pass
    return rng.choice(r.actions)
arena_bot.run(decide, name="sleeper")
PY
A bot add sleeper --no-test --cmd "/usr/bin/python3 $tmp/sleeper.py" >/dev/null
A bot add honest1 --no-test --cmd "$random" >/dev/null
A bot add honest2 --no-test --cmd "$random" >/dev/null

# The referee worker above the hung bot (its nearest ancestor named referee).
worker_of() {
  local p=$1
  while [ "$p" -gt 1 ]; do
    [ "$(ps -o comm= -p "$p" | tr -d ' ')" = referee ] && { echo "$p"; return; }
    p=$(ps -o ppid= -p "$p" | tr -d ' ')
  done
  return 1
}
# Waits for a bot to hang, kills its worker. With `blame JOB CONNECTIONS`,
# first leaves the worker's last words naming the hung bot's seat, as its
# abort handler would (referee/ref_blame.c, tested on a real abort in
# test_ref_blame): DIR/blame.PID, DIR the folder of the arena's endpoint.
kill_hung() {
  for _ in $(seq 600); do [ -f "$tmp/hung" ] && break; sleep 0.1; done
  [ -f "$tmp/hung" ] || fail "no bot hung"
  read -r pid _ seat <"$tmp/hung"
  rm -f "$tmp/hung"
  local w; w=$(worker_of "$pid") || fail "no referee above bot $pid"
  if [ "${1:-}" = blame ]; then
    # Named by the worker the arena started (the match's referee is its
    # child, or the worker itself).
    local top=$w ep dir p
    p=$(ps -o ppid= -p "$w" | tr -d ' ')
    [ "$(ps -o comm= -p "$p" | tr -d ' ')" = referee ] && top=$p
    ep=$(tr '\0' '\n' <"/proc/$top/cmdline" | grep -m1 '^ipc://') || fail "worker $top: no endpoint"
    dir=$(dirname "${ep#ipc://}")
    echo "$2 $seat $3" >"$dir/blame.$top"
  fi
  kill -KILL "$w"
}
# Every planned match stored once, and the ratings check.
stored_once() {
  local tid=$1 want=$2
  n=$(A matches --format csv | awk -F, -v t="$tid" 'NR > 1 && $2 == t' | wc -l)
  [ "$n" -eq "$want" ] || fail "tournament $tid: $n matches stored, want $want"
  A check >/dev/null || fail "arena check: $(A check 2>&1)"
}

# 1. A worker killed once: the match goes to another worker and is played.
echo any >"$tmp/hang"
A tournament --game goofspiel --games 2 --concurrency 2 --seed 1 --sandbox none --quiet \
  sleeper honest1 honest2 >/dev/null 2>"$tmp/err" &
run=$!
kill_hung
wait $run || fail "the tournament with a worker killed once failed"
grep -q "goes to another worker" "$tmp/err" || fail "the killed worker's match was not handed out"
stored_once 1 6
[ "$(A matches --format csv | awk -F, '$2 == 1 && $6 == "void"' | wc -l)" -eq 0 ] ||
  fail "a match killed once was voided"

# 2. Killed twice on the same match: judged void, the rest stored once.
# One match at a time: a lost worker's match is handed out first again, so
# the next bot to hang is the same match's.
echo any >"$tmp/hang"
A tournament --game goofspiel --games 2 --concurrency 1 --seed 2 --sandbox none --quiet \
  sleeper honest1 honest2 >/dev/null 2>"$tmp/err" &
run=$!
kill_hung
echo any >"$tmp/hang"
kill_hung
wait $run || fail "the tournament with a match killed twice failed"
grep -q "killed 2 workers: it is judged" "$tmp/err" || fail "no verdict announced"
stored_once 2 6
void=$(A matches --format csv | awk -F, '$2 == 2 && $6 == "void"')
[ "$(echo "$void" | grep -c .)" -eq 1 ] || fail "want one void match, got: $void"
echo "$void" | grep -q "its referee died 2 times (last by signal 9)" ||
  fail "the void match does not say why: $void"
# Judged, not played: no record to replay, said plainly.
rc=0; out=$(A replay "${void%%,*}" 2>&1) || rc=$?
[ "$rc" -eq 2 ] && [[ "$out" == *"has no record: it was judged, not played (void: "* ]] ||
  fail "replay of the void match: exit $rc: $out"
# Not rated and no game in the standings: the sleeper played 4 - 1.
games=$(A standings --tournament 2 --format csv | awk -F, '$2 == "sleeper" { print $6 }')
[ "$games" = 3 ] || fail "the void match counts in the standings: $games"
resume=$(A tournament --resume 2>&1 || true)
[[ "$resume" == *"no unfinished tournament"* ]] || fail "the tournament is not finished: $resume"

# 2b. Killed twice, its referee's last words naming the hung bot's seat each
# time: the match is that seat's forfeit, with the words, not void. Two
# bots, one match at a time: the first match (job 0) is the one that hangs.
echo any >"$tmp/hang"
A tournament --game goofspiel --games 2 --concurrency 1 --seed 5 --sandbox none --quiet \
  sleeper honest1 >/dev/null 2>"$tmp/err" &
run=$!
kill_hung blame 0 99
echo any >"$tmp/hang"
kill_hung blame 0 99
wait $run || fail "the tournament with a flooder's last words failed"
tid=$(A matches --format csv | awk -F, 'NR > 1 { t = $2 } END { print t }')
stored_once "$tid" 2
judged=$(A matches --format csv | awk -F, -v t="$tid" '$2 == t && $7 != ""')
[ "$(echo "$judged" | grep -c .)" -eq 1 ] || fail "want one forfeit, got: $judged; $(A matches --format csv | tail -4)"
IFS=, read -r jid _ _ bots _ reason culprit _ <<<"$judged"
read -r b0 b1 <<<"$bots"
[ "$(eval echo "\$b$culprit")" = sleeper ] && [ "$reason" != void ] ||
  fail "the blamed seat is not the culprit: $judged"
A match "$jid" >"$tmp/out" 2>&1
grep -q "seat $culprit held 99 connections to its seat's socket when it aborted" "$tmp/out" ||
  fail "the verdict does not give the last words: $(cat "$tmp/out")"

# 3. The issue's bot: it floods its seat's socket with raw connections
# from a few processes until the referee's file table is full (libzmq then
# aborts it, unless the referee refuses them first). Every match stored;
# each of the flooder's is its forfeit: a referee that died names it in its
# last words, one that survived forfeits it itself.
cat > "$tmp/flood.py" <<PY
import os, socket, time
path = os.environ["ARENA_ENDPOINT"][len("ipc://"):]
parent = os.getpid()
for k in range(4):
    if os.fork() == 0:
        held = []
        for i in range(400):
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(path)
                held.append(s)
            except OSError:
                break
        while os.getppid() == parent:
            time.sleep(0.1)
        os._exit(0)
time.sleep(30)
PY
A bot add flooder --no-test --cmd "/usr/bin/python3 $tmp/flood.py" >/dev/null
(ulimit -n 1024
 A tournament --game goofspiel --games 2 --concurrency 2 --seed 3 --sandbox none --quiet \
   flooder honest1 honest2 >/dev/null 2>"$tmp/err") || fail "the tournament with a flooder failed"
stored_once 4 6
A matches --format csv | awk -F, '$2 == 4' >"$tmp/t3"
while IFS=, read -r id t seed bots scores reason culprit rest; do
  read -r b0 b1 <<<"$bots"
  if [ "$b0" = flooder ] || [ "$b1" = flooder ]; then
    want=0; [ "$b1" = flooder ] && want=1
    [ "$culprit" = "$want" ] || fail "match $id: the flooder in seat $want is not the culprit: $reason $culprit"
  else
    [ -z "$culprit" ] || fail "match $id of honest bots has a culprit: $reason $culprit"
  fi
done <"$tmp/t3"

# 4. The same flooder on a ladder: its forfeits disable it, the ladder goes on.
A bot retire sleeper >/dev/null
(ulimit -n 1024
 A ladder --game goofspiel --matches 12 --concurrency 2 --sandbox none --max-forfeits 3 \
   >/dev/null 2>"$tmp/err") || fail "the ladder with a flooder failed"
n=$(A matches --format csv | awk -F, 'NR > 1 && $2 == 0' | wc -l)
[ "$n" -eq 12 ] || fail "the ladder stored $n matches, want 12"
A bot list --format csv | awk -F, '$2 == "flooder" && $5 == "disabled"' |
  grep -q "3 forfeits in a row" ||
  fail "the ladder did not disable the flooder: $(A bot list --format csv | grep flooder)"
A check >/dev/null || fail "arena check after the ladder: $(A check 2>&1)"

# A worker sweeps when it starts, before any job: a dead one's folder goes.
mkdir "$TMPDIR/arena-dead00"
: >"$TMPDIR/arena-dead00/.lock"
"$(dirname "$arena")/../referee/referee" worker --connect "ipc://$tmp/nobody" 2>/dev/null &
w=$!
for _ in $(seq 100); do [ -e "$TMPDIR/arena-dead00" ] || break; sleep 0.1; done
kill "$w"; wait "$w" || true
[ ! -e "$TMPDIR/arena-dead00" ] || fail "a starting worker left a dead worker's folder"

# Nothing left: no bot, no folder in TMPDIR.
sleep 0.5
! pgrep -f "$tmp/sleeper.py" >/dev/null || fail "a hung bot outlived its killed worker"
for _ in $(seq 50); do pgrep -f "$tmp/flood.py" >/dev/null || break; sleep 0.1; done
! pgrep -f "$tmp/flood.py" >/dev/null || fail "a flooder outlived its match"
[ -z "$(ls -A "$TMPDIR")" ] || fail "TMPDIR keeps: $(ls -A "$TMPDIR")"
echo "verdict: killed once, played again; killed twice, judged void; a flooder forfeits;" \
  "all stored once"
