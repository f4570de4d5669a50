#!/usr/bin/env bash
# clock-experiment.sh - issue 17's experiment, scaled down: four Python bots
# (tests/arena/think_bot.py) that each think THINK ms of CPU per decision
# against a BUDGET ms move time (60 of 100 by default: 60%, as in the issue),
# in a Goofspiel round-robin (12 matches of 5 cards), played through the real
# arena on this machine as it is (other load included) under:
#   wall c1   --clock wall --ponder --concurrency 1   (the old time control)
#   wall c4   --clock wall --ponder --concurrency 4 --force-concurrency
#   cpu  c4   the defaults (CPU clock, frozen between turns) at --concurrency 4
# and prints, for each, the seconds it took, the stored matches by reason,
# the timeouts charged (matches lost on time, and decisions given a random
# move in their place), the contended
# timeouts played again (each one a timeout the old arena charged), and the
# mean wall, CPU and CPU-wait per decision from the stored records (the wait
# is summed over the bot's threads, so it can exceed the wall time).
# Usage: scripts/clock-experiment.sh [THINK_MS [BUDGET_MS]]   (after a build)
set -euo pipefail
think=${1:-60} budget=${2:-100}
repo=$(cd "$(dirname "$0")/.." && pwd)
arena=$repo/build/arena/arena
[ -x "$arena" ] || { echo "clock-experiment: build first ($arena)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/clock-experiment-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

run() {
  local name=$1; shift
  local db=$tmp/$name.db
  for b in a b c d; do
    "$arena" --db "$db" bot add "think$b" \
      --cmd "/usr/bin/python3 $repo/tests/arena/think_bot.py $think" >/dev/null
  done
  local t0 rc=0
  t0=$(date +%s.%N)
  "$arena" --db "$db" tournament --game goofspiel --cards 5 --games 2 --move-ms "$budget" \
    --bank-ms 0 --memory-mb 0 --quiet "$@" 2>"$tmp/$name.err" || rc=$?
  local secs
  secs=$(echo "$(date +%s.%N) - $t0" | bc)
  /usr/bin/python3 - "$db" "$name" "$secs" "$rc" "$(grep -c 'was contended' "$tmp/$name.err")" <<'PY'
import collections, sqlite3, sys
db, name, secs, rc, contended = sys.argv[1:]
rows = sqlite3.connect(db).execute("SELECT reason, record FROM matches").fetchall()
reasons = collections.Counter(r for r, _ in rows)
n = subs = 0
wall = cpu = wait = 0.0
for _, rec in rows:
    rec = rec.decode() if isinstance(rec, bytes) else rec
    for line in rec.splitlines():
        f = line.split()
        if f[0] != "decision":
            continue
        kv = dict(x.split("=", 1) for x in f if "=" in x)
        n += 1
        subs += "random" in f[2:]
        wall += float(f[2])
        cpu += float(kv.get("cpu", "nan"))
        wait += float(kv.get("wait", "nan"))
subs += reasons.get("timeout", 0)
print("%-8s %6.1f s  exit %s  %2d stored (%s)  %3d timeouts charged  %2s contended replays"
      "  per decision: wall %.0f ms, cpu %.0f ms, cpu-wait %.0f ms"
      % (name, float(secs), rc, len(rows),
         " ".join("%s=%d" % kv for kv in sorted(reasons.items())) or "-", subs, contended,
         wall / max(n, 1), cpu / max(n, 1), wait / max(n, 1)))
PY
  grep -v 'was contended' "$tmp/$name.err" | sed "s/^/  $name: /" | head -3
}

echo "clock-experiment: $think ms of CPU per decision against $budget ms;" \
     "$(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
run "wall-c1" --clock wall --ponder --concurrency 1
run "wall-c4" --clock wall --ponder --concurrency 4 --force-concurrency
run "cpu-c4" --concurrency 4
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
