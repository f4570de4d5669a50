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

PYTHONPATH=$HERE PYTHONDONTWRITEBYTECODE=1 python3 - "$URL" "$ROOT" "$SEAT_VIEW" <<'PY'
import glob, json, re, subprocess, sys
from web_get import canon, getter
url, root, seat_view = sys.argv[1:4]
get = getter(url)
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

# The same matches in play: each one's record cut after half its decisions
# (as a worker's `progress` carries it: the result lines say nothing yet)
# in a row of matches_playing, as an arena's beat writes it. Each seat's
# view of it must be byte for byte the game's own for that record so far,
# the same as the finished match's first steps (nothing shown that the
# finished one hides at that step); then, stored, the same id serves the
# finished match.
PYTHONPATH=$HERE PYTHONDONTWRITEBYTECODE=1 python3 - "$URL" "$ROOT" "$SEAT_VIEW" "$ROOT/arena.db" <<'PY'
import glob, json, re, sqlite3, subprocess, sys, time
from web_get import canon, getter
url, root, seat_view, db = sys.argv[1:5]
BASE = 2 ** 52 + 1000     # above the rows the tournaments' arenas left (2^52 and up)
get = getter(url)
con = sqlite3.connect(db)
now = int(time.time() * 1000)
made = sorted(int(re.search(r"made(\d+)", p).group(1)) for p in glob.glob(f"{root}/made*.txt"))
for mid in made:
    lines = open(f"{root}/made{mid}.txt").read().split("\n")
    decisions = [i for i, l in enumerate(lines) if l.startswith("decision ")]
    cut = len(decisions) // 2
    so_far = "\n".join(lines[:decisions[cut]]) + \
        "\nresult" + " 0" * len([l for l in lines if l.startswith("bot ")]) + \
        "\nreason \nculprit -\ndetail \nhash 0000000000000000\n"
    open(f"{root}/so_far{mid}.txt", "w").write(so_far)
    t, game, options, seed = con.execute(
        "SELECT tournament_id, game, options, seed FROM matches WHERE id = ?", (mid,)).fetchone()
    bots = " ".join(str(b) for (b,) in con.execute(
        "SELECT bot_id FROM match_seats WHERE match_id = ? ORDER BY seat", (mid,)))
    con.execute("INSERT INTO matches_playing(id, owner, job, tournament_id, game, options, seed, bots,"
                " started_ms, seen_ms, running, record) VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)",
                (BASE + mid, mid, t, game, options, seed, bots, now, now, so_far))
con.commit()
live = [p["id"] for p in get("/api/live")["playing"]]
assert sorted(live) == [BASE + m for m in made], live
for mid in made:
    pid = BASE + mid
    full = get(f"/api/matches/{pid}")
    assert full["playing"] is True and full["id"] == pid, full.get("id")
    cut = len(full["decisions"])
    assert cut > 0 and len(full["states"]) == cut + 1
    for k in range(len(full["seats"])):
        where = f"match {mid} in play, view={k}"
        web = get(f"/api/matches/{pid}?view={k}")
        want = json.loads(subprocess.run([seat_view, "expect", f"{root}/so_far{mid}.txt", str(k)],
                                         check=True, capture_output=True, text=True).stdout)
        assert web["playing"] is True and web["view"] == k, where
        assert [canon(s) for s in web["states"]] == [canon(s) for s in want["states"]], \
            f"{where}: the states are not seat {k}'s own view of the match so far"
        for i, (got, exp) in enumerate(zip(web["decisions"], want["decisions"], strict=True)):
            seen = {key: got[key] for key in ("seat", "action", "revealed")}
            assert seen == {key: exp[key] for key in ("seat", "action", "revealed")}, \
                f"{where}: decision {i} shows {seen}, seat {k} saw {exp}"
        # no more than the finished match's view showed at those steps
        done = get(f"/api/matches/{mid}?view={k}")
        assert [canon(s) for s in web["states"]] == [canon(s) for s in done["states"][:cut + 1]], where
        for got, fin in zip(web["decisions"], done["decisions"]):
            assert got["action"] == fin["action"], where
            assert got["revealed"] is None or got["revealed"] == fin["revealed"], where
        assert all(d["log"] is None for d in web["decisions"]) and web["logs"] == [], where
# A match with a remote bot: its participant reads this web, so no view of
# it while it plays (each shows some seat's hidden holdings); once it ends,
# as any other.
first = made[0]
remote = con.execute("SELECT bot_id FROM match_seats WHERE match_id = ? AND seat = 1",
                     (first,)).fetchone()[0]
con.execute("INSERT INTO remote_bots(bot_id) VALUES (?)", (remote,))
con.commit()
for q in ("", "?view=0", "?view=1"):
    hid = get(f"/api/matches/{BASE + first}{q}")
    assert hid["playing"] is True and "decisions" not in hid and "states" not in hid and \
        "remote bot" in hid["unavailable"], (q, str(hid)[:300])
assert "decisions" in get(f"/api/matches/{first}?view=0")
con.execute("DELETE FROM remote_bots WHERE bot_id = ?", (remote,))
con.commit()
# A worker's record so far of another match (its seed) is not shown as this one.
other = made[0]
con.execute("INSERT INTO matches_playing(id, owner, job, tournament_id, game, options, seed, bots,"
            " started_ms, seen_ms, running, record) SELECT ?, 2, job, tournament_id, game, options,"
            " seed + 1, bots, started_ms, seen_ms, 1, record FROM matches_playing WHERE id = ?",
            (BASE + 999, BASE + other))
con.commit()
lie = get(f"/api/matches/{BASE + 999}?view=0")
assert lie["playing"] is True and "decisions" not in lie and "another match" in lie["unavailable"], lie
con.execute("DELETE FROM matches_playing WHERE id = ?", (BASE + 999,))
# Stored: the same id serves the finished match, and it is no longer in play.
con.execute("UPDATE matches_playing SET match_id = job, running = 0, seen_ms = ? WHERE owner = 1",
            (int(time.time() * 1000),))
con.commit()
for mid in made:
    assert get(f"/api/matches/{BASE + mid}?view=0") == get(f"/api/matches/{mid}?view=0"), mid
assert get("/api/live")["playing"] == []
print("matches in play: seat views checked against the game's own")
PY
kill -TERM "$SERVER"
wait "$SERVER"
SERVER=
