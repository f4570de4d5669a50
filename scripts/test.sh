#!/usr/bin/env bash
# Runs every test: a normal build; then the unit tests under valgrind, and
# the whole suite again under AddressSanitizer and UndefinedBehaviorSanitizer.
# Usage: scripts/test.sh [--fast]   (--fast skips valgrind and sanitizers.)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc)

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"

if [ "${1:-}" != "--fast" ]; then
  scripts/valgrind.sh build
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DARENA_SANITIZE=ON >/dev/null
  cmake --build build-asan -j"$jobs"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    WC_TEST_GAMES=${WC_TEST_GAMES_ASAN:-3000} \
    ctest --test-dir build-asan --output-on-failure -j"$jobs"
fi
