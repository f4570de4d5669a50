#!/usr/bin/env bash
# test_demo.sh - the demo's tournament (scripts/demo-tournament.sh, which
# scripts/demo.sh ends with), 2 games a pairing in a database of its own:
# every sample bot plays, the search bots among them, and the next steps it
# prints work as printed: the web on the demo's database answers with every
# bot's games, `standings` lists them. The README's web command is the
# line the demo prints with its default database.
#   test_demo.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
SRC=$(readlink -f "$1") BUILD=$(readlink -f "$2")
OUT=$(mktemp -d "${TMPDIR:-/tmp}/arena-demo.XXXXXX")
SERVER=
cleanup() {
  [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$OUT"
}
trap cleanup EXIT
. "$(dirname "$0")/../lib.sh"
cd "$SRC"

DEMO_BUILD=$BUILD DEMO_DB=$OUT/demo.db DEMO_GAMES=2 scripts/demo-tournament.sh >"$OUT/demo.out" 2>&1 ||
  { cat "$OUT/demo.out"; fail "the demo failed"; }
grep -qxF "Next: the demo's database is $OUT/demo.db; the arena's commands take it with --db." "$OUT/demo.out" ||
  { cat "$OUT/demo.out"; fail "the demo did not end with its next steps on its database"; }
# A printed command: the line that ends with $1.
printed() { sed -n "s/^  \(.* $1\)\$/\1/p" "$OUT/demo.out"; }
serve=$(printed serve) standings=$(printed standings)
# (Paths inside the repository are printed from its root.)
[ "$serve" = "${BUILD#"$SRC/"}/arena/arena --db $OUT/demo.db serve" ] || fail "the web's line: '$serve'"
grep -qF "build/arena/arena --db build/demo.db serve" README.md ||
  fail "README.md does not show the demo's web command (build/arena/arena --db build/demo.db serve)"

bots=$("$BUILD/arena/arena" --db "$OUT/demo.db" bot list --format csv | tail -n +2 | grep -c .)
[ "$bots" -ge 5 ] || fail "$bots bots played"
eval "$standings" >"$OUT/standings.out" || fail "'$standings' failed"
for bot in greedy random ismcts pimc py-greedy; do
  grep -qE "^ +[0-9]+ +$bot " "$OUT/standings.out" || { cat "$OUT/standings.out"; fail "$bot is not in the standings"; }
done

# The web, as printed (on an ephemeral port): every bot, each with its
# 2 games against every other.
eval "exec $serve --listen 127.0.0.1:0" >"$OUT/serve.out" 2>&1 &
SERVER=$!
for _ in $(seq 300); do
  grep -q 'http://' "$OUT/serve.out" && break
  kill -0 "$SERVER" 2>/dev/null || { cat "$OUT/serve.out"; fail "the web did not start"; }
  sleep 0.1
done
url=$(grep -o 'http://[0-9.:]*' "$OUT/serve.out") || fail "the web printed no address"
/usr/bin/python3 - "$url/api/standings" "$bots" <<'PY' || fail "the web's standings"
import json, sys, urllib.request
rows = json.load(urllib.request.urlopen(sys.argv[1], timeout=10))["standings"]
bots = int(sys.argv[2])
assert len(rows) == bots, f"{len(rows)} rows, {bots} bots"
for r in rows:
    assert r["games"] == 2 * (bots - 1), f"{r['bot']}: {r['games']} games"
PY
