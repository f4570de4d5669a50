#!/usr/bin/env bash
# `arena history BOT`: a bot's live Elo match by match on a real database
# (a short tournament of greedy v random, then a short ladder with a hostile
# name), each step following the last, zero-sum between the two bots; CSV
# and JSON agree; with --ladder, the ladder's Bradley-Terry fits; the
# ladder's name escaped in every format; errors are one line, exit 2.
# Usage: test_arena_history.sh ARENA RANDOM GREEDY
set -euo pipefail
arena=$1 random=$2 greedy=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-history-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"
A() { "$arena" --db "$tmp/a.db" "$@"; }
lad=$(printf 'lad,"x\001y')

A bot add r --no-test --cmd "$random" >/dev/null
A bot add g --no-test --cmd "$greedy" >/dev/null
A bot add idle --no-test --cmd "$random" >/dev/null
A tournament --games 4 --concurrency 2 --memory-mb 0 --quiet g r
A bot disable idle --reason "kept out of the ladder" >/dev/null
A ladder --name "$lad" --matches 4 --fit-every 2 --concurrency 2 --memory-mb 0 2>"$tmp/ladder.err" \
  || fail "ladder: $(cat "$tmp/ladder.err")"

for b in g r; do
  A history "$b" --format json >"$tmp/$b.json"
  A history "$b" --format csv >"$tmp/$b.csv"
  A history "$b" >"$tmp/$b.txt"
done
/usr/bin/python3 - "$tmp" "$lad" <<'PY'
import csv, json, sys, datetime
tmp, lad = sys.argv[1], sys.argv[2]
g, r = (json.load(open(f"{tmp}/{b}.json")) for b in "gr")
assert len(g) == 8 and len(r) == 8, (len(g), len(r))
assert [e["match"] for e in g] == sorted(e["match"] for e in g)
assert g[0]["elo_before"] == 1500 and r[0]["elo_before"] == 1500, (g[0], r[0])
for steps, other in ((g, "r"), (r, "g")):
    for a, b in zip(steps, steps[1:]):
        assert a["elo_after"] == b["elo_before"], (a, b)       # each step follows the last
    for e in steps:
        assert abs(e["change"] - (e["elo_after"] - e["elo_before"])) < 0.011, e
        assert e["opponents"] == other, e
        datetime.datetime.strptime(e["finished"], "%Y-%m-%dT%H:%M:%SZ")
for a, b in zip(g, r):                                          # 2 seats, one K: zero-sum
    assert a["match"] == b["match"] and a["score"] + b["score"] == 1, (a, b)
    assert abs(a["change"] + b["change"]) < 0.011, (a, b)
assert [e["tournament"] for e in g] == [1] * 4 + [0] * 4, g
assert [e["ladder"] for e in g] == [""] * 4 + [lad] * 4, g
rows = list(csv.DictReader(open(f"{tmp}/g.csv", newline="")))   # CSV says what JSON says
assert len(rows) == 8
for row, e in zip(rows, g):
    for k in ("match", "tournament", "score"):
        assert float(row[k]) == e[k], (k, row, e)
    for k in ("elo_before", "elo_after", "change"):
        assert abs(float(row[k]) - e[k]) < 0.006, (k, row, e)
    assert row["ladder"] == e["ladder"] and row["finished"] == e["finished"], (row, e)
table = open(f"{tmp}/g.txt").read().splitlines()
assert len(table) == 9 and table[0].split()[:2] == ["match", "finished"], table
assert table[1].rstrip().endswith("r, tournament 1"), table[1]
assert table[8].rstrip().endswith('r, ladder lad,"x?y'), table[8]   # shown, never raw
assert "\x01" not in open(f"{tmp}/g.txt").read()
PY

# The ladder's fits: one per 2 matches, the games they counted growing.
A history g --ladder "$lad" --format json >"$tmp/fits.json"
A history g --ladder "$lad" --format csv >"$tmp/fits.csv"
/usr/bin/python3 - "$tmp" <<'PY'
import csv, json, sys
tmp = sys.argv[1]
fits = json.load(open(f"{tmp}/fits.json"))
assert [f["fit"] for f in fits] == [1, 2] and [f["games"] for f in fits] == [2, 4], fits
assert all(f["ci95"] > 0 for f in fits) and fits[1]["rating"] > 0, fits   # greedy on top
rows = list(csv.DictReader(open(f"{tmp}/fits.csv", newline="")))
assert [int(r["games"]) for r in rows] == [2, 4] and rows[0]["at"] == fits[0]["at"], rows
PY

# A bot that never played: headers, no rows.
[ "$(A history idle --format json)" = "[]" ] || fail "an unplayed bot's JSON"
[ "$(A history idle --format csv | wc -l)" = 1 ] || fail "an unplayed bot's CSV"

# Errors: one line, exit 2.
for args in "nobody" "g --ladder nowhere" "g --format xml" "" "g --bogus 1"; do
  rc=0; A history $args >"$tmp/out" 2>"$tmp/err" || rc=$?
  [ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ] \
    || fail "history $args: exit $rc, $(cat "$tmp/err")"
done
grep -q "no ladder named 'nowhere'" <(A history g --ladder nowhere 2>&1) || fail "ladder error"
A history --help | grep -q "usage: arena history BOT" || fail "--help"
echo "test_arena_history: ok"
