#!/usr/bin/env bash
# A bot's registered environment, through the real arena, its workers and
# bots (issue 11): `bot add --env NAME=VALUE` refuses bad names, ARENA_*,
# repeats and line breaks with one line each; `bot list` shows the entries
# escaped; in a tournament the bot sees exactly the ARENA_* variables, its
# registered ones and the sandbox's PATH, LANG, HOME and TMPDIR, nothing of
# the operator's (a marker set in the arena's environment is absent); the
# same with `arena rerun`; with --sandbox none it still gets its own.
# Usage: test_arena_env.sh ARENA RANDOM
set -euo pipefail
arena=$1 random=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-env-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"                  # readable by the sandbox's own users
. "$(dirname "$0")/../lib.sh"
A() { "$arena" --db "$tmp/a.db" "$@"; }

# The bot prints the environment it was started with (not its shell's),
# then plays as the random bot named by its argument.
cat > "$tmp/envbot.sh" <<'SH'
#!/bin/sh
echo ENV-BEGIN >&2
tr '\000' '\n' < /proc/$$/environ >&2
echo ENV-END >&2
exec "$1"
SH
chmod 755 "$tmp/envbot.sh"
bot="$tmp/envbot.sh $random"

A bot add random --no-test --cmd "$random" >/dev/null

# 1. Bad entries: a one-line error naming the entry, exit 2, nothing stored.
bad() {
  local want=$1; shift
  if err=$(A bot add bad --cmd "$bot" "$@" 2>&1 >/dev/null); then
    fail "bot add $* was accepted"
  fi
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "bot add $*: not one line: $err"
  [[ "$err" == *"$want"* ]] || fail "bot add $*: '$err' does not name $want"
}
bad "'1X=y'" --env 1X=y
bad "'NOVALUE'" --env NOVALUE
bad "'A-B=c'" --env A-B=c
bad "ARENA_SEAT" --env ARENA_SEAT=3
bad "ONCE is given twice" --env ONCE=1 --env ONCE=2
bad "BROKEN: its value has a line break" --env "BROKEN=a
b"
[ "$(A bot list --format csv | tail -n +2 | cut -d, -f2)" = random ] || fail "a refused bot was stored"

# 2. Registered and shown, escaped.
A bot add envbot --cmd "$bot" --env "GREETING=hello world" \
  --env "ODD=a=b;<i>\"q\"" --env "ESC=x$(printf '\033')[2Jy" >/dev/null
list=$(A bot list)
[[ "$list" == *'env GREETING=hello world ODD=a=b;<i>"q" ESC=x?[2Jy'* ]] ||
  fail "bot list does not show the environment: $list"
[[ "$list" != *$'\033'* ]] || fail "bot list prints a raw escape byte"
A bot list --format json | grep -qF '"env": ["GREETING=hello world", "ODD=a=b;<i>\"q\"", "ESC=x\u001b[2Jy"]' ||
  fail "bot list --format json: $(A bot list --format json)"

# The names a log's ENV block holds, sorted, one line (bubblewrap sets PWD,
# the bot's working folder: not the operator's to leak).
names() { sed -n '/^ENV-BEGIN$/,/^ENV-END$/p' | grep -v '^ENV-\|^PWD=' | cut -d= -f1 | sort -u | tr '\n' ' '; }
want="ARENA_BOT_SEED ARENA_ENDPOINT ARENA_PROTOCOL ARENA_SEAT ARENA_TOKEN ESC GREETING HOME LANG ODD PATH TMPDIR "

# 3. A tournament, the operator's marker in the arena's environment.
OPERATOR_MARKER=leak-$$ ARENA_LEAK_MARKER=leak-$$ \
  A tournament --games 2 --concurrency 2 --memory-mb 0 --quiet envbot random
for id in 1 2; do
  out=$(A match $id --logs)
  [ "$(printf '%s\n' "$out" | grep -c '^ENV-BEGIN$')" -eq 1 ] || fail "match $id: no ENV block: $out"
  got=$(printf '%s\n' "$out" | names)
  [ "$got" = "$want" ] || fail "match $id: the bot saw [$got], not [$want]"
  [[ "$out" == *$'\nGREETING=hello world\n'* ]] || fail "match $id: GREETING's value: $out"
  [[ "$out" == *$'\nODD=a=b;<i>"q"\n'* ]] || fail "match $id: ODD's value: $out"
  [[ "$out" != *leak* ]] || fail "match $id: the operator's environment reached the bot"
done

# 4. The rerun hands the bot the same environment.
out=$(OPERATOR_MARKER=leak-$$ A rerun 1 --logs)
got=$(printf '%s\n' "$out" | names)
[ "$got" = "$want" ] || fail "rerun: the bot saw [$got], not [$want]"

# 5. Without the sandbox the bot still gets its own variables.
A tournament --games 2 --concurrency 1 --memory-mb 0 --quiet --sandbox none \
  --seed 7 envbot random
out=$(A match 3 --logs)
[[ "$out" == *$'\nGREETING=hello world\n'* ]] || fail "--sandbox none: no GREETING: $out"
echo "ok: test_arena_env"
