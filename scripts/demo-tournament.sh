#!/usr/bin/env bash
# The main job's tournament: every sample bot that can run here, a
# round-robin of seed-paired games in parallel, then the leaderboard.
# The database is build/demo.db, made afresh each time.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
db=build/demo.db
rm -f "$db" "$db-wal" "$db-shm"
arena() { build/arena/arena --db "$db" "$@"; }

arena bot add greedy --cmd "$root/build/agents/greedy" --version 1.0 >/dev/null
arena bot add random --cmd "$root/build/agents/random" --version 1.0 >/dev/null
if [ -f sdk/python/arena_bot/__init__.py ]; then
  arena bot add py-greedy --cmd "/usr/bin/python3 $root/agents/python/greedy_bot.py" --version 1.0 >/dev/null
fi
if [ -d sdk/js/node_modules ] && command -v node >/dev/null; then
  arena bot add js-random --cmd "node $root/agents/js/random.js" --version 1.0 >/dev/null
fi
if [ -x sdk/stdio/arena-stdio ]; then
  arena bot add awk-first --cmd "$root/sdk/stdio/arena-stdio -- awk -f $root/agents/stdio/first.awk" --version 1.0 >/dev/null
fi
echo "bots:"
arena bot list
echo
arena tournament --format round-robin --games "${DEMO_GAMES:-10}" --seed 2026
echo
arena crosstable
