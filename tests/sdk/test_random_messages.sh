#!/usr/bin/env bash
# test_random_messages.sh - the Python and JavaScript SDKs decode the
# referee's messages of random War Chest games field by field.
#
#   test_random_messages.sh RANDOM_MESSAGES SOURCE_DIR
#
# ARENA_SEED (default 18) and ARENA_GAMES (default 12: four of each shape)
# choose the games; a failure names the seed, so it can be replayed.
set -euo pipefail
gen=$1 src=$2
seed=${ARENA_SEED:-18} games=${ARENA_GAMES:-12}
dir=$(mktemp -d "${TMPDIR:-/tmp}/sdk-random-XXXXXX")
trap 'rm -rf "$dir"' EXIT
"$gen" "$seed" "$games" "$dir/messages.bin"
fail() { echo "test_random_messages: $1 fails on seed $seed, $games games" >&2; exit 1; }
/usr/bin/python3 "$src/sdk/python/tests/random_messages.py" "$dir/messages.bin" || fail python
command -v node >/dev/null || { echo "test_random_messages: node is not installed" >&2; exit 1; }
node "$src/sdk/js/test/random-messages.js" "$dir/messages.bin" || fail javascript
