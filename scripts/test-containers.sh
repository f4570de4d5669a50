#!/usr/bin/env bash
# test-containers.sh - the arena in real containers, with podman (as root).
#
#   scripts/test-containers.sh [--short | --full]
#
# 1. Builds the Debian base (scripts/container-base.sh; skipped once it
#    exists) and the two images of docker/Dockerfile.
# 2. compose: docker/compose.yaml under podman-compose: the arena and two
#    worker containers that reach it over TCP by name play a tournament of
#    C, Python and JavaScript bots. One worker container is killed in the
#    middle of a match: its match must be played by the other, every match
#    stored once, the ratings audit clean, and every match's record says its
#    bots had the whole sandbox (own control group, uid, namespaces); a
#    memory hog and a fork bomb lose to their limits in a worker container.
#    The live WAL database is backed up with SQLite's online backup, and
#    the copy checked.
#    The web answers its API over the compose network.
# 3. curve: an arena with --curve-key and --curve-workers, three worker
#    containers: one with a listed key plays every match, one with an
#    unlisted key (told it is refused) and one without keys play none.
# 4. fetch: a participant's bot submitted through the gateway in an arena
#    container (stored by hash on its volume) is played by a worker
#    container that has no such volume: it fetches the bot over the
#    worker link into its cache (docker/worker-entrypoint.sh's default).
# 5. kube: docker/k8s/*.yaml under `podman kube play`: the arena's pod (the
#    ladder and the web) with its PersistentVolumeClaim, workers as a
#    Deployment of 2 replicas. The ladder plays; the web answers over the
#    pod network; on a stop the ladder ends cleanly within its grace (exit
#    0, database checked). (kube play has no Services: workers are pointed
#    at the arena pod's name instead of the Service's.)
# --short (what scripts/test.sh runs) plays 2 games per pairing and waits
# for 8 ladder matches; --full (the default) plays 4, scales the kube
# workers to 3 replicas and waits for 24.
#
# Every container, pod, volume and network it makes carries a name unique
# to the run and is removed at exit, whatever happens, containers with their
# anonymous volumes (the arena image's VOLUME /data); the images' tags too
# (their layers stay as podman's build cache). The teardown fails the run if
# any of them is left, or any volume that appeared during the run and no
# other run's container uses. What stays on the host: the packages of
# scripts/install-container-deps.sh, the base image localhost/debian:bookworm
# and the build cache (`podman image prune -a` removes them).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=full
case "${1:-}" in
  --short) mode=short ;;
  --full | "") mode=full ;;
  *) echo "usage: $0 [--short|--full]" >&2; exit 2 ;;
esac
if [ "$(id -u)" -ne 0 ]; then
  echo "test-containers: needs root (rootful podman)" >&2
  exit 1
fi
scripts/install-container-deps.sh
export CONTAINERS_CONF=${CONTAINERS_CONF:-$PWD/docker/containers.conf}

R=arena-t$$-$(date +%s)           # every name this run makes starts with it
WORK=$(mktemp -d "${TMPDIR:-/tmp}/arena-containers.XXXXXX")
BASE=localhost/debian:bookworm
ARENA_IMAGE=localhost/arena:$R
WORKER_IMAGE=localhost/arena-worker:$R
GAMES=4 KUBE_WORKERS=3 LADDER_MATCHES=24
[ "$mode" = short ] && GAMES=2 KUBE_WORKERS=2 LADDER_MATCHES=8
T0=$(date +%s)
VOLUMES_BEFORE=$(podman volume ls -q | sort)

step() { echo "== [$(( $(date +%s) - T0 )) s] $*"; }
. tests/lib.sh   # the folder is the repository's (cd above)

# The volumes that appeared since the run began and are not another run's
# (named by it, or used by a container of its): this run's named volumes
# and the anonymous ones its containers left.
new_volumes() {
  local v
  for v in $(comm -13 <(echo "$VOLUMES_BEFORE") <(podman volume ls -q | sort)); do
    case $v in arena-t*) [ "${v#"$R"}" != "$v" ] || continue ;; esac
    [ -z "$(podman ps -a --filter "volume=$v" -q)" ] || continue
    echo "volume $v"
  done
}

teardown() {
  local status=$?
  [ "$BASHPID" -eq $$ ] || exit $status      # a subshell's exit, not ours
  set +e
  if [ $status -ne 0 ]; then
    echo "test-containers: failed; logs of this run's containers:" >&2
    for c in $(podman ps -a --filter "name=$R" --format '{{.Names}}'); do
      echo "---- $c" >&2
      podman logs --tail 15 "$c" >&2 2>&1
    done
  fi
  for p in $(podman pod ls --filter "name=$R" --format '{{.Name}}'); do
    podman pod rm -f -t 0 "$p" >/dev/null 2>&1
  done
  for c in $(podman ps -a --filter "name=$R" --format '{{.Names}}'); do
    podman rm -f -v -t 0 "$c" >/dev/null 2>&1
  done
  for v in $(podman volume ls --filter "name=$R" --format '{{.Name}}'); do
    podman volume rm -f "$v" >/dev/null 2>&1
  done
  for n in $(podman network ls --filter "name=$R" --format '{{.Name}}'); do
    podman network rm -f "$n" >/dev/null 2>&1
  done
  podman untag "$ARENA_IMAGE" >/dev/null 2>&1
  podman untag "$WORKER_IMAGE" >/dev/null 2>&1
  rm -rf "$WORK"
  left=$(podman ps -a --filter "name=$R" --format 'container {{.Names}}'
         podman pod ls --filter "name=$R" --format 'pod {{.Name}}'
         podman network ls --filter "name=$R" --format 'network {{.Name}}'
         podman images --format 'image {{.Repository}}:{{.Tag}}' | grep -F ":$R"
         new_volumes)
  [ -z "$left" ] || { echo "test-containers: left behind: $(echo "$left" | paste -sd , -)" >&2; status=1; }
  step "done (status $status)"
  exit $status
}
trap teardown EXIT
trap 'exit 130' INT TERM

# ---- images -------------------------------------------------------------------

step "base image"
scripts/container-base.sh "$BASE"
build_args=(--pull=never --build-arg "BASE=$BASE" -f docker/Dockerfile)
# npm behind a proxy with its own CA: hand the CA to the build as a secret.
ca=${NODE_EXTRA_CA_CERTS:-$(npm config get cafile 2>/dev/null || true)}
[ -n "$ca" ] && [ -f "$ca" ] && build_args+=(--secret "id=npm_ca,src=$ca")
step "image $WORKER_IMAGE"
podman build -q "${build_args[@]}" --target worker -t "$WORKER_IMAGE" . >/dev/null
step "image $ARENA_IMAGE"
podman build -q "${build_args[@]}" --target arena -t "$ARENA_IMAGE" . >/dev/null
podman image inspect --format '{{.Size}}' "$WORKER_IMAGE" "$ARENA_IMAGE" |
  awk '{ s = s sprintf(" %d MB", $1 / 1e6) } END { print "   image sizes (worker, arena):" s }'

# ---- helpers ------------------------------------------------------------------

# The bots: the sample ones, and `slow`, which waits 3 s before it plays, so
# that a worker can be caught in the middle of a match.
cat docker/bots.conf >"$WORK/bots.conf"
echo "slow sleep 3; exec /opt/arena/build/agents/greedy" >>"$WORK/bots.conf"

# Polls (every 0.5 s, at most $1 seconds) until the command after it succeeds.
wait_for() {
  local limit=$1 i
  shift
  for i in $(seq $((limit * 2))); do
    "$@" && return 0
    sleep 0.5
  done
  return 1
}
stored() { podman exec "$1" arena matches --format csv 2>/dev/null | tail -n +2 | grep -c . || true; }
# Whether container $1 logged a line matching $2. grep reads all of it:
# with pipefail, `grep -q` stopping early can fail the pipe (SIGPIPE).
logged() { podman logs "$1" 2>&1 | grep -c -- "$2" >/dev/null; }
finished() { logged "$1" "^tournament [0-9]* finished"; }
# The job a worker container is playing: its last job line, if that is the
# start of one (workers log a job's end before they answer it).
current() {
  podman logs "$1" 2>&1 | grep '^referee worker: job ' | tail -n 1 |
    sed -n 's/^referee worker: job \([0-9]*\) .*: playing$/\1/p'
}
played() { podman logs "$1" 2>&1 | grep '^referee worker: job ' | grep -vc ': playing$' || true; }
# Every stored match's record says its bots had the sandbox: their own
# control group (memory and processes limited), uid, and (where $2 is
# whole) namespaces.
CGROUP_UID=' cgroup([^)]*memory pids[^)]*) uid'
WHOLE="$CGROUP_UID ns(user pid net ipc uts mount)"
expect_isolated() {       # container, the line's end (a grep pattern)
  local lines full
  lines=$(podman exec "$1" sqlite3 /data/arena.db "SELECT record FROM matches" | grep '^isolation ')
  full=$(printf '%s\n' "$lines" | grep -c "$2\$" || true)
  [ "$full" -eq "$(stored "$1")" ] ||
    fail "$1: $full of $(stored "$1") matches had the sandbox: $(printf '%s\n' "$lines" | sort | uniq -c)"
  echo "   every match: $(printf '%s\n' "$lines" | sort -u)"
}
# The web's standings, fetched from inside container $1 at $2: $3 bots,
# $4 games in all (each game counted by both its bots).
web_standings() {
  podman exec "$1" /usr/bin/python3 -c '
import json, sys, urllib.request
rows = json.load(urllib.request.urlopen(sys.argv[1], timeout=5))["standings"]
print(len(rows), sum(r["games"] for r in rows) // 2)' "$2" 2>/dev/null
}
expect_web() {            # container, URL, bots, games (0: any)
  local got
  wait_for 120 web_standings "$1" "$2" >/dev/null || fail "the web did not answer $2 from $1"
  got=$(web_standings "$1" "$2")
  [ "${got% *}" -eq "$3" ] || fail "the web ($2) shows ${got% *} bots, expected $3"
  [ "$4" -eq 0 ] || [ "${got#* }" -eq "$4" ] || fail "the web ($2) shows ${got#* } games, expected $4"
  echo "   the web at $2 from $1: $3 bots, ${got#* } games"
}
expect_tournament() {     # container, matches expected
  wait_for 600 finished "$1" || fail "$1: the tournament did not finish"
  [ "$(stored "$1")" -eq "$2" ] || fail "$1: $(stored "$1") matches stored, expected $2"
  podman exec "$1" arena check >/dev/null || fail "$1: arena check failed"
}

# ---- compose ------------------------------------------------------------------

step "compose: an arena and two workers over TCP ($GAMES games a pairing, 5 bots)"
# A tournament instead of the ladder (it ends, with a known number of
# matches), and no port published on the host (runs may be concurrent).
sed -e 's/"ladder", "--name", "arena",/"tournament",/' \
    -e "s/\"--grace\", \"30\"]/\"--games\", \"$GAMES\"]/" \
    -e '/^    ports:/,/"8080:8080"/d' docker/compose.yaml >"$WORK/compose.yaml"
grep -q "\"tournament\",.*\"--games\", \"$GAMES\"]" <(tr -d '\n' <"$WORK/compose.yaml") ||
  fail "compose.yaml: no ladder command to turn into a tournament"
! grep -q 8080:8080 "$WORK/compose.yaml" || fail "compose.yaml: the web's port is still published"
compose() {
  ARENA_IMAGE=$ARENA_IMAGE ARENA_WORKER_IMAGE=$WORKER_IMAGE \
    podman-compose -p "$R" -f "$WORK/compose.yaml" "$@" >>"$WORK/compose.log" 2>&1
}
compose up -d --no-build || { cat "$WORK/compose.log" >&2; fail "podman-compose up"; }
arena=${R}_arena_1 w1=${R}_worker_1 w2=${R}_worker_2
matches=$((5 * 4 / 2 * GAMES))

# Kill worker 1 once it has played a match and has been in the middle of
# another for a second (a match of `slow` lasts over 3 s). Should the match
# end in the moment before the kill, start the container again and retry.
caught() { [ "$(played "$w1")" -ge 1 ] && [ -n "$(current "$w1")" ]; }
job=
for attempt in 1 2 3; do
  wait_for 300 caught || fail "worker 1 was never caught in a match"
  sleep 1
  j=$(current "$w1")
  [ -n "$j" ] || continue
  podman kill "$w1" >/dev/null
  podman wait "$w1" >/dev/null
  if [ "$(current "$w1")" = "$j" ]; then job=$j; break; fi
  podman start "$w1" >/dev/null
done
[ -n "$job" ] || fail "worker 1 could not be killed in the middle of a match"
step "compose: killed $w1 in the middle of job $job"
# A live backup, while the arena writes: SQLite's online backup API.
podman exec "$arena" sqlite3 /data/arena.db ".backup /data/backup.db" ||
  fail "online backup failed"
[ "$(podman exec "$arena" sqlite3 /data/backup.db 'PRAGMA integrity_check')" = ok ] ||
  fail "the backup is damaged"
podman exec "$arena" arena --db /data/backup.db check >/dev/null || fail "arena check of the backup"
expect_tournament "$arena" "$matches"
expect_isolated "$arena" "$WHOLE"
# The killed worker logged the job as unfinished, so it never answered it.
logged "$arena" "went away; match $((job + 1)) goes to another worker" ||
  fail "the arena did not hand job $job out again"
[ "$(played "$w2")" -ge 1 ] || fail "worker 2 played nothing"
# The web answers its API over the compose network, by its service name.
expect_web "$w2" "http://web:8080/api/standings" 5 "$matches"
# The limits hold inside a worker container as on a bare machine: a bot
# that takes 300 MB loses with `memory` under a 64 MiB limit, one that
# forks past 8 processes with `processes`.
expect_limit() {          # reason, referee flag, value, Python code of the bot
  podman exec "$w2" referee play --quiet --record /tmp/limit.rec "$2" "$3" \
    --bot "/usr/bin/python3 -c \"$4\"" --bot /opt/arena/build/agents/random >/dev/null 2>&1 || true
  podman exec "$w2" grep -qx "reason $1" /tmp/limit.rec ||
    fail "worker container: the $1 limit did not hold: $(podman exec "$w2" grep '^reason' /tmp/limit.rec)"
}
expect_limit memory --memory-mb 64 "x = bytearray(300 << 20); import time; time.sleep(5)"
expect_limit processes --max-processes 8 "import os, time; [os.fork() for _ in range(6)]; time.sleep(5)"
echo "   in a worker container: a memory hog lost with memory, a fork bomb with processes"
podman logs "$arena" 2>&1 | sed -n '/^rank/,$p'
echo "   worker 1 played $(played "$w1") before it was killed, worker 2 $(played "$w2")"
compose down -v || { cat "$WORK/compose.log" >&2; fail "podman-compose down"; }

# ---- CURVE ----------------------------------------------------------------------

step "curve: an arena that admits listed worker keys only"
podman network create "$R-net" >/dev/null
mkdir -p "$WORK/keys" "$WORK/worker-keys" "$WORK/rogue-keys"
podman run --rm --entrypoint sh -v "$WORK:/w" "$ARENA_IMAGE" -c '
  arena keygen /w/keys/arena && arena keygen /w/keys/worker && arena keygen /w/keys/rogue &&
  cp /w/keys/worker.pub /w/keys/workers.pub &&
  cp /w/keys/arena.pub /w/worker-keys/arena.pub && cp /w/keys/worker /w/worker-keys/worker.key &&
  cp /w/keys/arena.pub /w/rogue-keys/arena.pub && cp /w/keys/rogue /w/rogue-keys/worker.key' ||
  fail "arena keygen in the image"
printf 'greedy /opt/arena/build/agents/greedy\nrandom /opt/arena/build/agents/random\n' >"$WORK/curve-bots"
ca=$R-curve-arena
podman run -d --name "$ca" --network "$R-net" -e ARENA_KEEP_RUNNING=1 \
  -v "$WORK/keys:/etc/arena/keys:ro" -v "$WORK/curve-bots:/etc/arena/bots:ro" "$ARENA_IMAGE" \
  tournament --games 4 --listen 'tcp://*:7000' --concurrency 0 \
  --curve-key /etc/arena/keys/arena --curve-workers /etc/arena/keys/workers.pub >/dev/null
worker_run() {            # name, keys folder or "" for none
  podman run -d --name "$1" --network "$R-net" -e "ARENA_CONNECT=tcp://$ca:7000" \
    --cap-add SYS_ADMIN --security-opt 'unmask=/proc/*' ${2:+-v "$2:/etc/arena/keys:ro"} \
    "$WORKER_IMAGE" >/dev/null
}
# The two that must be refused start first, and are given time to try.
worker_run "$R-curve-plain" ""
worker_run "$R-curve-rogue" "$WORK/rogue-keys"
refused() { logged "$R-curve-rogue" "refused this worker"; }
wait_for 120 refused || fail "the worker with an unlisted key was not told it was refused"
sleep 3
[ "$(stored "$ca")" -eq 0 ] || fail "matches were played before a listed worker came"
worker_run "$R-curve-worker" "$WORK/worker-keys"
expect_tournament "$ca" 4
[ "$(played "$R-curve-worker")" -eq 4 ] || fail "the listed worker played $(played "$R-curve-worker") of 4"
[ "$(played "$R-curve-plain")" -eq 0 ] || fail "a worker without keys played"
[ "$(played "$R-curve-rogue")" -eq 0 ] || fail "a worker with an unlisted key played"
echo "   the listed worker played 4 of 4; without keys: 0, with an unlisted key: 0 ($(podman logs "$R-curve-rogue" 2>&1 | grep -m1 refused))"
podman rm -f -v -t 0 "$ca" "$R-curve-plain" "$R-curve-rogue" "$R-curve-worker" >/dev/null

# ---- bots by hash -----------------------------------------------------------------

step "fetch: a participant's bot, submitted through the gateway, fetched by a worker container"
# In an arena container: a participant, the gateway, and their submission
# (the Python sample bot with its SDK), stored by hash in /data's store.
mkdir -p "$WORK/fetch-data"
podman run --rm --entrypoint sh -v "$WORK/fetch-data:/data" "$ARENA_IMAGE" -c '
  set -e
  arena user add alice --endpoint tcp://127.0.0.1:7100 --out /data/alice.cred >/dev/null
  arena gateway --listen tcp://127.0.0.1:7100 2>/data/gw.log &
  for i in $(seq 100); do grep -q listening /data/gw.log && break; sleep 0.1; done
  mkdir /tmp/bot && cp /opt/arena/agents/python/random_bot.py /tmp/bot/bot.py &&
    cp -r /opt/arena/sdk/python/arena_bot /tmp/bot/
  arena submit --credentials /data/alice.cred --name sub --version 1 --game warchest \
    --cmd "python3 bot.py" /tmp/bot | sed -n "s/^content hash //p" >/data/hash' ||
  fail "a submission through the gateway in the arena image"
hash=$(cat "$WORK/fetch-data/hash")
[ ${#hash} -eq 64 ] || fail "the submission was not stored: $(cat "$WORK/fetch-data/gw.log")"
printf 'random /opt/arena/build/agents/random\n' >"$WORK/fetch-bots"
fa=$R-fetch-arena fw=$R-fetch-worker
podman run -d --name "$fa" --network "$R-net" -e ARENA_KEEP_RUNNING=1 \
  -v "$WORK/fetch-data:/data" -v "$WORK/keys:/etc/arena/keys:ro" \
  -v "$WORK/fetch-bots:/etc/arena/bots:ro" "$ARENA_IMAGE" \
  tournament --games 2 --listen 'tcp://*:7000' --concurrency 0 \
  --curve-key /etc/arena/keys/arena --curve-workers /etc/arena/keys/workers.pub >/dev/null
# The worker has no /data: the bot's files reach it over the worker link.
podman run -d --name "$fw" --network "$R-net" -e "ARENA_CONNECT=tcp://$fa:7000" \
  --cap-add SYS_ADMIN --security-opt 'unmask=/proc/*' -v "$WORK/worker-keys:/etc/arena/keys:ro" \
  "$WORKER_IMAGE" >/dev/null
expect_tournament "$fa" 2
[ "$(played "$fw")" -eq 2 ] || fail "the worker container played $(played "$fw") of 2"
logged "$fw" "^referee worker: fetched bot ${hash:0:12}" ||
  fail "the worker container did not fetch the bot: $(podman logs "$fw" 2>&1 | tail -5)"
podman exec "$fw" test -f "/var/cache/arena/$hash/bot.py" || fail "no cached copy in the worker"
[ "$(podman exec "$fa" sqlite3 /data/arena.db "SELECT count(*) FROM matches m JOIN match_seats s
     ON s.match_id = m.id JOIN bots b ON b.id = s.bot_id WHERE b.name = 'sub'
     AND m.culprit IS NULL")" -eq 2 ] || fail "the submitted bot did not play its 2 matches"
echo "   the worker container $(podman logs "$fw" 2>&1 | grep -m1 'fetched bot' |
  sed 's/^referee worker: //') and played 2 of 2"
podman rm -f -v -t 0 "$fa" "$fw" >/dev/null

# ---- kube play ----------------------------------------------------------------

step "kube: docker/k8s under podman kube play: a ladder, the web, $KUBE_WORKERS worker replicas"
pod=$R-arena-pod-0
# Unique names, this run's images, the pod's name for the Service's, and
# the replicas.
kube_edit() {
  sed -e "s/\(name\|claimName\): arena/\1: $R-arena/g" \
      -e "s|localhost/arena:latest|$ARENA_IMAGE|; s|localhost/arena-worker:latest|$WORKER_IMAGE|" \
      -e "s|tcp://arena:7000|tcp://$pod:7000|" \
      -e "s/replicas: 2/replicas: $KUBE_WORKERS/" "$1"
}
kube_edit docker/k8s/arena.yaml >"$WORK/arena.yaml"
kube_edit docker/k8s/workers.yaml >"$WORK/workers.yaml"
grep -q "command: ladder --name arena " "$WORK/arena.yaml" || fail "k8s/arena.yaml: no ladder"
podman kube play --network "$R-net" "$WORK/arena.yaml" >/dev/null
podman kube play --network "$R-net" "$WORK/workers.yaml" >/dev/null
nworkers=$(podman pod ls --filter "name=$R-arena-worker-pod" -q | wc -l)
[ "$nworkers" -eq "$KUBE_WORKERS" ] || fail "$nworkers worker pods, expected $KUBE_WORKERS"
workers=$(podman ps --filter "name=$R-arena-worker-pod" --format '{{.Names}}')
busy() {
  local c n=0
  for c in $workers; do [ "$(played "$c")" -ge 1 ] && n=$((n + 1)); done
  echo $n
}
ladder_goes() { [ "$(stored "$pod-web")" -ge "$LADDER_MATCHES" ] && [ "$(busy)" -ge 2 ]; }
wait_for 600 ladder_goes ||
  fail "the ladder stored $(stored "$pod-web") matches (expected $LADDER_MATCHES), $(busy) worker pods played"
echo "   $(busy) of $KUBE_WORKERS worker pods played"
# The web beside the coordinator answers over the pod network.
expect_web "${workers%%$'\n'*}" "http://$pod:8080/api/standings?ladder=arena" 4 0
# A stop: the ladder finishes or stores what runs within its grace and
# exits 0, well inside the pod's grace period.
t=$(date +%s)
podman stop -t 60 "$pod-coordinator" >/dev/null
stop_s=$(( $(date +%s) - t ))
code=$(podman inspect --format '{{.State.ExitCode}}' "$pod-coordinator")
[ "$code" -eq 0 ] || fail "the ladder exited with status $code on a stop"
podman logs "$pod-coordinator" 2>&1 | grep "^arena: ladder arena: stopped: " | tail -n 1 ||
  fail "the ladder did not say it stopped"
[ "$stop_s" -lt 45 ] || fail "the ladder took $stop_s s to stop"
echo "   stopped in $stop_s s (exit 0)"
podman exec "$pod-web" arena check >/dev/null || fail "arena check after the ladder's stop"
# podman 4.3 kube play ignores procMount: Unmasked (docker/README.md).
expect_isolated "$pod-web" "$CGROUP_UID"
podman exec "$pod-web" arena standings --ladder arena | head -6
podman kube down "$WORK/workers.yaml" >/dev/null
podman kube down "$WORK/arena.yaml" >/dev/null
echo "test-containers: all passed ($mode)"
