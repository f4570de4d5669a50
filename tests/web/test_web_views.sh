#!/usr/bin/env bash
# test_web_views.sh - every seat view hides every other seat, seat 0
# included. Hand-made matches (seat_view make: a fixed policy that takes a
# hidden action whenever one is legal: War Chest coins face down and
# recruits, every Goofspiel bid) of War Chest with 2 and 4 seats and
# Goofspiel with 2 and 3 are stored in a real database (in place of the
# records of a real tournament's matches, same game, options and seed) and
# served by a real `arena serve`. For every match and every seat K, 0 as
# well as the others, /api/matches/ID?view=K must give:
#   - each state byte for byte as the game's own view of it for seat K
#     (game_api.write_json, which writes from the game's observation;
#     both sides parsed and written again compactly, keys in order), and
#   - each decision's action as K saw it (another seat's in public_view
#     form), revealed from the step the game first shows it whole, as
#     seat_view expect computes them from the engine alone.
# And every K must have had something to hide from it (the test has teeth
# for each), which the full view shows whole.
#   test_web_views.sh ARENA RANDOM SEAT_VIEW
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 ARENA RANDOM SEAT_VIEW" >&2; exit 2; }
ARENA=$(readlink -f "$1") RANDOM_BOT=$(readlink -f "$2") SEAT_VIEW=$(readlink -f "$3")
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(mktemp -d "${TMPDIR:-/tmp}/arena-views.XXXXXX")
SERVER=
cleanup() {
  [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$ROOT"
}
trap cleanup EXIT
cd "$ROOT"

A() { "$ARENA" --db "$ROOT/arena.db" "$@"; }
for b in r0 r1 r2 r3; do A bot add $b --no-test --cmd "$RANDOM_BOT" >/dev/null; done
A tournament --games 2 --memory-mb 0 --quiet r0 r1
A tournament --format teams --games 2 --memory-mb 0 --quiet r0 r1 r2 r3
A tournament --game goofspiel --cards 5 --games 2 --memory-mb 0 --quiet r0 r1
A tournament --game goofspiel --players 3 --format free-for-all --cards 5 --games 3 \
  --memory-mb 0 --quiet r0 r1 r2

# Each match's record replaced by a hand-made one of the same game.
python3 - "$ROOT/arena.db" "$SEAT_VIEW" "$ROOT" <<'PY'
import sqlite3, subprocess, sys
db, seat_view, root = sys.argv[1:4]
con = sqlite3.connect(db)
# One match of each kind (game, seats) is enough; the others keep their own.
for mid, record in con.execute("SELECT id, record FROM matches WHERE id IN"
                               " (SELECT min(id) FROM matches GROUP BY game, seats)").fetchall():
    src, made = f"{root}/real{mid}.txt", f"{root}/made{mid}.txt"
    open(src, "w").write(record)
    subprocess.run([seat_view, "make", src, made], check=True)
    con.execute("UPDATE matches SET record = ? WHERE id = ?", (open(made).read(), mid))
con.commit()
PY

. "$HERE/serve.sh"
serve "$ROOT/arena.db" "$ROOT/serve.out"

python3 - "$URL" "$ROOT" "$SEAT_VIEW" <<'PY'
import glob, json, re, subprocess, sys, urllib.error, urllib.request
url, root, seat_view = sys.argv[1:4]
def get(path):
    try:
        with urllib.request.urlopen(url + path, timeout=30) as r:
            return json.load(r)
    except urllib.error.HTTPError as e:
        sys.exit(f"GET {path}: {e.code} {e.read().decode(errors='replace')}")
def canon(v):
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)
kinds = set()
made = sorted(int(re.search(r"made(\d+)", p).group(1)) for p in glob.glob(f"{root}/made*.txt"))
assert len(made) == 4, made
for mid in made:
    full = get(f"/api/matches/{mid}")
    seats = len(full["seats"])
    kinds.add((full["game"], seats))
    for k in range(seats):
        web = get(f"/api/matches/{mid}?view={k}")
        want = json.loads(subprocess.run([seat_view, "expect", f"{root}/made{mid}.txt", str(k)],
                                         check=True, capture_output=True, text=True).stdout)
        where = f"match {mid} ({seats} seats) view={k}"
        assert web["view"] == k, where
        assert len(web["states"]) == len(want["states"]), where
        for i, (got, exp) in enumerate(zip(web["states"], want["states"])):
            assert canon(got) == canon(exp), \
                f"{where}: state {i} is not seat {k}'s own view:\n web  {canon(got)}\n game {canon(exp)}"
        assert len(web["decisions"]) == len(want["decisions"]), where
        hidden = 0
        for i, (got, exp) in enumerate(zip(web["decisions"], want["decisions"])):
            seen = {key: got[key] for key in ("seat", "action", "revealed")}
            assert seen == {key: exp[key] for key in ("seat", "action", "revealed")}, \
                f"{where}: decision {i} shows {seen}, seat {k} saw {exp}"
            if exp["hidden"]:
                hidden += 1
                # The full view has it whole: something the seat view hid.
                whole = full["decisions"][i]["action"]
                assert whole != got["action"], f"{where}: decision {i} was not hidden"
                assert full["decisions"][i]["revealed"] is None, where
        assert hidden > 0, f"{where}: no hidden action of another seat: the test proves nothing"
        # The full view is no seat's: the states differ from this seat's.
        assert any(canon(a) != canon(b) for a, b in zip(full["states"], web["states"])), where
assert kinds == {("warchest", 2), ("warchest", 4), ("goofspiel", 2), ("goofspiel", 3)}, kinds
print("seat views checked:", sorted(kinds))
PY
kill -TERM "$SERVER"
wait "$SERVER"
SERVER=
