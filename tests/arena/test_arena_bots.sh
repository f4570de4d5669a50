#!/usr/bin/env bash
# test_arena_bots.sh - `arena bot` through the real program: versions
# rated apart and told apart, statuses with their reasons, and every list
# format (a reason is untrusted text: JSON and CSV escape it, a table
# shows no control character).
#
# usage: test_arena_bots.sh ARENA RANDOM SQL
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 ARENA RANDOM SQL" >&2; exit 2; }
arena=$(readlink -f "$1") random=$(readlink -f "$2") sqltool=$(readlink -f "$3")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-bots.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"
db=$tmp/arena.db
A() { "$arena" --db "$db" "$@"; }
sql() { "$sqltool" "$db" "$1"; }

A bot add alpha --no-test --cmd "$random" >/dev/null
A bot add beta --no-test --cmd "$random" --version 1 >/dev/null
out=$(A bot add alpha --no-test --cmd "$random" --version 2)
[ "$out" = "added bot alpha@2, a new version (rated apart from the one before)
  it plays warchest goofspiel (untried)" ] || fail "add: $out"
rc=0; A bot add alpha --no-test --cmd "$random" 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q "already registered (a new version needs --version)" "$tmp/err" ||
  fail "a second alpha without a version: $rc $(cat "$tmp/err")"
[ "$(sql "SELECT count(*) FROM bots WHERE name = 'alpha'")" = 2 ] || fail "alpha's versions"

# Statuses: disable needs a reason; the reason is kept and shown.
rc=0; A bot disable beta 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q "needs --reason" "$tmp/err" || fail "disable without a reason: $rc"
reason=$'says "hi",\nthen \e[31mred'
A bot disable beta --reason "$reason" >/dev/null
A bot retire 'alpha#1' --reason "old" >/dev/null
rc=0; A bot enable 'alpha#1' 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q "alpha is retired\|alpha#1 is retired" "$tmp/err" || fail "enable retired: $(cat "$tmp/err")"

A bot list --format json >"$tmp/list.json"
python3 - "$tmp/list.json" <<'PY' || fail "bot list json: $(cat "$tmp/list.json")"
import json, sys
bots = {b["bot"]: b for b in json.load(open(sys.argv[1]))}
assert set(bots) == {"alpha#1", "alpha@2", "beta"}, bots
assert bots["alpha#1"]["status"] == "retired" and bots["alpha#1"]["reason"] == "old"
assert bots["alpha@2"]["status"] == "provisional" and bots["alpha@2"]["previous"] == bots["alpha#1"]["id"]
assert bots["beta"]["status"] == "disabled"
assert bots["beta"]["reason"] == 'says "hi",\nthen \x1b[31mred', bots["beta"]["reason"]
for b in bots.values():
    assert {"bot", "name", "version", "status", "reason", "games", "elo"} <= set(b)
PY
A bot list --format csv >"$tmp/list.csv"
python3 - "$tmp/list.csv" <<'PY' || fail "bot list csv: $(cat "$tmp/list.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
beta = [r for r in rows if r["bot"] == "beta"][0]
assert beta["status"] == "disabled" and beta["reason"] == 'says "hi",\nthen \x1b[31mred', beta
assert len(rows) == 3
PY
A bot list >"$tmp/list.txt"
! grep -q $'\e' "$tmp/list.txt" || fail "a table shows an escape character"
grep -q '^beta .*disabled.*says "hi",?then ?\[31mred' "$tmp/list.txt" || fail "table: $(cat "$tmp/list.txt")"
A bot enable beta >/dev/null
[ "$(sql "SELECT status || '|' || status_reason FROM bots WHERE name = 'beta'")" = "active|" ] ||
  fail "enable"
# A tournament of every bot takes the active ones: alpha@2 and beta, not
# the retired alpha#1.
A tournament --games 2 --concurrency 1 --quiet --memory-mb 0 >/dev/null
[ "$(sql "SELECT count(DISTINCT s.bot_id), sum(b.version = '2'), sum(b.name = 'beta'),
                 sum(b.status <> 'active') FROM match_seats s JOIN bots b ON b.id = s.bot_id")" = "2|2|2|0" ] ||
  fail "tournament bots: $(sql 'SELECT DISTINCT bot_id FROM match_seats')"
# Every command's flags come from its table: --help lists each of them,
# and a bad one is one line naming the command, exit 2.
help_lists() {
  local out; out=$(A "${@:2}" --help) || fail "${*:2} --help: exit $?"
  for f in $1; do grep -q -- "^  $f" <<<"$out" || fail "${*:2} --help lists no $f: $out"; done
}
help_lists "--cmd --game --cwd --version --env --no-test --memory-mb" bot add
help_lists "--game --cmd --cwd --move-ms --handshake-ms --memory-mb --opponent" bot test
help_lists "--format" bot list
help_lists "--reason" bot retire
help_lists "--tournament --format --ladder --players" standings
help_lists "--tournament --format --ladder" crosstable
help_lists "--logs --tail" match
help_lists "--ladder --format" history
help_lists "--play --max-games --elo0 --elo1 --alpha --beta --move-ms --concurrency" sprt
A standings --help | grep -q "^los: " || fail "standings --help does not explain los"
for c in "standings:standings --players 1" "matches:matches --ladder x" "bot add:bot add z --cmd" \
         "bot list:bot list --format x" "bot enable:bot enable beta --reason x" \
         "match:match 1 --tail -1" "history:history beta --format x" \
         "bot test:bot test --move-ms 0 --cmd x"; do
  args=${c#*:}
  err=$(A $args 2>&1 >/dev/null) && rc=0 || rc=$?
  [ "$rc" -eq 2 ] || fail "$args: exit $rc"
  [ "$(wc -l <<<"$err")" -eq 1 ] && [[ "$err" == "arena: ${c%%:*}: "* ]] || fail "$args: '$err'"
done
echo "bots: versions, statuses and lists as documented"
