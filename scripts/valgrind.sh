#!/usr/bin/env bash
# Runs the unit-level test programs under valgrind (memcheck); any error or
# leak fails. Usage: scripts/valgrind.sh BUILD_DIR
# Each program gets at most VALGRIND_TIMEOUT seconds (default 900): a hang
# fails its run instead of the whole CI job. The logs go to a folder of this
# run's own, printed at the start.
set -euo pipefail
build=${1:-build}
limit=${VALGRIND_TIMEOUT:-900}
logs=$(mktemp -d "${TMPDIR:-/tmp}/valgrind.XXXXXX")
echo "valgrind: logs in $logs"
fail=0
run() {
  local name=$1; shift
  if timeout -k 10 "$limit" valgrind -q --error-exitcode=99 --leak-check=full \
       --errors-for-leak-kinds=definite "$@" >"$logs/$name.log" 2>&1; then
    echo "valgrind: $name clean"
  else
    local rc=$?
    [ $rc = 124 ] && echo "valgrind: $name still running after $limit s" >>"$logs/$name.log"
    echo "valgrind: $name FAILED (see $logs/$name.log)"; tail -30 "$logs/$name.log"
    fail=1
  fi
}
export WC_TEST_GAMES=200
for t in "$build"/games/*/tests/test_*; do   # every game's own tests
  [ -x "$t" ] && run "$(basename "$t")" "$t"
done
run test_games "$build/games/tests/test_games"
run test_hidden_messages "$build/tests/protocol/test_hidden_messages"
run test_roundtrip "$build/tests/protocol/test_roundtrip"
run test_ratings "$build/ratings/test_ratings"
for t in test_arena_db test_arena_read test_arena_plan; do
  [ -x "$build/tests/arena/$t" ] && run "$t" "$build/tests/arena/$t"
done
run test_arena_seats "$build/tests/arena/test_arena_seats"
run test_arena_migrate "$build/tests/arena/test_arena_migrate" tests/arena/fixtures/schema1/arena.db \
  tests/arena/fixtures/schema13/arena.db
[ -x "$build/tests/referee/proc/test_ref_cmd" ] && run test_ref_cmd "$build/tests/referee/proc/test_ref_cmd"
run test_search "$build/tests/agents/test_search"
corpus=$(dirname "$0")/../tests/fuzz/corpus
for t in "$build"/tests/fuzz/fuzz_*; do
  name=$(basename "$t")
  run "$name" "$t" "$corpus/${name#fuzz_}"
done
run referee_match "$build/referee/referee" play --seed 3 --bot "$build/agents/greedy" --bot "$build/agents/random"
run ismcts_bench "$build/agents/ismcts" --bench --playouts 100
# A match of every game, its default options, between random bots.
for game in $("$build/referee/referee" games | awk '{print $1}'); do
  run "referee_$game" "$build/referee/referee" play --game "$game" --seed 3 \
      --bot "$build/agents/random" --bot "$build/agents/random"
done
run test_jw "$build/tests/web/test_jw"
run test_store "$build/tests/store/test_store"
run test_ref_cache "$build/tests/referee/test_ref_cache"
run test_ref_blame "$build/tests/referee/test_ref_blame"
run test_gw_proto "$build/tests/gateway/test_gw_proto"
# The gateway under valgrind (and the checks it forks) while participants
# and hostile archives hit it.
if GATEWAY_WRAPPER="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite" \
   timeout -k 10 "$limit" tests/arena/test_arena_gateway.sh "$build/arena/arena" \
   "$build/tests/arena/arena_e2e_sql" >"$logs/gateway.log" 2>&1; then
  echo "valgrind: arena gateway clean"
else
  echo "valgrind: arena gateway FAILED (see $logs/gateway.log)"; tail -30 "$logs/gateway.log"
  fail=1
fi
# The web server under valgrind while the HTTP tests hit every route.
if WEB_SERVER_WRAPPER="valgrind -q --max-threads=600 --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite" \
   timeout -k 10 "$limit" tests/web/test_web.sh "$build/arena/arena" "$build/referee/referee" "$build/agents/random" \
   "$build/agents/greedy" "$build/tests/web/screenshots" http >"$logs/web.log" 2>&1; then
  echo "valgrind: arena serve clean"
else
  echo "valgrind: arena serve FAILED (see $logs/web.log)"; tail -30 "$logs/web.log"
  fail=1
fi
exit $fail
