#!/usr/bin/env bash
# Bots' logs kept per match, through the real arena, workers and bots:
# a Python traceback survives the tournament (`arena match ID --logs`), one
# bug gets one reason in either seat, the detail is beside the reason in
# every format, hostile bytes are escaped, the cap keeps head and tail,
# --keep-logs prunes, exit 127 is explained, and each seat gets its own
# ARENA_BOT_SEED, the same when the match is played again.
# Usage: test_arena_logs.sh ARENA REFEREE RANDOM REPO
set -euo pipefail
arena=$1 ref=$2 random=$3 repo=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-logs-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"
A() { "$arena" --db "$tmp/a.db" "$@"; }

# A Python bot that raises at its fifth decision, printing its seed first.
cat > "$tmp/raiser.py" <<PY
import os, sys
sys.path.insert(0, "$repo/sdk/python")
import arena_bot
n = [0]
def act(request):
    n[0] += 1
    print("decision", n[0], "seed", os.environ.get("ARENA_BOT_SEED"), file=sys.stderr, flush=True)
    if n[0] == 5:
        raise ValueError("boom at the fifth decision")
    return request.actions[0]
arena_bot.run(act, name="raiser", version="1.0")
PY
# A chatty bot: 20 KB of output with an escape sequence, then a last line.
cat > "$tmp/chatty.sh" <<SH
#!/bin/sh
i=0; while [ \$i -lt 400 ]; do echo "line \$i ................................................"; i=\$((i+1)); done
printf 'clear: \033[2J\n'
echo "the last line"
exit 3
SH
# A script that runs a command that does not exist.
printf '#!/bin/sh\nno_such_command_%s\n' "$$" > "$tmp/missing.sh"
chmod +x "$tmp/chatty.sh" "$tmp/missing.sh"

A bot add raiser --no-test --cmd "/usr/bin/python3 $tmp/raiser.py" >/dev/null
A bot add random --no-test --cmd "$random" >/dev/null
A tournament --games 2 --concurrency 2 --memory-mb 0 --quiet raiser random

# 1. The traceback is kept, in whichever seat the bot sat; one reason.
for id in 1 2; do
  out=$(A match $id --logs)
  [[ "$out" == *"ValueError: boom at the fifth decision"* ]] || fail "match $id lost the traceback: $out"
  [[ "$out" == *"result: crash (seat "* ]] || fail "match $id is not a crash: $out"
  [[ "$out" == *"decision 1 seed "* ]] || fail "match $id --logs is not the whole log"
done
out=$(A match 1)
[[ "$out" == *"ValueError: boom"* ]] || fail "the default tail misses the traceback"
[[ "$out" != *"decision 1 seed"* ]] || fail "the default view shows more than the tail"
[[ "$out" == *" raiser "* && "$out" == *" random "* ]] || fail "match 1 does not name its bots: $out"
reasons=$(A matches --format csv | tail -n +2 | cut -d, -f6 | sort -u)
[ "$reasons" = crash ] || fail "one bug, two reasons: $reasons"
A matches --format json | grep -q '"detail": "seat [01].s bot exited with status 1"' ||
  fail "JSON matches lack the detail"
A matches --format csv | tail -n +2 | grep -q ',seat [01].s bot exited with status 1$' ||
  fail "CSV matches lack the detail"
A matches | grep -q "crash .*exited with status 1" || fail "the table lacks the detail"
err=$(A match 99 2>&1) && fail "a missing match shown"
[[ "$err" == *"no match 99"* ]] || fail "unclear error: $err"

# 2. Each seat has its own ARENA_BOT_SEED, a function of the match seed:
#    the referee playing the same seed gives the same value.
# (with two workers, matches are numbered as they finish: find raiser's seat 0)
read -r id seed < <(A matches --format csv | awk -F, '$4 ~ /^raiser / { print $1, $3 }')
arena_seed=$(A match "$id" --logs | awk '/^decision 1 seed/ { print $4; exit }')
[[ "$arena_seed" =~ ^[0-9]+$ ]] || fail "no ARENA_BOT_SEED in the arena: '$arena_seed'"
mkdir "$tmp/play"
"$ref" play --seed "$seed" --memory-mb 0 --log-dir "$tmp/play" --quiet \
  --bot "/usr/bin/python3 $tmp/raiser.py" --bot "$random" >/dev/null || true
play_seed=$(awk '/^decision 1 seed/ { print $4; exit }' "$tmp/play/seat0.log")
[ "$play_seed" = "$arena_seed" ] || fail "ARENA_BOT_SEED differs on replay: $arena_seed vs $play_seed"
"$ref" play --seed "$seed" --memory-mb 0 --log-dir "$tmp/play" --quiet \
  --bot "$random" --bot "/usr/bin/python3 $tmp/raiser.py" >/dev/null || true
other=$(awk '/^decision 1 seed/ { print $4; exit }' "$tmp/play/seat1.log")
[ "$other" != "$arena_seed" ] || fail "seats 0 and 1 got the same ARENA_BOT_SEED"

# 3. The cap keeps the head and the tail; control bytes are escaped;
#    --keep-logs keeps the newest matches' logs only; 127 is explained.
A bot add chatty --no-test --cmd "$tmp/chatty.sh" >/dev/null
A bot add missing --no-test --cmd "$tmp/missing.sh" >/dev/null
A tournament --games 2 --concurrency 2 --memory-mb 0 --quiet --log-bytes 2000 --keep-logs 3 \
  chatty missing random
n=$(A matches --format csv | tail -n +2 | wc -l)
[ "$n" -eq 8 ] || fail "expected 8 matches, not $n"
last=$(A matches --format csv | tail -n 1 | cut -d, -f1)
shown=0
for id in $(A matches --format csv | awk -F, 'NR > 1 { print $1 }'); do
  out=$(A match "$id" --logs)
  if [ "$id" -le $((last - 3)) ]; then
    [[ "$out" == *"logs: none kept"* ]] || fail "match $id kept its logs past --keep-logs 3"
    continue
  fi
  if [[ "$out" == *"chatty"* ]]; then
    shown=1
    [[ "$out" == *"line 0 ..."* ]] || fail "the excerpt lost the log's head"
    [[ "$out" == *"the last line"* ]] || fail "the excerpt lost the log's tail"
    [[ "$out" == *"bytes left out]"* ]] || fail "the excerpt does not say what it left out"
    [[ "$out" == *'clear: \x1b[2J'* ]] || fail "an escape sequence was not escaped"
    [[ "$out" != *$'\033'* ]] || fail "a raw escape byte reached the terminal"
  fi
done
[ "$shown" = 1 ] || fail "no kept log of the chatty bot"
A matches | grep -q "status 127 (command not found)" || fail "exit 127 is not explained"
# 4. A stdio bot that never flushes times out with a hint about flushing.
cat > "$tmp/unflushed.py" <<'PY'
import os, sys
out = os.fdopen(1, "w", buffering=65536)   # block-buffered, as stdout to a pipe is
for line in sys.stdin:
    print(0, file=out)                     # never flushed
PY
A bot add unflushed --no-test --cmd "$repo/sdk/stdio/arena-stdio -- /usr/bin/python3 $tmp/unflushed.py" >/dev/null
A tournament --games 2 --concurrency 2 --memory-mb 0 --quiet --move-ms 300 --bank-ms 1 \
  unflushed random
id=$(A matches --format csv | tail -n 1 | cut -d, -f1)
out=$(A match "$id")
[[ "$out" == *"result: timeout"* ]] || fail "the unflushed bot did not time out: $out"
[[ "$out" == *"never wrote a line"*"flush"* ]] || fail "no flushing hint: $out"

A check >/dev/null || fail "ratings check failed"
echo "logs: tracebacks kept, reasons alike, excerpts capped and escaped, retention, seeds"
