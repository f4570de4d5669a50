#!/usr/bin/env bash
# Runs the unit-level test programs under valgrind (memcheck); any error or
# leak fails. Usage: scripts/valgrind.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
fail=0
run() {
  local name=$1; shift
  if valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
       "$@" >/tmp/valgrind-$name.log 2>&1; then
    echo "valgrind: $name clean"
  else
    echo "valgrind: $name FAILED (see /tmp/valgrind-$name.log)"; tail -30 /tmp/valgrind-$name.log
    fail=1
  fi
}
export WC_TEST_GAMES=200
for t in "$build"/tests/warchest/test_wc_*; do run "$(basename "$t")" "$t"; done
run test_hidden_messages "$build/tests/protocol/test_hidden_messages"
run test_ratings "$build/ratings/test_ratings"
[ -x "$build/tests/arena/test_arena_db" ] && run test_arena_db "$build/tests/arena/test_arena_db"
run test_arena_seats "$build/tests/arena/test_arena_seats"
run test_arena_migrate "$build/tests/arena/test_arena_migrate" tests/arena/fixtures/schema1/arena.db
[ -x "$build/tests/referee/proc/test_ref_cmd" ] && run test_ref_cmd "$build/tests/referee/proc/test_ref_cmd"
run test_search "$build/tests/agents/test_search"
run referee_match "$build/referee/referee" play --seed 3 --bot "$build/agents/greedy" --bot "$build/agents/random"
run ismcts_bench "$build/agents/ismcts" --bench --playouts 100
exit $fail
