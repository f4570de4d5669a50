#!/usr/bin/env bash
# Decisions per second for a Python bot and a JavaScript bot against the C
# random bot, beside C against C, all in one run: the SDK bots, and bare
# ZeroMQ + msgpack bots in the same language (the raw round trip floor).
# Rounds interleave the configurations so machine noise hits them alike.
# Usage: scripts/bench-sdk.sh [SEEDS]   (default 10 seeds per configuration)
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-10}
ref=build/referee/referee
c_bot=build/agents/random
declare -A bot=(
  [c]="$c_bot"
  [py-sdk]="/usr/bin/python3 agents/python/random_bot.py"
  [py-raw]="/usr/bin/python3 sdk/python/bench/raw_bot.py"
  [js-sdk]="node agents/js/random.js"
  [js-raw]="node sdk/js/bench/raw-bot.js"
)
order=(c py-sdk py-raw js-sdk js-raw)
declare -A decisions seconds
for k in "${order[@]}"; do decisions[$k]=0; seconds[$k]=0; done
for seed in $(seq 1 "$seeds"); do
  for k in "${order[@]}"; do
    line=$($ref play --seed "$seed" --round-limit 300 --bot "ARENA_BOT_SEED=$seed ${bot[$k]}" \
             --bot "$c_bot" | grep '^decisions:')
    n=$(echo "$line" | awk '{print $2}'); t=$(echo "$line" | awk '{print $4}')
    decisions[$k]=$((decisions[$k] + n))
    seconds[$k]=$(awk -v a="${seconds[$k]}" -v b="$t" 'BEGIN{print a+b}')
  done
done
rate() { awk -v n="${decisions[$1]}" -v t="${seconds[$1]}" 'BEGIN{printf "%.0f", n/t}'; }
printf '%-10s %10s %12s\n' bot decisions decisions/s
for k in "${order[@]}"; do printf '%-10s %10d %12s\n' "$k" "${decisions[$k]}" "$(rate "$k")"; done
ratio() { awk -v a="$(rate "$1")" -v b="$(rate "$2")" 'BEGIN{printf "%.2f", b/a}'; }
echo
echo "time per decision, against C vs C:   python sdk $(ratio py-sdk c)x   js sdk $(ratio js-sdk c)x"
echo "SDK against the raw round trip:      python $(ratio py-sdk py-raw)x   js $(ratio js-sdk js-raw)x"
