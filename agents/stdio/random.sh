#!/usr/bin/env bash
# random.sh - a bot for any game, in bash, through the stdin/stdout bridge:
#     sdk/stdio/arena-stdio -- bash agents/stdio/random.sh
# Bash has no JSON parser, but it needs none to play at random: each action
# in a request line carries an "index" key, so counting them gives the number
# of choices. Seeded from ARENA_BOT_SEED (default 1), so a match replays.
RANDOM=${ARENA_BOT_SEED:-1}
while IFS= read -r line; do
    case $line in
    '{"type":"request"'*)
        n=$(grep -o '"index":' <<<"$line" | wc -l)
        echo $((RANDOM % n)) ;;
    esac                  # other lines (with --all) need no answer
done
