#!/usr/bin/env bash
# Runs every test: a normal build; then the unit tests under valgrind, the
# whole suite again under AddressSanitizer and UndefinedBehaviorSanitizer,
# and each fuzz target (tests/fuzz) for a few seconds under libFuzzer.
# Last, the short form of the container test (scripts/test-containers.sh:
# podman images, compose and kube play), as root.
# Usage: scripts/test.sh [--fast] [--long]
#   --fast  skips valgrind, the sanitizers, the fuzzing and the containers
#           (ARENA_CONTAINERS=0 skips the containers alone);
#   --long  runs the long forms of the random-game properties (ten times
#           the games; ARENA_TEST_LONG=1 for each test that has one).
set -euo pipefail
cd "$(dirname "$0")/.."
fast=0
for arg in "$@"; do
  case $arg in
    --fast) fast=1 ;;
    --long) export ARENA_TEST_LONG=1 ;;
    *) echo "usage: scripts/test.sh [--fast] [--long]" >&2; exit 2 ;;
  esac
done
scripts/install-deps.sh
jobs=$(nproc)

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"

if [ $fast = 0 ]; then
  scripts/lint.sh
  scripts/valgrind.sh build
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DARENA_SANITIZE=ON >/dev/null
  cmake --build build-asan -j"$jobs"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j"$jobs"

  # libFuzzer comes with clang: its own build, of the fuzz targets only.
  if command -v clang >/dev/null &&
     echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' |
       clang -x c -fsanitize=fuzzer -o /dev/null - 2>/dev/null; then
    CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DARENA_FUZZ=ON >/dev/null
    cmake --build build-fuzz --target fuzz -j"$jobs"
    ctest --test-dir build-fuzz -L fuzz --output-on-failure -j"$jobs"
  else
    echo "test: no clang with libFuzzer here; the fuzz targets only replayed their corpora" \
         "(scripts/install-deps.sh installs clang and libclang-rt-14-dev)"
  fi
fi

if [ "$fast" = 0 ] && [ "${ARENA_CONTAINERS:-1}" != 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    scripts/test-containers.sh --short
  else
    echo "test.sh: container test skipped: it needs root (rootful podman)"
  fi
fi
