#!/bin/sh
# bench.sh - decisions per second of the JS SDK against the C random bot,
# next to C-vs-C and the SDK-less raw-bot.js, on the same seeds. Run from the
# repo root after building: sh sdk/js/bench/bench.sh [GAMES] [ROUND_LIMIT]
games=${1:-20}; limit=${2:-100}
ref=build/referee/referee
bench() {
    label=$1; shift
    total=0; start=$(date +%s%N)
    for seed in $(seq 1 "$games"); do
        n=$($ref play --seed "$seed" --round-limit "$limit" --bot "$1" --bot "$2" \
             --record /tmp/bench-js.rec | sed -n 's/^decisions: \([0-9]*\).*/\1/p')
        total=$((total + n))
    done
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    echo "$label: $total decisions in $ms ms = $((total * 1000 / ms)) decisions/s"
}
bench "C  vs C " build/agents/random build/agents/random
bench "raw vs C" "node sdk/js/bench/raw-bot.js" build/agents/random
bench "SDK vs C" "node agents/js/random.js" build/agents/random
