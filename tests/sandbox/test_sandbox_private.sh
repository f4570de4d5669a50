#!/usr/bin/env bash
# test_sandbox_private.sh - the arena cloned below a folder no other user may
# enter (root's own home, mode 0700 on Debian): its sandboxed bots, each a
# pool uid that cannot pass that folder, still play, because the referee
# shows their folders (and the sdk, and the init) to bubblewrap itself.
# Without namespaces, a bot there is refused with one line that names the
# folder and what to change.
#
# usage: test_sandbox_private.sh REFEREE INIT ARENA RANDOM SQL WORKDIR
# Copies the built tree into WORKDIR/private.XXXXXX/arena (the parent 0700),
# as a clone in /root would lie: build/referee, build/arena, build/agents,
# agents/python and sdk/python. Needs root and bubblewrap; skips otherwise.
set -euo pipefail
[ $# -eq 6 ] || { echo "usage: $0 REFEREE INIT ARENA RANDOM SQL WORKDIR" >&2; exit 2; }
SRC=$(cd "$(dirname "$0")/../.." && pwd)
REF=$(readlink -f "$1") INIT=$(readlink -f "$2") ARENA=$(readlink -f "$3")
RANDOM_BOT=$(readlink -f "$4") SQL=$(readlink -f "$5") WORK=$6
unset ARENA_SANDBOX
mkdir -p "$WORK"
HOME_DIR=$(mktemp -d "$WORK/private.XXXXXX")
trap 'rm -rf "$HOME_DIR"' EXIT
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" -ne 0 ] || ! "$REF" play --sandbox strict --bot "$RANDOM_BOT" \
     --bot "$RANDOM_BOT" --quiet >"$HOME_DIR/probe" 2>&1; then
  echo "test_sandbox_private: SKIPPED: needs root and a full sandbox" \
       "($(head -c 300 "$HOME_DIR/probe"))"
  [ -z "${CI:-}" ] || exit 1       # CI runs as root with bubblewrap: must work
  exit 0
fi

# The clone: readable by all (a root umask of 022), below a 0700 folder.
chmod 0700 "$HOME_DIR"
C=$HOME_DIR/arena
mkdir -p "$C/build/referee" "$C/build/arena" "$C/build/agents" "$C/agents" "$C/sdk"
cp "$REF" "$INIT" "$C/build/referee/"
cp "$ARENA" "$C/build/arena/"
cp "$RANDOM_BOT" "$C/build/agents/random"
cp -r "$SRC/agents/python" "$C/agents/"
cp -r "$SRC/sdk/python" "$C/sdk/"
chmod -R a+rX "$C"
su_cannot_enter=$(setpriv --reuid 1500000000 --regid 1500000000 --clear-groups \
                    ls "$C" 2>&1 || true)
[[ "$su_cannot_enter" == *"Permission denied"* ]] ||
  fail "a pool uid can enter $HOME_DIR: the test proves nothing ($su_cannot_enter)"
REF_C=$C/build/referee/referee ARENA_C=$C/build/arena/arena
BOT="$C/build/agents/random" PYBOT="/usr/bin/python3 $C/agents/python/random_bot.py"

# 1. A strict match of a C bot and a Python bot (its SDK in the clone).
"$REF_C" play --sandbox strict --seed 4 --round-limit 20 --record "$HOME_DIR/rec" \
  --bot "$BOT" --bot "$PYBOT" >"$HOME_DIR/out" 2>"$HOME_DIR/err" ||
  fail "referee play --sandbox strict: $(cat "$HOME_DIR/err")"
iso=$(sed -n 's/^isolation //p' "$HOME_DIR/rec")
[[ "$iso" == "strict env "*" uid ns("* && "$iso" != *referee-uid* ]] ||
  fail "the bots lacked a layer: $iso"
grep -Eq '^reason (markers|round_limit)$' "$HOME_DIR/rec" ||
  fail "the match did not end by the game: $(grep -E '^(reason|detail)' "$HOME_DIR/rec")"
echo "ok play: $iso"

# 2. Registration (tried by bot add) and a short tournament from the clone.
DB=$HOME_DIR/arena.db
"$ARENA_C" --db "$DB" bot add crandom --cmd "$BOT" >/dev/null 2>"$HOME_DIR/err" ||
  fail "bot add crandom: $(cat "$HOME_DIR/err")"
"$ARENA_C" --db "$DB" bot add pyrandom --cmd "$PYBOT" >/dev/null 2>"$HOME_DIR/err" ||
  fail "bot add pyrandom: $(cat "$HOME_DIR/err")"
"$ARENA_C" --db "$DB" tournament --sandbox strict --games 2 --concurrency 2 --round-limit 10 \
  --seed 7 --quiet >"$HOME_DIR/out" 2>"$HOME_DIR/err" ||
  fail "tournament: $(cat "$HOME_DIR/err")"
"$SQL" "$DB" "SELECT record FROM matches" >"$HOME_DIR/recs"
n=$(grep -c '^isolation strict env .* uid ns(' "$HOME_DIR/recs" || true)
[ "$n" -ge 2 ] || fail "$n strict matches with every layer: $(grep -E '^(isolation|reason|detail)' "$HOME_DIR/recs")"
! grep -q referee-uid "$HOME_DIR/recs" || fail "a seat kept the referee's uid"
bad=$(grep -E '^reason ' "$HOME_DIR/recs" | grep -Ev '^reason (markers|round_limit)$' || true)
[ -z "$bad" ] || fail "matches ended badly: $bad"
echo "ok tournament: $n matches, every layer"

# 3. Without namespaces (no bubblewrap: hidden in a mount namespace of the
# test's own), a pool uid runs the bot on the host, where it cannot reach
# it: bot add refuses it in one line that says what to change. The bot lies
# below a shut folder of a long path (two 100-character names above it), as
# a deep checkout would: the line keeps its reason and advice whole, and the
# path, last, is what a record's detail cuts.
LONG=$HOME_DIR/$(printf 'd%.0s' {1..100})/$(printf 'e%.0s' {1..100})
mkdir -p "$LONG"
chmod 0755 "$HOME_DIR" "$LONG" "$(dirname "$LONG")"
SHUT_DIR=$(mktemp -d "$LONG/shut.XXXXXX")     # 0700, others may not pass
cp "$BOT" "$SHUT_DIR/random"
chmod a+rx "$SHUT_DIR/random"
out=$(unshare -m sh -c 'mount --bind /dev/null /usr/bin/bwrap && exec "$@"' sh \
        "$ARENA_C" --db "$DB" bot add shut --cmd "$SHUT_DIR/random" 2>&1) &&
  fail "bot add without namespaces accepted a bot its user cannot reach: $out"
# The first folder on the way that others may not pass: the shut one, or
# one above it when the checkout itself lies below such a folder.
shut=
IFS=/ read -ra parts <<<"${SHUT_DIR#/}"
p=
for part in "${parts[@]}"; do
  p=$p/$part
  [ $((0$(stat -c %a "$p") & 1)) -ne 0 ] || { shut=$p; break; }
done
[ -n "$shut" ] || fail "no folder above $SHUT_DIR shuts others out"
line=$(printf '%s\n' "$out" | grep 'bot add shut' || true)
advice="no namespaces here, and uid [0-9]+ cannot reach the bot's files: put the bot elsewhere, or chmod o\\+x (/[^ )]*)"
[[ "$line" =~ $advice ]] || fail "unclear refusal (its reason cut?): $out"
shown=${BASH_REMATCH[1]}
[[ ${#shown} -ge 20 && "$shut" == "$shown"* ]] ||
  fail "the refusal names no start of $shut: $shown"
echo "ok no namespaces: $line"
