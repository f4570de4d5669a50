#!/usr/bin/env bash
# test_arena_ladder_gate.sh - `arena ladder --gate sprt` end to end with real
# bots and the real referee: a greedy bot registered as a new version of a
# random bot plays only that version until its SPRT accepts H1, then joins;
# a random bot registered as a new version of a greedy bot fails and is
# disabled with the reason; a ladder stopped mid-trial goes on with the
# trial's games counted; `bot enable` overrules a failed gate; a cap
# disables an undecided version; bad flags are one line and exit 2.
# Bounded: every run has --matches and a timeout.
#
# usage: test_arena_ladder_gate.sh ARENA RANDOM GREEDY SQL
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 ARENA RANDOM GREEDY SQL" >&2; exit 2; }
arena=$(readlink -f "$1") random=$(readlink -f "$2") greedy=$(readlink -f "$3")
sqltool=$(readlink -f "$4")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-gate.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"
FAIL_LOG="$tmp/log"
db=$tmp/arena.db
A() { "$arena" --db "$db" "$@"; }
sql() { "$sqltool" "$db" "$1"; }
# --memory-mb 0: sanitizer builds of the bots need the address space.
flags=(--gate sprt --gate-elo1 200 --concurrency 2 --move-ms 200 --bank-ms 2000
       --memory-mb 0 --reload 0.2 --log-seconds 1 --fit-every 10)
ladder() { timeout 200 "$arena" --db "$db" ladder "${flags[@]}" "$@" 2>>"$tmp/log"; }
json() { A bot list --format json >"$tmp/bots.json"; python3 - "$tmp/bots.json" "$@"; }
# The opponents of bot $1 (id) in ladder matches, one a line, in plan order.
opponents() {
  sql "SELECT o.bot_id FROM match_seats s JOIN matches m ON m.id = s.match_id
       JOIN match_seats o ON o.match_id = m.id AND o.bot_id != s.bot_id
       WHERE s.bot_id = $1 AND m.ladder_id IS NOT NULL ORDER BY m.ladder_id, m.game_index"
}
id_of() { sql "SELECT id FROM bots WHERE name = '$1' AND version = '$2'"; }

A bot add x --no-test --cmd "$random" --version 1 >/dev/null
A bot add other --no-test --cmd "$random" >/dev/null
A bot add x --no-test --cmd "$greedy" --version 2 >/dev/null
x1=$(id_of x 1) x2=$(id_of x 2)

# 1. Stopped mid-trial: 4 matches, the trial's pair first.
ladder --name pass --matches 4 || fail "first run: exit $?"
grep -q "x@2 is on trial: it plays x@1 until its SPRT decides" "$tmp/log" || fail "no trial line"
json <<'PY' || fail "mid-trial bot list: $(cat "$tmp/bots.json")"
import json, sys
b = {b["bot"]: b for b in json.load(open(sys.argv[1]))}["x@2"]
assert b["status"] == "trial" and b["reason"].startswith("on trial: SPRT gate against x@1 in ladder pass"), b
PY
before=$(opponents "$x2" | wc -l)
[ "$before" -ge 2 ] || fail "x@2 played $before trial games in the first run"

# 2. The same command goes on: the trial's games counted, H1, it joins.
: >"$tmp/log"
ladder --name pass --matches 40 || fail "second run: exit $?"
grep -q "x@2 is on trial: .* $before games so far" "$tmp/log" || fail "trial not resumed"
grep -q "x@2 passed its SPRT gate against x@1 in ladder pass: LLR .*: it joins the ladder" \
  "$tmp/log" || fail "no pass line"
grep -q "x@2 plays" "$tmp/log" || fail "x@2 did not join"
grep -q "x@1 keeps playing beside x@2 (--retire-old retires" "$tmp/log" || fail "no word of x@1"
[ "$(sql "SELECT status FROM bots WHERE id = $x1")" = active ] || fail "x@1 retired without --retire-old"
pairs=$(json <<'PY'
import json, re, sys
b = {b["bot"]: b for b in json.load(open(sys.argv[1]))}["x@2"]
assert b["status"] in ("active", "provisional"), b
print(re.search(r"passed its SPRT gate against x@1 in ladder pass: LLR [0-9.]+ >= [0-9.]+ after (\d+) pairs", b["reason"]).group(1))
PY
) || fail "passed bot list: $(cat "$tmp/bots.json")"
# Its first 2*pairs games were all against x@1; it played the ladder after.
[ "$(opponents "$x2" | head -n $((2 * pairs)) | sort -u)" = "$x1" ] ||
  fail "x@2 met someone else on trial"
[ "$(opponents "$x2" | wc -l)" -ge $((before + 2)) ] || fail "no games after the restart"
ladder_ok=$(A check 2>&1) || fail "arena check: $ladder_ok"
# The verdict is stored, once, with what the note says.
[ "$(sql "SELECT count(*) FROM gate_verdicts")" = 1 ] || fail "verdicts: $(sql "SELECT * FROM gate_verdicts")"
[ "$(sql "SELECT l.name, g.bot_id, g.opponent_id, g.outcome, g.pairs, g.llr >= g.upper, CAST(g.elo1 AS INTEGER),
              g.wins + g.draws + g.losses = 2 * g.pairs
          FROM gate_verdicts g JOIN ladders l ON l.id = g.ladder_id")" = "pass|$x2|$x1|passed|$pairs|1|200|1" ] ||
  fail "the passed verdict: $(sql "SELECT * FROM gate_verdicts")"

# 2b. --retire-old: the version that passes retires the one it beat, which
# plays no more; a run after finds it retired and says nothing of it.
A bot add y --no-test --cmd "$random" --version 1 >/dev/null
A bot add y --no-test --cmd "$greedy" --version 2 >/dev/null
y1=$(id_of y 1)
: >"$tmp/log"
ladder --name retire --retire-old --matches 40 || fail "--retire-old run: exit $?"
grep -q "y@1 retired: replaced by y@2, which passed its SPRT gate against it in ladder retire" \
  "$tmp/log" || fail "no retire line"
[ "$(sql "SELECT status || '|' || status_reason FROM bots WHERE id = $y1")" = \
  "retired|replaced by y@2, which passed its SPRT gate against it in ladder retire" ] ||
  fail "y@1: $(sql "SELECT status, status_reason FROM bots WHERE id = $y1")"
grep -q "y@1 no longer plays" "$tmp/log" || fail "y@1 still plays"
n=$(opponents "$y1" | wc -l)
: >"$tmp/log"
ladder --name retire --retire-old --matches 6 || fail "rerun after retiring: exit $?"
[ "$(opponents "$y1" | wc -l)" = "$n" ] && ! grep -q "y@1" "$tmp/log" || fail "a retired version played"
rc=0; A ladder --retire-old --matches 2 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q "give --gate sprt too" "$tmp/err" || fail "--retire-old alone: $rc"

# 3. A weaker new version fails and is disabled with the reason.
A bot add g --no-test --cmd "$greedy" --version 1 >/dev/null
A bot add g --no-test --cmd "$random" --version 2 >/dev/null
g1=$(id_of g 1) g2=$(id_of g 2)
: >"$tmp/log"
ladder --name fail --matches 30 || fail "failing run: exit $?"
grep -q "g@2 disabled: failed its SPRT gate against g@1: LLR -" "$tmp/log" || fail "no fail line"
json <<'PY' || fail "failed bot list: $(cat "$tmp/bots.json")"
import json, sys
b = {b["bot"]: b for b in json.load(open(sys.argv[1]))}["g@2"]
assert b["status"] == "disabled" and b["reason"].startswith("failed its SPRT gate against g@1: LLR -"), b
PY
[ "$(opponents "$g2" | sort -u)" = "$g1" ] || fail "g@2 met someone other than g@1"
n=$(opponents "$g2" | wc -l)
# Run again: the verdict stands (it stays out); enabled by hand, it plays.
ladder --name fail --matches 6 || fail "rerun: exit $?"
[ "$(opponents "$g2" | wc -l)" = "$n" ] || fail "a disabled version played"
A bot enable g@2 >/dev/null
: >"$tmp/log"
ladder --name fail --matches 12 || fail "enabled run: exit $?"
grep -q "g@2 let in by hand after its SPRT gate against g@1" "$tmp/log" || fail "not let in"
# Failed (the rerun, with it disabled, stored nothing more), then overruled.
[ "$(sql "SELECT group_concat(outcome || ' ' || (llr <= lower), ',') FROM (SELECT * FROM gate_verdicts
          WHERE bot_id = $g2 AND opponent_id = $g1 ORDER BY id)")" = "failed 1,overruled 1" ] ||
  fail "g@2's verdicts: $(sql "SELECT * FROM gate_verdicts")"
[ "$(opponents "$g2" | wc -l)" -gt "$n" ] || fail "the enabled version did not play"

# 4. The cap: undecided after 4 games, disabled as inconclusive.
A bot add c --no-test --cmd "$random" --version 1 >/dev/null
A bot add c --no-test --cmd "$random" --version 2 >/dev/null
: >"$tmp/log"
ladder --name cap --matches 12 --gate-max-games 4 || fail "capped run: exit $?"
json <<'PY' || fail "capped bot list: $(cat "$tmp/bots.json")"
import json, sys
b = {b["bot"]: b for b in json.load(open(sys.argv[1]))}["c@2"]
assert b["status"] == "disabled", b
assert b["reason"].startswith("its SPRT gate against c@1 was inconclusive after 4 games"), b
PY
[ "$(sql "SELECT outcome, wins + draws + losses FROM gate_verdicts g JOIN ladders l ON l.id = g.ladder_id
          WHERE l.name = 'cap' AND g.bot_id = $(id_of c 2)")" = "capped|4" ] || fail "the capped verdict: $(sql "SELECT * FROM gate_verdicts")"

# 4b. The verdict of a run's last match is that run's: on a ladder of the
# trial's pair alone, the 4th and last match is the capping one.
db=$tmp/last.db
A bot add c --no-test --cmd "$random" --version 1 >/dev/null
A bot add c --no-test --cmd "$random" --version 2 >/dev/null
ladder --name last --matches 4 --gate-max-games 4 || fail "last-match run: exit $?"
[ "$(sql "SELECT outcome, wins + draws + losses FROM gate_verdicts")" = "capped|4" ] ||
  fail "the last match's verdict waits for the next run: $(sql "SELECT * FROM gate_verdicts")"
db=$tmp/arena.db

# 5. Bad flags: one line, exit 2.
for args in "--gate elo" "--gate sprt --gate-elo0 5 --gate-elo1 1" "--gate sprt --gate-max-games 1"; do
  err=$(A ladder $args --matches 2 2>&1 >/dev/null) && rc=0 || rc=$?
  [ "$rc" -eq 2 ] || fail "ladder $args: exit $rc"
  [ "$(echo "$err" | wc -l)" -eq 1 ] || fail "ladder $args: '$err'"
done
echo "1 passed, 0 failed"
