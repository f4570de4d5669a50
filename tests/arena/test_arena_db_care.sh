#!/usr/bin/env bash
# test_arena_db_care.sh - the database file itself, through the real
# program: `arena backup` of a database a tournament is writing gives a
# copy `arena check` passes; a file damaged in its middle is called damaged
# by every command that meets it (with what to do), and refused as a
# backup source; `bot add` says a missing folder or a registered name and
# version before it tries the bot; a relative --cmd or --cwd is stored
# resolved against the folder bot add ran in, and plays from any other.
#
# usage: test_arena_db_care.sh ARENA RANDOM SQL
set -euo pipefail
[ -n "${CARE_TRACE:-}" ] && { PS4='+ $(date +%s) '; exec 2>>"$CARE_TRACE"; set -x; }
[ $# -eq 3 ] || { echo "usage: $0 ARENA RANDOM SQL" >&2; exit 2; }
arena=$(readlink -f "$1") random=$(readlink -f "$2") sqltool=$(readlink -f "$3")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-care.XXXXXX")
pid=
trap '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"
db=$tmp/arena.db
A() { "$arena" --db "$db" "$@"; }
sql() { "$sqltool" "$db" "$1"; }

# ---- bot add: refused before the bot's check ------------------------------
# The check plays two matches against the random bot (seconds); these
# refusals come first, so a bot that cannot even start is never run.
rc=0; "$arena" --db "$tmp/nowhere/arena.db" bot add a --cmd /bin/false 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q "no folder $tmp/nowhere for the database" "$tmp/err" &&
  ! grep -q "bot test\|cannot play" "$tmp/err" || fail "missing folder: $rc $(cat "$tmp/err")"
[ ! -e "$tmp/nowhere" ] || fail "the missing folder was made"
A bot add r1 --no-test --cmd "$random" >/dev/null
A bot add r2 --no-test --cmd "$random" --version 1 >/dev/null
# Each refusal in its own words: a name without --version is told how to
# add a new version.
for args in "r1" "r2 --version 1"; do
  rc=0; A bot add $args --cmd /bin/false >"$tmp/out" 2>"$tmp/err" || rc=$?
  case $args in
    r1) said="a bot named r1 is already registered (a new version needs --version)" ;;
    *)  said="r2 version 1 is already registered" ;;
  esac
  [ "$rc" = 2 ] && grep -qF "$said" "$tmp/err" && [ ! -s "$tmp/out" ] ||
    fail "duplicate $args: $rc $(cat "$tmp/out" "$tmp/err")"
done

# ---- relative paths ----------------------------------------------------------
mkdir -p "$tmp/home/bots" "$tmp/elsewhere/bots"
cp "$random" "$tmp/home/bots/rnd"
printf '#!/bin/sh\nexec %s\n' "$tmp/home/bots/rnd" >"$tmp/home/start.sh"
printf '#!/bin/sh\nexit 3\n' >"$tmp/elsewhere/start.sh"     # the same words, another bot
cp "$tmp/elsewhere/start.sh" "$tmp/elsewhere/bots/rnd"
chmod +x "$tmp/home/start.sh" "$tmp/elsewhere/start.sh" "$tmp/elsewhere/bots/rnd"
(cd "$tmp/home" && A bot add rel-prog --no-test --cmd ./bots/rnd >"$tmp/out") ||
  fail "add ./bots/rnd"
grep -q "it runs $tmp/home/bots/rnd " "$tmp/out" || fail "the result not shown: $(cat "$tmp/out")"
(cd "$tmp/home" && A bot add rel-arg --no-test --cmd "sh start.sh" >/dev/null) || fail "sh start.sh"
(cd "$tmp/home" && A bot add rel-cwd --no-test --cwd bots --cmd ./rnd >/dev/null) || fail "--cwd"
# A leading assignment stays one (its value quoted, not the word).
(cd "$tmp/home" && A bot add env-rel --no-test --cmd "GREETING='a b' ./bots/rnd" >/dev/null) ||
  fail "an assignment before a relative program"
[ "$(sql "SELECT cmd FROM bots WHERE name = 'env-rel'")" = "GREETING='a b' $tmp/home/bots/rnd" ] ||
  fail "the assignment: $(sql "SELECT cmd FROM bots WHERE name = 'env-rel'")"
[ "$(sql "SELECT cmd || '|' || cwd FROM bots WHERE name LIKE 'rel-%' ORDER BY name")" = \
  "sh $tmp/home/start.sh|
./rnd|$tmp/home/bots
$tmp/home/bots/rnd|" ] || fail "stored: $(sql "SELECT name, cmd, cwd FROM bots")"
# From another folder with files of the same names, the stored bots play:
# three draws a match, no forfeit.
(cd "$tmp/elsewhere" && A tournament --games 2 --concurrency 1 --quiet --memory-mb 0 \
   rel-prog rel-arg rel-cwd) || fail "the relative bots from another folder"
[ "$(sql "SELECT count(*), sum(reason LIKE '%forfeit%' OR reason LIKE '%crash%') FROM matches")" = "6|0" ] ||
  fail "relative bots' matches: $(sql "SELECT reason, detail FROM matches")"

# ---- backup of a live database ---------------------------------------------
"$arena" --db "$db" tournament --games 400 --concurrency 2 --quiet --memory-mb 0 --move-ms 50 r1 r2 &
pid=$!
for _ in $(seq 300); do
  [ "$(sql "SELECT count(*) >= 12 FROM matches")" = 1 ] && break; sleep 0.1
done
[ "$(sql "SELECT count(*) >= 12 FROM matches")" = 1 ] || fail "the tournament stores nothing"
A backup "$tmp/copy.db" >"$tmp/out" || fail "backup of a live database"
grep -q "backed up $db to $tmp/copy.db" "$tmp/out" || fail "backup said: $(cat "$tmp/out")"
kill -0 "$pid" 2>/dev/null || fail "the tournament ended before the backup: make it longer"
"$arena" --db "$tmp/copy.db" check >"$tmp/out" || fail "the backup's check: $(cat "$tmp/out")"
grep -q "the file is whole" "$tmp/out" || fail "check does not check the file: $(cat "$tmp/out")"
n=$("$sqltool" "$tmp/copy.db" "SELECT count(*) FROM matches")
[ "$n" -ge 12 ] || fail "the backup holds $n matches"
kill -TERM "$pid"; rc=0; wait "$pid" || rc=$?; pid=
[ "$rc" = 130 ] || fail "the tournament stopped by SIGTERM: exit $rc"
rc=0; A backup "$tmp/copy.db" 2>"$tmp/err" || rc=$?
[ "$rc" != 0 ] && grep -q "exists" "$tmp/err" || fail "a backup over a file: $rc"
rc=0; A backup 2>/dev/null || rc=$?; [ "$rc" = 2 ] || fail "backup without FILE: $rc"

# ---- damage ------------------------------------------------------------------
# The bots table's first page overwritten: every command that reads it
# says the file is damaged and what to do, and does not exit 0.
cp "$tmp/copy.db" "$tmp/bad.db"
root=$("$sqltool" "$tmp/bad.db" "SELECT rootpage FROM sqlite_master WHERE name = 'bots'")
size=$("$sqltool" "$tmp/bad.db" "PRAGMA page_size")
python3 - "$tmp/bad.db" $(( (root - 1) * size )) "$size" <<'PY'
import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(int(sys.argv[2])); f.write(b"\xde\xad" * (int(sys.argv[3]) // 2))
PY
for cmd in "bot list" "standings" "matches" "match 1" "check" "bot add z --no-test --cmd /bin/true"; do
  rc=0; "$arena" --db "$tmp/bad.db" $cmd >/dev/null 2>"$tmp/err" || rc=$?
  [ "$rc" != 0 ] || fail "$cmd on a damaged file: exit 0"
  grep -q "$tmp/bad.db is damaged" "$tmp/err" && grep -q "arena backup" "$tmp/err" &&
    grep -q "sqlite3 $tmp/bad.db .recover" "$tmp/err" || fail "$cmd on damage: $(cat "$tmp/err")"
done
# Damage no report reads (the root page of the workers' table, which
# `check`'s recomputes never touch): only the file's own check finds it.
cp "$tmp/copy.db" "$tmp/bad2.db"
root=$("$sqltool" "$tmp/bad2.db" "SELECT rootpage FROM sqlite_master WHERE name = 'workers'")
python3 - "$tmp/bad2.db" $(( (root - 1) * size )) "$size" <<'PY'
import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(int(sys.argv[2])); f.write(b"\xde\xad" * (int(sys.argv[3]) // 2))
PY
rc=0; "$arena" --db "$tmp/bad2.db" check >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] && grep -q "$tmp/bad2.db is damaged" "$tmp/err" ||
  fail "check of a page no report reads: $rc $(cat "$tmp/out" "$tmp/err")"
rc=0; "$arena" --db "$tmp/bad.db" backup "$tmp/bad-copy.db" 2>"$tmp/err" || rc=$?
[ "$rc" != 0 ] && grep -q "the copy is damaged" "$tmp/err" && [ ! -e "$tmp/bad-copy.db" ] ||
  fail "backup of a damaged file: $rc $(cat "$tmp/err")"
# The undamaged file says nothing of the kind.
A bot list >/dev/null 2>"$tmp/err" && [ ! -s "$tmp/err" ] || fail "bot list: $(cat "$tmp/err")"
echo "test_arena_db_care: ok"
