#!/usr/bin/env bash
# Runs every test, in stages: the packages the tests need (install-deps.sh
# --test), a normal build and its suite (ctest), the lint, the unit tests
# under valgrind, the whole suite again under AddressSanitizer and
# UndefinedBehaviorSanitizer, each fuzz target (tests/fuzz) for a few
# seconds under libFuzzer, and last the short form of the container test
# (scripts/test-containers.sh: podman images, compose and kube play), as
# root. Every stage runs even when one before it failed (a stage that needs
# a failed one is skipped); the end is one line per stage, then the count.
# Exits non-zero when any stage failed.
# Usage: scripts/test.sh [--fast] [--long] [--no-containers]
#   --fast           skips the lint, valgrind, the sanitizers, the fuzzing
#                    and the containers;
#   --long           runs the long forms of the random-game properties (ten
#                    times the games; ARENA_TEST_LONG=1 for each test that has one);
#   --no-containers  skips the container test (so does ARENA_CONTAINERS=0).
set -euo pipefail
cd "$(dirname "$0")/.."
fast=0 containers=${ARENA_CONTAINERS:-1}
for arg in "$@"; do
  case $arg in
    --fast) fast=1 ;;
    --long) export ARENA_TEST_LONG=1 ;;
    --no-containers) containers=0 ;;
    *) echo "usage: scripts/test.sh [--fast] [--long] [--no-containers]" >&2; exit 2 ;;
  esac
done
jobs=$(nproc)

summary=() passed=0 failed=0 skipped=0
declare -A outcome
# stage NAME COMMAND...: runs COMMAND (a function or a program) under set -e
# in a subshell of its own, and records whether it passed and how long it took.
stage() {
  local name=$1 start=$SECONDS status
  shift
  echo "== test: $name"
  set +e
  (set -e; "$@")
  status=$?
  set -e
  if [ $status -eq 0 ]; then
    outcome[$name]=passed passed=$((passed + 1))
  else
    outcome[$name]=failed failed=$((failed + 1))
  fi
  summary+=("test: $name ${outcome[$name]} ($((SECONDS - start)) s)")
}
# skip NAME WHY
skip() {
  echo "== test: $1 skipped: $2"
  outcome[$1]=skipped skipped=$((skipped + 1))
  summary+=("test: $1 skipped ($2)")
}
# needs NAME STAGE...: runs stage NAME when every STAGE passed, else skips it.
needs() {
  local name=$1 s
  shift
  while [ "${1:-}" != -- ]; do
    s=$1
    shift
    [ "${outcome[$s]:-}" = passed ] || { skip "$name" "$s ${outcome[$s]:-did not run}"; return 0; }
  done
  shift
  stage "$name" "$@"
}

build() {
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j"$jobs"
}
sanitizers() {
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DARENA_SANITIZE=ON >/dev/null
  cmake --build build-asan -j"$jobs"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j"$jobs"
}
# libFuzzer comes with clang: its own build, of the fuzz targets only.
has_libfuzzer() {
  command -v clang >/dev/null &&
    echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' |
      clang -x c -fsanitize=fuzzer -o /dev/null - 2>/dev/null
}
fuzz() {
  CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DARENA_FUZZ=ON >/dev/null
  cmake --build build-fuzz --target fuzz -j"$jobs"
  ctest --test-dir build-fuzz -L fuzz --output-on-failure -j"$jobs"
}

stage deps scripts/install-deps.sh --test
stage build build
needs suite build -- ctest --test-dir build --output-on-failure -j"$jobs"
if [ $fast = 1 ]; then
  for s in lint valgrind sanitizers fuzz containers; do skip $s --fast; done
else
  stage lint scripts/lint.sh
  needs valgrind build -- scripts/valgrind.sh build
  stage sanitizers sanitizers
  if has_libfuzzer; then
    stage fuzz fuzz
  else
    skip fuzz "no clang with libFuzzer here (scripts/install-deps.sh --test installs clang and libclang-rt-14-dev); the suite replayed the corpora"
  fi
  if [ "$containers" = 0 ]; then
    skip containers "--no-containers or ARENA_CONTAINERS=0"
  elif [ "$(id -u)" -ne 0 ]; then
    skip containers "needs root (rootful podman)"
  else
    stage containers scripts/test-containers.sh --short
  fi
fi

echo
printf '%s\n' "${summary[@]}"
echo "stages: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
