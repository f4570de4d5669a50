#!/usr/bin/env bash
# test_arena_bench_remote.sh - `arena bench --remote` end to end: as root,
# one row for 1, 2 and 4 workers (local and namespaced matches a minute,
# their ratio), and none of its namespaces or veth links left after it;
# without root it says it skipped (exit 77 here). Bad arguments: one line,
# non-zero. The numbers are the bench's to print, not this test's to judge.
#
# usage: test_arena_bench_remote.sh ARENA
set -euo pipefail
ARENA=$(readlink -f "$1")
# shellcheck source=../lib.sh
. "$(dirname "$(readlink -f "$0")")/../lib.sh"
CURRENT=bench_remote

rc=0
out=$("$ARENA" bench --remote --games 3 2>&1) || rc=$?
[ "$rc" -ne 0 ] && [ "$(wc -l <<<"$out")" -eq 1 ] || fail "--games 3 accepted or unclear: $out"

out=$("$ARENA" bench --remote --games 2 2>/dev/null) || fail "the bench failed: $out"
if grep -q "skipped" <<<"$out"; then
  [ "$(id -u)" -ne 0 ] || [ ! -x "$(command -v ip)" ] || grep -q "cannot make" <<<"$out" ||
    fail "skipped as root: $out"
  echo "SKIP: $out"
  exit 77
fi
[ "$(grep -cE '^[124] +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ to +[0-9.]+$' <<<"$out")" -eq 3 ] ||
  fail "expected a row for 1, 2 and 4 workers: $out"
! ip netns list | grep -q "^arbench" || fail "namespaces left: $(ip netns list)"
! ip link | grep -q " vbh[0-9]*x" || fail "veth links left: $(ip link | grep vbh)"
note "$(tail -3 <<<"$out" | tr -s ' ' | tr '\n' ';')"
echo "test_arena_bench_remote: passed"
