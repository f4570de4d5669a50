#!/usr/bin/env bash
# arena bot test and the check in bot add: a good bot passes in both seats
# with its hello and first decision timed; a bot whose script is missing
# fails with the reason and its log's tail; a slow starter passes with its
# hello time shown, and fails when the handshake is shorter than its start;
# bot add refuses a bot that cannot play and --no-test registers it anyway;
# a bot that kills the check's referee (SIGABRT, as libzmq's abort on a
# full file table) is refused, and the arena survives, leaving no folder.
# Usage: test_arena_bottest.sh ARENA GREEDY
set -euo pipefail
arena=$1 greedy=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-bottest-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"
A() { "$arena" --db "$tmp/a.db" "$@"; }
run() { rc=0; out=$("$@" 2>&1) || rc=$?; }

# A good bot: ok, both seats, times shown; tried in every game, it plays
# War Chest (greedy is a War Chest bot), which is enough for --cmd.
run A bot test --cmd "$greedy"
[ "$rc" -eq 0 ] || fail "good bot: exit $rc: $out"
for seat in 0 1; do
  grep -q "^bot test --cmd in warchest: seat $seat v random: started, hello after [0-9]* ms, first decision [0-9.]* ms, [1-9][0-9]* decisions; .*no protocol errors$" <<<"$out" ||
    fail "good bot, seat $seat: $out"
done
grep -q "^bot test --cmd in warchest: ok: plays both seats" <<<"$out" || fail "no verdict: $out"
grep -q "^bot test --cmd in goofspiel: FAILED: " <<<"$out" || fail "greedy in goofspiel: $out"
grep -q "^bot test --cmd: plays warchest; cannot play goofspiel$" <<<"$out" || fail "games: $out"
# Told its game, it must play that one.
run A bot test --cmd "$greedy" --game goofspiel
[ "$rc" -eq 1 ] && ! grep -q "in warchest" <<<"$out" || fail "greedy --game goofspiel: $rc $out"
run A bot test --cmd "$greedy" --game chess
[ "$rc" -eq 2 ] && grep -q "^arena: bot test: --game: unknown game 'chess' (the games: warchest goofspiel)$" <<<"$out" ||
  fail "--game chess: $rc $out"

# A missing script: not started, the interpreter's complaint in the log tail.
run A bot test --cmd "/usr/bin/python3 $tmp/missing_bot.py"
[ "$rc" -eq 1 ] || fail "missing script: exit $rc: $out"
grep -q "seat 0 v random: not started (no hello), 0 decisions; it forfeited: crash" <<<"$out" ||
  fail "missing script: no reason: $out"
grep -q "No such file or directory" <<<"$out" || fail "missing script: no log tail: $out"
grep -q "^bot test --cmd in warchest: FAILED: crash in seat 0 (.*status 2" <<<"$out" ||
  fail "missing script: verdict: $out"
# A missing program: refused before any match.
run A bot test --cmd "$tmp/no-such-bot"
[ "$rc" -eq 1 ] && grep -q "FAILED: .*no-such-bot" <<<"$out" || fail "missing program: $rc $out"

# A slow starter: its hello time is shown; a shorter handshake fails it.
# (No sandbox: a sandboxed sh would not see the program it is to exec; and
# no memory limit, which is an address-space limit without the sandbox's
# cgroup, and ASan builds of the bots reserve terabytes of address space.)
export ARENA_SANDBOX=none
slow="sh -c 'sleep 1; exec $greedy'"
run A bot test --cmd "$slow" --memory-mb 0 --game warchest
[ "$rc" -eq 0 ] || fail "slow starter: exit $rc: $out"
grep -q "seat 1 v random: started, hello after [1-9][0-9][0-9][0-9] ms" <<<"$out" ||
  fail "slow starter: hello time: $out"
run A bot test --cmd "$slow" --handshake-ms 300 --memory-mb 0 --game warchest
[ "$rc" -eq 1 ] || fail "slow starter, short handshake: exit $rc: $out"
grep -q "FAILED: timeout in seat 0 (seat 0 sent no hello within 300 ms)" <<<"$out" ||
  fail "slow starter, short handshake: $out"
# A bot that aborts the nearest process named arena above it: the check's
# referee, which must not be the arena itself.
cat >"$tmp/abort_bot.sh" <<'SH'
p=$PPID
while [ "$p" -gt 1 ]; do
  [ "$(ps -o comm= -p "$p" | tr -d ' ')" = arena ] && { kill -ABRT "$p"; break; }
  p=$(ps -o ppid= -p "$p" | tr -d ' ')
done
sleep 5
SH
mkdir "$tmp/t"
rc=0; out=$(TMPDIR=$tmp/t A bot add aborter --cmd "sh $tmp/abort_bot.sh" 2>&1) || rc=$?
[ "$rc" -eq 2 ] || fail "bot add of a bot that aborts its referee: exit $rc: $out"
grep -q "bot add aborter: refused: it cannot play any game (warchest: its referee died of signal 6 in seat 0" \
  <<<"$out" || fail "bot add aborter: no clear refusal: $out"
! A bot list | grep -q aborter || fail "bot add registered the aborter"
[ -z "$(ls -A "$tmp/t")" ] || fail "the aborted check left $(ls -A "$tmp/t")"
unset ARENA_SANDBOX
run A bot test --cmd "$greedy" --memory-mb lots
[ "$rc" -eq 2 ] && grep -q "^arena: bot test: --memory-mb wants a whole number from 0 to 1048576" <<<"$out" ||
  fail "bot test --memory-mb lots: $rc $out"

# bot add: refuses what cannot play, --no-test registers it; bot test BOT.
run A bot add broken --cmd "/usr/bin/python3 $tmp/missing_bot.py"
[ "$rc" -ne 0 ] || fail "bot add registered a bot that cannot play: $out"
grep -q "bot add broken: refused: it cannot play any game (warchest: crash in seat 0" <<<"$out" ||
  fail "bot add: no reason: $out"
grep -q -- "--no-test" <<<"$out" || fail "bot add: no hint of --no-test: $out"
A bot list | grep -q broken && fail "bot add listed a refused bot"
run A bot add broken --cmd "/usr/bin/python3 $tmp/missing_bot.py" --no-test
[ "$rc" -eq 0 ] || fail "bot add --no-test: $out"
run A bot test broken
[ "$rc" -eq 1 ] && grep -q "^bot test broken in warchest: FAILED: crash" <<<"$out" || fail "bot test BOT: $out"
run A bot add good --cmd "$greedy"
[ "$rc" -eq 0 ] && grep -q "^added bot good" <<<"$out" || fail "bot add good: $rc $out"
run A bot test
[ "$rc" -eq 2 ] || fail "bot test with nothing: exit $rc"
run A bot test nobody
[ "$rc" -eq 2 ] && grep -q "no bot 'nobody'" <<<"$out" || fail "bot test nobody: $rc $out"
echo "bot test: good, missing script, slow starter; bot add refuses and --no-test"
