#!/usr/bin/env bash
# test_sandbox.sh - hostile bots (hostile.c) against the sandbox, through
# the real referee and the real arena: each harm of issue 11 fails, and
# the matches of the other seats, and of a match running beside, finish
# cleanly. The bots that must not be harmed have ARENA_VICTIM=1 in their
# environment (hostile.c attacks only those) and --marker=victim-RUN.
#
# usage: test_sandbox.sh REFEREE HOSTILE RANDOM ARENA SQL [TEST...]
# (SQL: tests/arena's arena_e2e_sql, to read stored records)
# Needs root and bubblewrap (CI has both); elsewhere it says so and skips.
set -euo pipefail
[ $# -ge 5 ] || { echo "usage: $0 REFEREE HOSTILE RANDOM ARENA SQL [TEST...]" >&2; exit 2; }
REF=$(readlink -f "$1") HOSTILE=$(readlink -f "$2") RANDOM_BOT=$(readlink -f "$3")
ARENA=$(readlink -f "$4") SQL=$(readlink -f "$5")
shift 5
unset ARENA_SANDBOX
ROOT=$(mktemp -d /tmp/sandbox-test.XXXXXX)
chmod 755 "$ROOT"          # the bots' users may read what the tests give them
# Every marker names this run: a run beside this one (another checkout's
# tests) has bots, and referees whose command lines hold them, that this
# run's checks and clean-up must never find, let alone kill.
RUN=${ROOT##*.}
ARENA_GROUP=
CLEANUP_CGROUPS= CLEANUP_PARENT= CLEANUP_POOL=
trap '[ -z "$ARENA_GROUP" ] || kill -9 -- "-$ARENA_GROUP" 2>/dev/null
      kill_marked "victim-$RUN"; kill_marked "outlive-$RUN"; kill_marked "kill_moments-$RUN"
      [ -z "$CLEANUP_POOL" ] || { kill -9 $(pool_processes $CLEANUP_POOL) 2>/dev/null; sleep 0.2; }
      for m in $CLEANUP_CGROUPS; do rmdir "$m$CLEANUP_PARENT"/arena-*/* "$m$CLEANUP_PARENT"/arena-* \
        "$m$CLEANUP_PARENT" 2>/dev/null || true; done; rm -rf "$ROOT"' EXIT
CURRENT=

. "$(dirname "$0")/../lib.sh"

# pids of live processes whose command line holds $1
marked() {
  local d args
  for d in /proc/[0-9]*; do
    args=()
    mapfile -d '' args 2>/dev/null <"$d/cmdline" || continue
    [ ${#args[@]} -gt 0 ] && [[ "${args[*]}" == *"$1"* ]] && echo "${d#/proc/}"
  done
  return 0
}
kill_marked() { local p; for p in $(marked "--marker=$1"); do kill -9 "$p" 2>/dev/null || true; done; }

# 0 when bubblewrap, by itself, makes here every namespace the referee's
# sandbox asks for.
bwrap_works() {
  local b
  for b in /usr/bin/bwrap /usr/local/bin/bwrap /bin/bwrap; do
    [ -x "$b" ] || continue
    "$b" --unshare-user --unshare-pid --unshare-net --unshare-ipc --unshare-uts \
      --disable-userns --die-with-parent --as-pid-1 --ro-bind / / --proc /proc --dev /dev \
      true >/dev/null 2>&1
    return
  done
  return 1
}
echo "not root" >"$ROOT/probe"
if [ "$(id -u)" -ne 0 ] || ! "$REF" play --sandbox strict --bot "$RANDOM_BOT" \
     --bot "$RANDOM_BOT" --quiet >"$ROOT/probe" 2>&1; then
  # Where bubblewrap makes the namespaces, its refusing the referee's
  # arguments is the referee's bug, not a machine without them.
  if [ "$(id -u)" -eq 0 ] && bwrap_works &&
     grep -q "namespaces: bubblewrap cannot make a sandbox here: bwrap: " "$ROOT/probe"; then
    echo "FAIL: bubblewrap makes a sandbox here, the referee's does not: $(head -c 300 "$ROOT/probe")" >&2
    exit 1
  fi
  echo "test_sandbox: SKIPPED: no full sandbox here ($(head -c 300 "$ROOT/probe"))"
  [ -z "${CI:-}" ] || exit 1       # CI runs as root with bubblewrap: must work
  exit 0
fi

VICTIM="ARENA_VICTIM=1 $RANDOM_BOT --marker=victim-$RUN"
SLOW_VICTIM="ARENA_VICTIM=1 $HOSTILE slow 15 --marker=victim-$RUN"

# Plays seat 0 = $1 against a victim; the record in $T/rec, logs in $T/logs.
play() {
  T=$ROOT/$CURRENT
  mkdir -p "$T/logs"
  chmod 755 "$T" "$T/logs"
  "$REF" play --seed 3 --record "$T/rec" --log-dir "$T/logs" --bot "$1" \
    --bot "${2:-$VICTIM}" "${@:3}" >"$T/out" 2>"$T/err" || fail "referee: $(cat "$T/err")"
}
field() { sed -n "s/^$1 //p" "$T/rec"; }
ended_cleanly() {   # the game's own end, or a forfeit by seat 0 alone
  local reason culprit
  reason=$(field reason) culprit=$(field culprit)
  [[ "$reason" == markers || "$reason" == round_limit || "$culprit" == 0 ]] ||
    fail "the victim lost: $reason (culprit $culprit): $(field detail)"
}
expect_log() { grep -q -- "$1" "$T/logs/seat0.log" || fail "no '$1' in: $(cat "$T/logs/seat0.log")"; }

# A slow match of two victims beside the hostile one; its record in $1.
beside() {
  "$REF" play --seed 5 --round-limit 8 --record "$1" --bot "$SLOW_VICTIM" \
    --bot "$SLOW_VICTIM" >/dev/null 2>&1 &
  BESIDE=$!
  sleep 0.3
}
beside_clean() {
  wait "$BESIDE" || fail "the match beside failed"
  grep -Eq "^reason (markers|round_limit)$" "$1" || fail "the match beside: $(cat "$1")"
}

# ---- each harm ----------------------------------------------------------------

test_snoop() {
  CURRENT=snoop
  beside "$ROOT/beside-snoop.rec"
  play "$HOSTILE snoop"
  beside_clean "$ROOT/beside-snoop.rec"
  ended_cleanly
  expect_log "0 other tokens read, 0 victims seen, 0 signals delivered"
  # Without the sandbox the same bot does its harm: the test can fail.
  CURRENT=snoop-unsandboxed
  # (--memory-mb 0: without a control group the limit is the address
  # space, which sanitizer builds of the bots cannot live with.)
  play "$HOSTILE snoop" "$VICTIM" --sandbox none --memory-mb 0
  expect_log "[1-9][0-9]* victims seen"
}

test_files() {
  CURRENT=files
  local T=$ROOT/files above
  mkdir -p "$T" && chmod 755 "$T"
  echo "data" >"$T/arena.db" && chmod 644 "$T/arena.db"
  above=$(dirname "$(dirname "$HOSTILE")")/pwned-$$
  play "HOSTILE_PATHS=$T/logs/seat1.log:$T/arena.db:$above:/run/pwned-$$:/tmp/pwned-$$ $HOSTILE write"
  ended_cleanly
  expect_log "write $T/logs/seat1.log: No such file or directory"
  expect_log "write $T/arena.db: No such file or directory"
  # The folder above its own, made by the sandbox: read-only, unless the
  # checkout lies in /tmp, whose copy in the sandbox is its private tmpfs.
  if [[ "$above" == /tmp/* ]]; then
    expect_log "write $above: \(Read-only file system\|DONE\)"
  else
    expect_log "write $above: Read-only file system"
  fi
  expect_log "write /run/pwned-$$: Read-only file system"   # beside its seat's folder
  expect_log "write /tmp/pwned-$$: DONE"       # its own scratch folder
  [ ! -e "/tmp/pwned-$$" ] && [ ! -e "$above" ] && [ ! -e "/run/pwned-$$" ] ||
    fail "a file was written outside"
  grep -q pwned "$T/arena.db" "$T/logs/seat1.log" && fail "a file was overwritten"
  CURRENT=files-read
  local F=$T
  play "HOSTILE_PATHS=$F/logs/seat1.log:$F/arena.db $HOSTILE read"
  ended_cleanly
  expect_log "read $F/logs/seat1.log: No such file or directory"
  expect_log "read $F/arena.db: No such file or directory"
  # A bot in a folder no user of the pool may read keeps the referee's
  # user (root here), who could read /etc/shadow: the sandbox hides it.
  CURRENT=files-secrets
  mkdir -p "$ROOT/$CURRENT/private" && chmod 700 "$ROOT/$CURRENT/private"
  cp "$HOSTILE" "$ROOT/$CURRENT/private/hostile"
  play "HOSTILE_PATHS=/etc/shadow:/etc/hostname $ROOT/$CURRENT/private/hostile read"
  ended_cleanly
  grep -q "keep the referee's user" "$T/err" || fail "the bot got a user of the pool: $(cat "$T/err")"
  expect_log "read /etc/hostname: DONE, [1-9]"
  expect_log "read /etc/shadow: "
  ! grep -q "read /etc/shadow: DONE, [1-9]" "$T/logs/seat0.log" || fail "a bot read /etc/shadow"
  # Its own folder, and the SDK's, read-only: even a folder every user may
  # write to.
  CURRENT=files-own
  local own=$ROOT/$CURRENT/own sdk
  sdk=$(readlink -f "$(dirname "$REF")/../../sdk")
  mkdir -p "$own" && chmod 755 "$ROOT/$CURRENT" && chmod 777 "$own" && cp "$HOSTILE" "$own/hostile"
  play "HOSTILE_PATHS=$own/pwned:$sdk/pwned-$$ $own/hostile write"
  ended_cleanly
  expect_log "write $own/pwned: Read-only file system"
  [ ! -d "$sdk" ] || expect_log "write $sdk/pwned-$$: Read-only file system"
  [ ! -e "$own/pwned" ] && [ ! -e "$sdk/pwned-$$" ] || fail "a file was written in a bot's folder"
}

# Each layer by itself, seen from inside a sandboxed bot and compared with
# the host's: the harms above fail while any one layer holds, so only this
# shows one missing. Its namespaces differ from the test's own, it sees
# only its sandbox's processes (its init, itself), it may make no user
# namespace, its /tmp holds no more than its memory (fallocate past it is
# refused at once: nothing is written), and a bot that keeps the referee's
# user sees the secret folders empty (a tmpfs over each).
layers_hold() {
  local mb=$1 kind ns
  for kind in pid ipc user net uts mnt; do
    ns=$(readlink "/proc/$$/ns/$kind")
    expect_log "^hostile: ns:.* $kind:"
    ! grep "^hostile: ns:" "$T/logs/seat0.log" | grep -qF " $ns" ||
      fail "the bot is in the test's $kind namespace ($ns)"
  done
  expect_log "^hostile: procs 2: 1:arena-init 2:hostile$"
  expect_log "^hostile: unshare user: No space left on device$"
  expect_log "^hostile: tmp $((mb << 20)) bytes; $mb MiB and a page: No space left on device$"
}
test_layers() {
  CURRENT=layers
  local mb=128 d
  play "$HOSTILE layers $mb" "$VICTIM" --memory-mb $mb
  ended_cleanly
  layers_hold $mb
  CURRENT=layers-referee-user
  mkdir -p "$ROOT/$CURRENT/private" && chmod 700 "$ROOT/$CURRENT/private"
  cp "$HOSTILE" "$ROOT/$CURRENT/private/hostile"
  play "$ROOT/$CURRENT/private/hostile layers $mb" "$VICTIM" --memory-mb $mb
  ended_cleanly
  grep -q "keep the referee's user" "$T/err" || fail "the bot got a user of the pool: $(cat "$T/err")"
  layers_hold $mb
  local secret=0
  for d in /etc/ssh /etc/ssl/private /etc/sudoers.d; do
    [ -d "$d" ] || continue
    expect_log "^hostile: secret $d: 0 entries, filesystem 0x1021994$"
    secret=$((secret + 1))
  done
  note "$secret secret folders of the host hidden"
}

test_net() {
  CURRENT=net
  local port
  exec 9< <(/usr/bin/python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
print(s.getsockname()[1], flush=True); time.sleep(30)')
  read -r port <&9
  play "$HOSTILE net $port"
  ended_cleanly
  # The server listens on the host's loopback; the bot's own has nothing.
  expect_log "net 127.0.0.1:$port: Connection refused"
  exec 9<&-
}

test_env() {
  CURRENT=env
  ARENA_OPERATOR_SECRET=hunter2 play "$HOSTILE env ARENA_OPERATOR_SECRET"
  ended_cleanly
  expect_log "env ARENA_OPERATOR_SECRET: absent"
  grep -q "^ARENA_BOT_NOTE=kept$" /dev/null || true
}

test_outlive() {
  CURRENT=outlive
  play "$HOSTILE outlive --marker=outlive-$RUN"
  ended_cleanly
  expect_log "left a grandchild"
  [ -z "$(marked "--marker=outlive-$RUN")" ] || fail "a bot's process outlived its match"
}

# The sandbox's init (pid 1 of the bot's namespace) runs as the bot's user
# and reports the bot's end to the referee: it is not dumpable, so the bot
# can neither trace it nor read its memory or files.
test_ptrace() {
  CURRENT=ptrace
  play "$HOSTILE ptrace"
  ended_cleanly
  expect_log "ptrace 1: attach Operation not permitted; process_vm_readv Operation not permitted; /proc/1/mem Permission denied; /proc/1/fd Permission denied"
}

test_limits() {
  CURRENT=forkbomb
  play "$HOSTILE forkbomb" "$VICTIM" --max-processes 64
  [ "$(field reason)" = processes ] && [ "$(field culprit)" = 0 ] ||
    fail "fork bomb: $(field reason) $(field detail)"
  CURRENT=memhog
  play "$HOSTILE memhog 150 3" "$VICTIM" --memory-mb 256
  [ "$(field reason)" = memory ] && [ "$(field culprit)" = 0 ] ||
    fail "memory hog: $(field reason) $(field detail)"
}

test_isolation_recorded() {
  CURRENT=isolation
  play "$VICTIM" "$VICTIM" --sandbox strict
  field isolation | grep -q "^strict env cgroup(.*) uid ns(" || fail "isolation: $(field isolation)"
  play "$VICTIM" "$VICTIM" --sandbox none --memory-mb 0
  [ "$(field isolation)" = none ] || fail "isolation: $(field isolation)"
  # An operator's default for every referee; the flag wins over it.
  ARENA_SANDBOX=none play "$VICTIM" "$VICTIM" --memory-mb 0
  [ "$(field isolation)" = none ] || fail "ARENA_SANDBOX=none: $(field isolation)"
  ARENA_SANDBOX=none play "$VICTIM" "$VICTIM" --sandbox strict
  field isolation | grep -q "^strict " || fail "--sandbox over ARENA_SANDBOX: $(field isolation)"
  local err
  err=$(ARENA_SANDBOX=bogus "$REF" play --bot x --bot y 2>&1 >/dev/null) && fail "accepted"
  [[ "$err" == *"ARENA_SANDBOX must be auto, none or strict, not 'bogus'"* ]] ||
    fail "unclear error: $err"
  err=$("$REF" play --sandbox bogus --bot x --bot y 2>&1 >/dev/null) && fail "accepted"
  [[ "$err" == *"--sandbox must be auto, none or strict"* ]] || fail "unclear error: $err"
  err=$("$REF" worker --connect ipc:///nowhere --sandbox bogus 2>&1 >/dev/null) &&
    fail "worker accepted --sandbox bogus"
  [[ "$err" == *"--sandbox must be auto, none or strict"* ]] || fail "unclear error: $err"
  # An arena's local workers play in the mode its tournament names.
  DB=$T/arena.db
  "$ARENA" --db "$DB" bot add v1 --no-test --cmd "$VICTIM" >/dev/null
  "$ARENA" --db "$DB" bot add v2 --no-test --cmd "$VICTIM" >/dev/null
  err=$("$ARENA" --db "$DB" tournament --sandbox bogus 2>&1 >/dev/null) &&
    fail "arena tournament --sandbox bogus accepted"
  [[ "$err" == *"--sandbox must be auto, none or strict"* ]] || fail "unclear error: $err"
  local mode
  for mode in none strict; do
    "$ARENA" --db "$DB" tournament --sandbox $mode --games 2 --concurrency 1 --round-limit 6 \
      --seed ${#mode} --quiet >"$T/out" 2>"$T/err" || fail "tournament: $(cat "$T/err")"
    "$SQL" "$DB" "SELECT record FROM matches ORDER BY id DESC LIMIT 2" >"$T/rec"
    [ "$(grep -c "^isolation ${mode/strict/strict }" "$T/rec")" = 2 ] ||
      fail "arena --sandbox $mode: $(grep ^isolation "$T/rec")"
  done
}

# ---- through the arena ---------------------------------------------------------

# A database with the hostile snooper and victims; $1 more arena flags.
arena_db() {
  T=$ROOT/$CURRENT
  mkdir -p "$T" && chmod 755 "$T"
  DB=$T/arena.db
  "$ARENA" --db "$DB" bot add snoop --no-test --cmd "$HOSTILE snoop --marker=$CURRENT-$RUN" >/dev/null
  "$ARENA" --db "$DB" bot add v1 --no-test --cmd "$VICTIM --marker=$CURRENT-$RUN" >/dev/null
  "$ARENA" --db "$DB" bot add v2 --no-test --cmd "$SLOW_VICTIM --marker=$CURRENT-$RUN" >/dev/null
}

# Every stored match ended by the game, or by a forfeit of the snooper.
arena_clean() {
  local bad
  bad=$("$ARENA" --db "$DB" matches --format csv | grep -Ev ',(markers|round_limit),' |
        tail -n +2 | grep -v snoop || true)
  [ -z "$bad" ] || fail "a victim lost by forfeit: $bad"
  [ "$(stat -c %a "$DB")" = 600 ] || fail "the database is readable by others"
}

test_arena() {
  CURRENT=arena2
  arena_db
  "$ARENA" --db "$DB" tournament --games 2 --concurrency 2 --round-limit 10 --quiet \
    >"$T/out" 2>"$T/err" || fail "tournament: $(cat "$T/err")"
  arena_clean
  CURRENT=arena4
  arena_db
  "$ARENA" --db "$DB" bot add v3 --no-test --cmd "$VICTIM --marker=$CURRENT-$RUN" >/dev/null
  "$ARENA" --db "$DB" tournament --format teams --games 2 --concurrency 2 --round-limit 10 \
    --quiet >"$T/out" 2>"$T/err" || fail "teams tournament: $(cat "$T/err")"
  arena_clean
}

# Stale match folders and cgroups of referee $1 (dead): none may remain.
no_remains_of() {
  local pid=$1 d
  for d in /sys/fs/cgroup/*/arena-"$pid" /sys/fs/cgroup/*/*/*/arena-"$pid" \
           /sys/fs/cgroup/arena-"$pid"; do
    [ -e "$d" ] && fail "cgroup $d of dead referee $pid remains"
  done
  return 0
}

# kill -9 of the arena's whole process group, and of one worker,
# mid-tournament: no bot survives, and what they leave is swept.
test_kill() {
  CURRENT=kill
  arena_db
  local pid workers w
  setsid "$ARENA" --db "$DB" tournament --games 20 --concurrency 2 --round-limit 30 \
    --quiet >"$T/out" 2>"$T/err" &
  pid=$!
  ARENA_GROUP=$pid
  for _ in $(seq 100); do [ -n "$(marked "--marker=$CURRENT-$RUN")" ] && break; sleep 0.05; done
  sleep 0.5
  workers=$(marked "referee worker")
  # Ours: in the arena's process group.
  w=$(for p in $workers; do
        [ "$(cut -d" " -f5 "/proc/$p/stat" 2>/dev/null)" = "$pid" ] && echo "$p"
      done | head -1 || true)
  [ -n "$w" ] || fail "no worker of the arena found"
  # The match folders of this arena's referees (each holds its folder's
  # lock open): only these are ours to check, as other tests' referees
  # make and leave folders in /tmp at the same time.
  local ours; ours=$(folders_of_group "$pid")
  kill -9 "$w"                  # one worker first, mid-match
  sleep 0.5
  ours=$(printf '%s\n%s\n' "$ours" "$(folders_of_group "$pid")" | sort -u)
  kill -9 -- "-$pid"            # then the whole process group
  wait "$pid" 2>/dev/null || true
  ARENA_GROUP=
  for _ in $(seq 60); do [ -z "$(marked "--marker=$CURRENT-$RUN")" ] && break; sleep 0.05; done
  local p; for p in $(marked "--marker=$CURRENT-$RUN"); do
    echo "left: $p $(tr "\0" " " <"/proc/$p/cmdline" | cut -c1-60) stat $(cut -d" " -f3-5 "/proc/$p/stat") arena $pid" >&2; done
  [ -z "$(marked "--marker=$CURRENT-$RUN")" ] || fail "bots outlived their arena: $(marked "--marker=$CURRENT-$RUN")"
  # The next referee to start sweeps what the dead ones left.
  "$REF" play --bot "$RANDOM_BOT" --bot "$RANDOM_BOT" --quiet >/dev/null
  for p in $pid $w; do
    kill -0 "$p" 2>/dev/null || no_remains_of "$p"
  done
  local left
  [ -n "$ours" ] || fail "no match folder of the arena's referees found"
  left=$(for d in $ours; do [ -e "$d" ] && echo "$d"; done; true)
  [ -z "$left" ] || fail "match folders left: $left"
}

# The match folders whose locks the processes of process group $1 hold.
folders_of_group() {
  local p f l
  for p in $(pgrep -g "$1"); do
    for f in /proc/"$p"/fd/*; do
      l=$(readlink "$f" 2>/dev/null) || continue
      case $l in /tmp/arena-??????/.lock) dirname "$l" ;; esac
    done
  done | sort -u
}

# ---- kill -9 of a referee at any moment ----------------------------------------

# Pids of live (not zombie) processes whose uid is in [$1, $2].
pool_processes() {
  awk -v lo="$1" -v hi="$2" '/^State:/ { z = $2 == "Z" }
    /^Uid:/ && $2 >= lo && $2 <= hi && !z { f = FILENAME; sub("/proc/", "", f);
                                            sub("/status", "", f); print f }' \
    /proc/[0-9]*/status 2>/dev/null || true
}
# Pids of live processes in a control group under $1 (arena-init and bwrap
# of a bot that keeps the referee's uid included), in any hierarchy.
group_processes() {
  local f pid
  for f in $(grep -l -F ":$1/" /proc/[0-9]*/cgroup 2>/dev/null); do
    pid=${f#/proc/}; pid=${pid%/cgroup}
    grep -q '^State:[[:space:]]*Z' "/proc/$pid/status" 2>/dev/null || echo "$pid"
  done
  return 0
}
# Match folders whose referee is gone (their lock is free).
dead_folders() {
  local d
  for d in /tmp/arena-??????; do
    [ -e "$d/.lock" ] && flock -n "$d/.lock" true 2>/dev/null && echo "$d"
  done
  return 0
}
# Waits until a child of $1 has $2 in its command line; 0, or 1 when $1 ends.
child_with() {
  local kids kid args
  while [ -d "/proc/$1" ]; do
    kids=
    read -r kids 2>/dev/null <"/proc/$1/task/$1/children" || true
    for kid in $kids; do
      args=()
      mapfile -d '' args 2>/dev/null <"/proc/$kid/cmdline" || continue
      [[ "${args[*]}" == *"$2"* ]] && return 0
    done
  done
  return 1
}

# A referee killed with SIGKILL at many moments (in its sandbox probe, while
# a bot's sandbox starts, at random times): whatever it started, a bot's
# sandbox caught half-made included, is killed by the next referee's sweep,
# with the control groups and the match folder. Its own cgroup parent and
# uid pool, so that other referees of the machine are not counted.
test_kill_moments() {
  CURRENT=kill_moments
  T=$ROOT/$CURRENT
  mkdir -p "$T"
  local parent=/arena-kill-test-$$ first=$((1600000000 + ($$ % 100000) * 32)) mounts m
  local last=$((first + 31)) moment i pid before left n=0 caught=0 probes=0 spawns=0
  mounts=$(findmnt -n -l -t cgroup,cgroup2 -o TARGET)
  for m in $mounts; do mkdir -p "$m$parent"; done
  CLEANUP_CGROUPS="$mounts" CLEANUP_PARENT=$parent CLEANUP_POOL="$first $last"
  export ARENA_CGROUP_PARENT=$parent ARENA_SANDBOX_UIDS=$first-$last
  local bots=(--bot "$RANDOM_BOT --marker=$CURRENT-$RUN" --bot "$RANDOM_BOT --marker=$CURRENT-$RUN")
  for moment in ${KILL_MOMENTS:-probe probe probe probe probe probe spawn spawn spawn spawn \
                spawn spawn 0 0.005 0.01 0.02 0.05 0.1 0.2 0.4}; do
    "$REF" play "${bots[@]}" --round-limit 3 --quiet >/dev/null 2>&1 &
    pid=$!
    case $moment in
      probe) child_with "$pid" "--probe" || { wait "$pid"; continue; }
             probes=$((probes + 1)) ;;
      spawn) child_with "$pid" "/run/arena-init 5" || { wait "$pid"; continue; }
             spawns=$((spawns + 1)) ;;
      *) sleep "$moment" ;;
    esac
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    n=$((n + 1))
    sleep 0.05
    left=$(pool_processes "$first" "$last")
    [ -z "$left" ] || caught=$((caught + 1))
    before=$(dead_folders)
    # The next referee sweeps what the dead one left.
    "$REF" play "${bots[@]}" --round-limit 1 --quiet >/dev/null 2>"$T/err" ||
      fail "the next referee: $(cat "$T/err")"
    for i in $(seq 60); do
      left=$(pool_processes "$first" "$last"; group_processes "$parent")
      [ -z "$left" ] && break
      sleep 0.05
    done
    [ -z "$left" ] || fail "killed at $moment: processes of the pool or its cgroups remain: $(for p in $left; do
      echo "$p: $(cut -d' ' -f3-5 "/proc/$p/stat") $(tr '\n' ' ' <"/proc/$p/cgroup")"
      tr '\0' ' ' <"/proc/$p/cmdline" | cut -c1-100; echo; done)"
    for m in $mounts; do
      [ -z "$(ls -d "$m$parent"/arena-* 2>/dev/null)" ] ||
        fail "killed at $moment: cgroups remain: $(ls -d "$m$parent"/arena-*)"
    done
    for i in $before; do
      [ ! -e "$i" ] || fail "killed at $moment: match folder $i remains"
    done
  done
  note "$n referees killed ($probes in the probe, $spawns starting a bot); $caught left" \
       "processes for the next one's sweep"
  [ "$probes" -ge 2 ] && [ "$spawns" -ge 2 ] ||
    fail "too few referees caught at their moment: $probes in the probe, $spawns in a spawn"
  for m in $mounts; do rmdir "$m$parent"; done
  CLEANUP_CGROUPS= CLEANUP_POOL=
  unset ARENA_CGROUP_PARENT ARENA_SANDBOX_UIDS
}

# Two seats never share a uid: the bots of three matches played at once are
# read from /proc while they play (bwrap, the init and the bot of a seat all
# carry its marker); each seat's processes have one uid of the pool, which
# no other seat, of the same match or of another, holds.
seat_uids() {   # "MARKER UID" of every live process of a seat of this test
  local d args uid
  for d in /proc/[0-9]*; do
    args=()
    mapfile -d '' args 2>/dev/null <"$d/cmdline" || continue
    [ ${#args[@]} -gt 0 ] && [ "${args[0]}" != "$REF" ] || continue   # not the referees
    [[ "${args[*]}" =~ --marker=(uids-$RUN-[0-9]+-[0-9]) ]] || continue
    uid=$(awk '/^Uid:/ { print $2 }' "$d/status" 2>/dev/null) || continue
    [ -z "$uid" ] || echo "${BASH_REMATCH[1]} $uid"
  done | sort -u
}
test_uids() {
  CURRENT=uids
  T=$ROOT/$CURRENT
  mkdir -p "$T"
  local m pids=() seen i shared seats
  for m in 1 2 3; do
    "$REF" play --sandbox strict --seed "$m" --round-limit 6 --quiet \
      --bot "$HOSTILE slow 150 --marker=uids-$RUN-$m-0" \
      --bot "$HOSTILE slow 150 --marker=uids-$RUN-$m-1" >/dev/null 2>"$T/err$m" &
    pids+=($!)
  done
  for i in $(seq 100); do     # until every seat of the three matches plays
    seen=$(seat_uids)
    [ "$(cut -d' ' -f1 <<<"$seen" | sort -u | wc -l)" -eq 6 ] && break
    sleep 0.1
  done
  seats=$(cut -d' ' -f1 <<<"$seen" | sort -u | wc -l)
  [ "$seats" -eq 6 ] || fail "only $seats of 6 seats seen playing: $seen"
  # One uid a seat (bwrap, init and bot alike), none of them root's, none
  # held by two seats.
  [ "$(wc -l <<<"$seen")" -eq 6 ] || fail "a seat runs as several uids: $seen"
  ! grep -q ' 0$' <<<"$seen" || fail "a seat runs as root: $seen"
  shared=$(cut -d' ' -f2 <<<"$seen" | sort | uniq -d | tr '\n' ' ')
  [ -z "$shared" ] || fail "seats share uid $shared: $(tr '\n' ';' <<<"$seen")"
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || fail "match $((i + 1)): $(cat "$T/err$((i + 1))")"
  done
  note "6 seats of 3 concurrent matches, 6 uids: $(cut -d' ' -f2 <<<"$seen" | tr '\n' ' ')"
}

tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(snoop files layers net env outlive ptrace limits isolation_recorded arena kill
                                  kill_moments uids)
for t in "${tests[@]}"; do
  "test_$t"
  echo "ok $t"
done
