#!/usr/bin/env bash
# The main job's tournament: every sample bot that can run here, a
# round-robin of seed-paired games in parallel, then the leaderboard and
# what to do next. The database is build/demo.db, made afresh each time.
# DEMO_BUILD=DIR: another build folder; DEMO_DB=FILE: another database;
# DEMO_GAMES=N: games a pairing (tests/scripts/test_demo.sh sets all three).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${DEMO_BUILD:-build}
build=${build#"$root/"}          # shown relative to the repository when inside it
case $build in /*) bin=$build ;; *) bin=$root/$build ;; esac
db=${DEMO_DB:-$build/demo.db}
rm -f "$db" "$db-wal" "$db-shm"
arena() { "$build/arena/arena" --db "$db" "$@"; }
add() { arena bot add "$1" --cmd "$2" --version 1.0 >/dev/null; }

echo "demo: registering the sample bots (each plays a test match first)"
add greedy "$bin/agents/greedy"
add random "$bin/agents/random"
# The search bots, at a small fixed budget so that the demo stays short
# (agents/README.md: their strength grows with --playouts or --ms).
add ismcts "$bin/agents/ismcts --playouts 200"
add pimc "$bin/agents/pimc --playouts 8"
if [ -f sdk/python/arena_bot/__init__.py ]; then
  add py-greedy "/usr/bin/python3 $root/agents/python/greedy_bot.py"
fi
if [ -d sdk/js/node_modules ] && command -v node >/dev/null; then
  add js-random "node $root/agents/js/random.js"
fi
if [ -x sdk/stdio/arena-stdio ]; then
  add awk-first "$root/sdk/stdio/arena-stdio -- awk -f $root/agents/stdio/first.awk"
fi
echo "bots:"
arena bot list
echo
games=${DEMO_GAMES:-6}
echo "demo: a round-robin, $games games a pairing, a match at a time per core"
arena tournament --format round-robin --games "$games" --seed 2026
echo
arena crosstable
A="$build/arena/arena --db $db"
echo
echo "Next: the demo's database is $db; the arena's commands take it with --db."
printf '  %s\n      %s\n' \
  "$A serve" "the web: leaderboard, bot pages, replays, at http://127.0.0.1:8080/" \
  "$A standings" "the table again; also crosstable, matches, match 1 --logs" \
  "$A tournament greedy ismcts" "more games between two of them, into the same standings"
echo "  Write a bot: README.md, \"Write your first bot\" (Python, JavaScript, C, or any language"
echo "  over stdin/stdout); sdk/PROTOCOL.md is the whole contract; agents/ has the samples."
echo "  Every test: scripts/test.sh (it installs more, and as root runs containers: README.md)."
