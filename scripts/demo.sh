#!/usr/bin/env bash
# Sets everything up and runs the main job: a demo tournament of the sample
# bots, ending in a leaderboard. Safe to re-run; the demo database is
# recreated each time.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
if [ -x build/arena/arena ]; then
  exec scripts/demo-tournament.sh
fi
# Until the arena lands: a seed-paired mini match of the sample bots.
wins_greedy=0; wins_random=0; draws=0
for seed in 1 2 3 4 5; do
  for order in "greedy random" "random greedy"; do
    set -- $order
    line=$(build/referee/referee play --seed "$seed" --bot "build/agents/$1" --bot "build/agents/$2" | head -1)
    score=${line#result: }; score=${score%% *}
    case "$score" in
      1-0) [ "$1" = greedy ] && wins_greedy=$((wins_greedy+1)) || wins_random=$((wins_random+1)) ;;
      0-1) [ "$2" = greedy ] && wins_greedy=$((wins_greedy+1)) || wins_random=$((wins_random+1)) ;;
      *) draws=$((draws+1)) ;;
    esac
  done
done
printf '%-8s %5s %5s %5s\n' bot wins losses draws
printf '%-8s %5d %5d %5d\n' greedy "$wins_greedy" "$wins_random" "$draws"
printf '%-8s %5d %5d %5d\n' random "$wins_random" "$wins_greedy" "$draws"
