#!/usr/bin/env bash
# Sets everything up and runs the main job: a demo tournament of the sample
# bots, ending in a leaderboard. Safe to re-run; the demo database is
# recreated each time.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
exec scripts/demo-tournament.sh
