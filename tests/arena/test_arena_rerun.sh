#!/usr/bin/env bash
# arena rerun through the real arena, referee and bots: a bot that chooses
# differently the second time is named, with its seat and the decision where
# the rerun first differs; a bot printing its ARENA_BOT_SEED sees the same
# value on the rerun as in the tournament.
# Usage: test_arena_rerun.sh ARENA RANDOM REPO
set -euo pipefail
arena=$1 random=$2 repo=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-rerun-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"
A() { "$arena" --db "$tmp/a.db" "$@"; }

# The first action of each request; the last one once $tmp/second exists.
cat > "$tmp/fickle.py" <<PY
import os, sys
sys.path.insert(0, "$repo/sdk/python")
import arena_bot
print("seed", os.environ.get("ARENA_BOT_SEED"), file=sys.stderr, flush=True)
second = os.path.exists("$tmp/second")
arena_bot.run(lambda r: r.actions[-1] if second else r.actions[0], name="fickle")
PY
A bot add fickle --no-test --cmd "/usr/bin/python3 $tmp/fickle.py" >/dev/null
A bot add random --no-test --cmd "$random" >/dev/null
A tournament --games 2 --concurrency 1 --memory-mb 0 --quiet fickle random

for id in 1 2; do
  A rerun $id --logs >"$tmp/out" || fail "rerun of an unchanged bot differs: $(cat "$tmp/out")"
  grep -q "^identical to the stored match" "$tmp/out" || fail "$(cat "$tmp/out")"
  then=$(A match $id --logs | grep '^seed ')
  now=$(grep '^seed ' "$tmp/out")
  [[ "$then" =~ ^seed\ [0-9]+$ ]] || fail "no ARENA_BOT_SEED in match $id's log: '$then'"
  [ "$now" = "$then" ] || fail "ARENA_BOT_SEED differs on rerun $id: '$then' then, '$now' now"
  echo "$now" >>"$tmp/seeds"
done
[ "$(sort -u "$tmp/seeds" | wc -l)" -eq 2 ] || fail "both seats got one seed: $(cat "$tmp/seeds")"

touch "$tmp/second"
for id in 1 2; do
  seat=$(A matches --format csv | awk -F, -v id=$id '$1 == id { split($4, b, " ");
         print b[1] == "fickle" ? 0 : 1 }')
  rc=0; A rerun $id >"$tmp/out" || rc=$?
  [ "$rc" -eq 1 ] || fail "rerun $id of a changed bot: exit $rc: $(cat "$tmp/out")"
  grep -q "^different from the stored match" "$tmp/out" || fail "$(cat "$tmp/out")"
  grep -Eq "^decision #[0-9]+ differs first: seat $seat \(fickle\) chose '.+', stored '.+'$" \
    "$tmp/out" || fail "rerun $id does not name seat $seat's fickle: $(cat "$tmp/out")"
done
echo "rerun: the first differing decision is named with its seat and bot; seeds agree"
