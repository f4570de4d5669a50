#!/usr/bin/env bash
# Sets everything up and runs the main job: a demo tournament of the sample
# bots, ending in a leaderboard and what to do next. Installs only what the
# build and the sample bots need (scripts/install-deps.sh; scripts/test.sh
# installs the rest), builds only the programs the demo runs. Safe to
# re-run; the demo database, build/demo.db, is recreated each time.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "demo: checking the Debian and npm packages the build and the bots need"
scripts/install-deps.sh
echo "demo: building the referee, the arena and the sample bots into build/"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
mkdir -p build
cmake --build build -j"$(nproc)" --target arena referee arena-bot-init agent_random agent_greedy agent_ismcts agent_pimc \
  >build/demo-build.log 2>&1 ||
  { tail -n 30 build/demo-build.log >&2; echo "demo: the build failed (build/demo-build.log)" >&2; exit 1; }
exec scripts/demo-tournament.sh
