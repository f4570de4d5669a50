#!/usr/bin/env bash
# Bots in every language, through the real referee:
#  1. a round-robin of the C, Python, JavaScript and stdin/stdout sample
#     bots, seed-paired: every match ends by the game's own rules (no
#     forfeit, no protocol error) and its record verifies;
#  2. Python and JavaScript bots that break the protocol lose with the very
#     reason a C bot gets for the same fault.
# (--memory-mb 0: sanitizer builds of the C bots reserve terabytes of
# address space, which the default limit would refuse.)
# Usage: test_cross_language.sh REFEREE C_RANDOM C_GREEDY C_BADBOT REPO
set -euo pipefail
ref=$1 c_random=$2 c_greedy=$3 c_badbot=$4 repo=$5
cd "$repo"
tmp=$(mktemp -d /tmp/arena-xlang-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$repo/tests/lib.sh"

bots=(
  "$c_random"
  "$c_greedy"
  "/usr/bin/python3 agents/python/random_bot.py"
  "/usr/bin/python3 agents/python/greedy_bot.py"
  "node agents/js/random.js"
  "sdk/stdio/arena-stdio -- awk -f agents/stdio/first.awk"
  "sdk/stdio/arena-stdio -- bash agents/stdio/random.sh"
)
n=${#bots[@]} matches=0
for ((a = 0; a < n; a++)); do
  for ((b = a + 1; b < n; b++)); do
    seed=$((a * 10 + b))
    for order in "$a $b" "$b $a"; do
      set -- $order
      rec=$tmp/m$matches.rec
      out=$("$ref" play --memory-mb 0 --seed "$seed" --round-limit 60 --bot "${bots[$1]}" --bot "${bots[$2]}" \
              --record "$rec") || fail "referee play failed for: ${bots[$1]} vs ${bots[$2]}"
      reason=$(awk '/^reason /{print $2}' "$rec")
      case "$reason" in
        markers|round_limit) ;;
        *) fail "${bots[$1]} vs ${bots[$2]}: ended by '$reason': $(grep '^detail' "$rec")" ;;
      esac
      "$ref" replay "$rec" >/dev/null || fail "record of ${bots[$1]} vs ${bots[$2]} does not verify"
      matches=$((matches + 1))
    done
  done
done
[ "$matches" -eq $((n * (n - 1))) ] || fail "played $matches matches"
echo "round-robin: $matches matches across C, Python, JavaScript and stdin/stdout, all valid"

for mode in garbage illegal outofturn badtoken; do
  want=$("$ref" play --memory-mb 0 --seed 2 --bot "$c_random" --bot "$c_badbot $mode" --record "$tmp/c.rec" >/dev/null;
         awk '/^reason /{print $2}' "$tmp/c.rec")
  [ -n "$want" ] && [ "$want" != markers ] && [ "$want" != round_limit ] ||
    fail "the C badbot in mode $mode did not forfeit ($want)"
  for bot in "/usr/bin/python3 tests/sdk/bad_bot.py" "node tests/sdk/bad_bot.mjs"; do
    "$ref" play --memory-mb 0 --seed 2 --bot "$c_random" --bot "$bot $mode" --record "$tmp/x.rec" >/dev/null
    got=$(awk '/^reason /{print $2}' "$tmp/x.rec")
    culprit=$(awk '/^culprit /{print $2}' "$tmp/x.rec")
    [ "$got" = "$want" ] || fail "$bot $mode: reason '$got', a C bot gets '$want'"
    [ "$culprit" = 1 ] || fail "$bot $mode: culprit '$culprit'"
  done
  echo "$mode: python and javascript lose by $want, as C does"
done
echo "2 passed, 0 failed"
