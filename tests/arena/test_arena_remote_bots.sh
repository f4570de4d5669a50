#!/usr/bin/env bash
# test_arena_remote_bots.sh - remote bots, with real processes: an
# organizer's arena (a real gateway over TCP with CURVE and a ladder with
# its local workers) and a participant who plays their bot from "home" with
# `arena connect` (the C random bot as their command).
#
# - a remote bot is registered with no files, shown remote and absent, then
#   connected; another participant's credentials naming it are refused;
# - it plays its ladder matches through the arena's relay;
# - a frame a participant sends for a session of another bot's is refused,
#   said to it and logged (forge_remote);
# - its connect killed -9 mid-match: the match is lost by `disconnected`,
#   then it is skipped (not paired, no forfeit) while the others play on,
#   shown not connected (absent past --absent-after);
# - it comes back and plays again; a second connection takes over from the
#   first, which is told why and stops;
# - its program crashes at the participant's machine mid-match, connect
#   still connected: that match is lost by `crash` (not `disconnected`),
#   its detail saying where;
# - netns: its link cut past the silence limit, connect reconnects and it
#   plays again; cut again while a newer connect attaches: the one coming
#   back is refused (the newer one wins whatever the network's order);
# - its participant revoked: the running connect is told so and stops, a
#   new one is refused.
#
# usage: test_arena_remote_bots.sh ARENA RANDOM GREEDY SQL FORGE loopback|netns BADBOT
# netns: the participant in a network namespace of its own, joined to the
# arena's by a veth pair (root only; else it skips, exit 77).
set -euo pipefail
[ $# -eq 7 ] || { echo "usage: $0 ARENA RANDOM GREEDY SQL FORGE loopback|netns BADBOT" >&2; exit 2; }
ARENA=$(readlink -f "$1") RANDOM_BOT=$(readlink -f "$2") GREEDY_BOT=$(readlink -f "$3")
SQLTOOL=$(readlink -f "$4") FORGE=$(readlink -f "$5") WHERE=$6 BADBOT=$(readlink -f "$7")

if [ "$WHERE" = netns ]; then
  skip() { echo "SKIP: $*: network namespaces need root (CI runs it as root)"; exit 77; }
  [ "$(id -u)" -eq 0 ] || skip "not root"
  command -v ip >/dev/null || skip "no ip command (iproute2)"
fi
export LIB_NAME=arena-rbots
# shellcheck source=remote_lib.sh
source "$(dirname "$(readlink -f "$0")")/remote_lib.sh"

new_test setup
FAIL_LOG=$T/gw.log
GW_PID="" LADDER_PID="" CONNECT_PID=""
if [ "$WHERE" = netns ]; then
  TAG=$(( $$ % 100000 )) SUBNET=10.233.$(( $$ % 250 ))
  NS_ARENA=arrb${TAG}a NS_HOME=arrb${TAG}h
  ns_make "$NS_ARENA" || skip "ip netns add failed"
  ns_join "$NS_HOME" "vh$TAG" "$SUBNET.2" "$NS_ARENA" "va$TAG" "$SUBNET.1" ||
    skip "ip netns add failed"
  # nsenter, not `ip netns exec`: the organizer's sandboxed bots keep their
  # cgroups (remote_lib.sh).
  ORG=(nsenter "--net=/run/netns/$NS_ARENA") HOME_=(nsenter "--net=/run/netns/$NS_HOME")
  PORT=7788 LISTEN_ON="tcp://0.0.0.0:7788" REACH="tcp://$SUBNET.1:7788"
else
  ORG=() HOME_=()
  PORT=$("$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  LISTEN_ON="tcp://127.0.0.1:$PORT" REACH=$LISTEN_ON
fi
ar() { "${ORG[@]}" "$ARENA" --db "$DB" "$@"; }
sql() { "$SQLTOOL" "$DB" "$1"; }
home() { "${HOME_[@]}" "$@"; }
mkdir -p "$T/alice" "$T/bob"
for who in alice bob; do
  ar user add $who --endpoint "$REACH" --out "$T/$who/arena.cred" >/dev/null
done
: >"$T/gw.log"
"${ORG[@]}" "$ARENA" --db "$DB" gateway --listen "$LISTEN_ON" 2>>"$T/gw.log" &
GW_PID=$!
PIDS+=("$GW_PID")
eventually grep -q listening "$T/gw.log" || fail "the gateway did not start"

# ---- registered ----------------------------------------------------------------
new_test register
DB=$ROOT/setup/arena.db T=$ROOT/setup
out=$(home "$ARENA" submit --credentials "$T/alice/arena.cred" --name rb --version 1 \
      --game warchest --remote) || fail "alice's remote bot: $out"
grep -q "^accepted: rb@1, a remote bot in warchest" <<<"$out" || fail "the verdict: $out"
# bob's: a goofspiel bot, out of the warchest ladder below
home "$ARENA" submit --credentials "$T/bob/arena.cred" --name bb --version 1 --game goofspiel \
  --remote >/dev/null || fail "bob's remote bot"
rc=0; home "$ARENA" submit --credentials "$T/alice/arena.cred" --name rb --version 2 \
  --remote 2>"$T/err" >/dev/null || rc=$?
[ $rc = 2 ] && grep -q "needs --name BOT --version V --game G" "$T/err" ||
  fail "--remote without a game: $rc $(cat "$T/err")"
ar bot list | grep -q "^rb .* remote, absent   owner alice" || fail "rb not shown remote: $(ar bot list)"
[ "$(sql "SELECT count(*) FROM remote_bots r JOIN bots b ON b.id = r.bot_id
          WHERE b.name IN ('rb', 'bb') AND r.connected = 0")" = 2 ] || fail "remote_bots rows"
rc=0; out=$(home "$ARENA" connect --credentials "$T/bob/arena.cred" --name rb -- "$RANDOM_BOT") ||
  rc=$?
[ $rc = 1 ] && grep -q "^refused: rb: that bot is not yours" <<<"$out" ||
  fail "bob naming alice's bot: $rc $out"
grep -q "bob: refused: rb: that bot is not yours" "$T/gw.log" || fail "the refusal not logged"
note "registered remote, shown absent; another's credentials refused"

# ---- a tournament waits for it, then skips its matches (resumable) ---------------
new_test waits
DB=$ROOT/setup/arena.db T=$ROOT/setup
ar bot add r --no-test --cmd "$RANDOM_BOT" >/dev/null
ar bot add g --no-test --cmd "$GREEDY_BOT" >/dev/null
rc=0; ar tournament rb r g --games 2 --remote-wait 1 --move-ms 2000 --bank-ms 20000 \
  >/dev/null 2>"$T/tour.err" || rc=$?
[ $rc = 1 ] && grep -q "4 matches skipped: a remote bot was not connected within 1 s (not \
forfeited); 2 of 6 matches stored; arena tournament --resume plays the rest" "$T/tour.err" ||
  fail "the tournament without rb: $rc $(cat "$T/tour.err")"
grep -q "4 matches wait for remote bot rb to connect (up to 1 s)" "$T/tour.err" ||
  fail "the wait not said: $(cat "$T/tour.err")"
[ "$(sql "SELECT count(*) FROM match_seats s JOIN bots b ON b.id = s.bot_id
          WHERE b.name = 'rb'")" = 0 ] || fail "rb's matches were stored"
[ "$(sql "SELECT count(*) FROM matches WHERE culprit IS NULL")" = 2 ] ||
  fail "the 2 others did not play out: $(sql "SELECT reason, detail FROM matches")"
rc=0; ar tournament rb r --games 2 --concurrency 0 --listen "tcp://127.0.0.1:*" >/dev/null \
  2>"$T/tour.err" || rc=$?
[ $rc = 1 ] && grep -q "bot rb is a remote bot: its matches are played by this machine's \
workers (--concurrency 1 or more)" "$T/tour.err" ||
  fail "a tournament of rb without workers of its own: $rc $(cat "$T/tour.err")"
note "rb's 4 matches skipped after 1 s, the 2 others played; without local workers, refused"

# ---- plays its ladder matches --------------------------------------------------
new_test plays
DB=$ROOT/setup/arena.db T=$ROOT/setup
rb_games() {
  sql "SELECT count(*) FROM match_seats s JOIN bots b ON b.id = s.bot_id WHERE b.name = 'rb'"
}
rb_played() {
  sql "SELECT count(*) FROM match_seats s JOIN matches m ON m.id = s.match_id
       JOIN bots b ON b.id = s.bot_id WHERE b.name = 'rb' AND m.culprit IS NULL"
}
rb_ladder() {
  sql "SELECT count(*) FROM match_seats s JOIN matches m ON m.id = s.match_id
       JOIN bots b ON b.id = s.bot_id WHERE b.name = 'rb' AND m.culprit IS NULL
       AND m.ladder_id IS NOT NULL"
}
at_least() { [ "$("$1")" -ge "$2" ]; }
# alice's bot: the random bot, 2 s late to each match, so that a match of
# hers is surely running for 2 s after its session opened (forged, below).
printf '#!/bin/sh\nsleep 2\nexec "%s"\n' "$RANDOM_BOT" >"$T/alice/late_bot"
chmod +x "$T/alice/late_bot"
start_connect() {   # start_connect LOG [CMD...]: alice's connect, in CONNECT_PID
  local log=$1
  shift
  [ $# -gt 0 ] || set -- "$T/alice/late_bot"
  : >"$T/$log"
  "${HOME_[@]}" "$ARENA" connect --credentials "$T/alice/arena.cred" --name rb -- \
    "$@" >>"$T/$log" 2>&1 &
  CONNECT_PID=$!
  PIDS+=("$CONNECT_PID")
  eventually grep -q "^connected as rb@1" "$T/$log" || fail "connect: $(cat "$T/$log")"
}
start_connect connect1.log
ar bot list | grep -q "^rb .* remote, connected" || fail "rb not shown connected"
ar tournament --resume >/dev/null 2>"$T/tour.err" || fail "resumed: $(cat "$T/tour.err")"
[ "$(rb_played)" = 4 ] || fail "the resumed tournament: rb played $(rb_played)"
: >"$T/ladder.log"
"${ORG[@]}" "$ARENA" --db "$DB" ladder --name main --concurrency 2 --move-ms 2000 \
  --bank-ms 20000 --reload 0.2 --max-forfeits 0 --log-seconds 1 2>>"$T/ladder.log" &
LADDER_PID=$!
PIDS+=("$LADDER_PID")
eventually at_least rb_ladder 3 || fail "rb played $(rb_ladder) matches: $(ar matches | tail -5)"
grep -q "^match started: rb@1 seat [01] (session " "$T/connect1.log" &&
  grep -q "^match ended: rb@1 seat [01] (the bot exited with status 0)" "$T/connect1.log" ||
  fail "connect's lines: $(cat "$T/connect1.log")"
[ "$(sql "SELECT count(*) FROM matches WHERE reason = 'disconnected'")" = 0 ] ||
  fail "a disconnection while connected"
note "rb played its 4 tournament matches on resuming, then $(rb_ladder) ladder matches"

# ---- the link's allowance, per decision in the record --------------------------
new_test link
DB=$ROOT/setup/arena.db T=$ROOT/setup
# rb's newest ladder match played out: each of rb's decisions carries its
# link's allowance (link=MS, the round trip its relay measured through the
# gateway to connect, at most min(250, move/2) ms), the local seat's none;
# the clock line gives the bound; `arena match` sums it.
read -r mid rseat < <(sql "SELECT m.id || ' ' || s.seat FROM matches m JOIN match_seats s
  ON s.match_id = m.id JOIN bots b ON b.id = s.bot_id WHERE b.name = 'rb'
  AND m.culprit IS NULL AND m.ladder_id IS NOT NULL ORDER BY m.id DESC LIMIT 1")
sql "SELECT record FROM matches WHERE id = $mid" >"$T/rb.record"
grep -q "^clock .* link<=250" "$T/rb.record" || fail "no link bound: $(grep ^clock "$T/rb.record")"
mine=$(grep -c "^decision $rseat " "$T/rb.record") || fail "no decisions of rb's"
linked=$(grep -c "^decision $rseat [0-9.]* .*link=[0-9]*\.[0-9]\{3\} " "$T/rb.record") || true
[ "$linked" = "$mine" ] || fail "$linked of rb's $mine decisions carry link=: $(head -20 "$T/rb.record")"
! grep "^decision $(( 1 - rseat )) " "$T/rb.record" | grep -q "link=" ||
  fail "the local seat's decisions carry link="
# measured: some allowance above 0, none above the bound
awk -v s="$rseat" '$1 == "decision" && $2 == s { for (i = 3; i <= NF; i++)
  if ($i ~ /^link=/) { v = substr($i, 6) + 0; if (v > 250) bad = 1; if (v > 0) some = 1 } }
  END { exit !(some && !bad) }' "$T/rb.record" || fail "link= not in (0, 250]: $(grep -o "link=[0-9.]*" "$T/rb.record" | sort -u | head)"
ar match "$mid" | grep -q "^seat $rseat played remotely: [0-9.]* s of its time was its link's round trip" ||
  fail "arena match: $(ar match "$mid" | head -8)"
# the replay's JSON (the page --html writes): link_ms for rb's decisions, null for the other's
ar export "$mid" --html "$T/rb.html"
grep -q "\"seat\":$rseat,[^}]*\"link_ms\":[0-9]" "$T/rb.html" &&
  grep -q "\"seat\":$(( 1 - rseat )),[^}]*\"link_ms\":null" "$T/rb.html" &&
  ! grep -q "\"seat\":$(( 1 - rseat )),[^}]*\"link_ms\":[0-9]" "$T/rb.html" ||
  fail "the replay's link_ms: $(grep -o '"link_ms":[^,]*' "$T/rb.html" | sort | uniq -c | head)"
note "match $mid: rb's $mine decisions carry link= ($(grep -o "link=[0-9.]*" "$T/rb.record" | sort -t= -k2 -n | tail -1) at most), the local seat's none"

# ---- a frame for another bot's session ----------------------------------------
new_test forged
DB=$ROOT/setup/arena.db T=$ROOT/setup
# A session of rb's open now (its match being played), the newest: a frame
# for it must not reach that match. Its bot starts 2 s late: it is surely
# still open while the forger sends.
live_session() {
  local s
  session=
  for s in $(sed -n 's/.*session \([0-9a-f]\{16\}\) opened: rb@1 .*/\1/p' "$T/gw.log"); do
    grep -q "session $s .*closed\|session $s closed" "$T/gw.log" || session=$s
  done
  [ -n "$session" ]
}
newest_opened() { grep -c "opened: rb@1" "$T/gw.log" || true; }
opened_before=$(newest_opened)
fresh_session() { [ "$(newest_opened)" -gt "$opened_before" ] && live_session; }
eventually fresh_session || fail "no match of rb's running"
out=$(home "$FORGE" "$T/bob/arena.cred" bb "$session") || fail "the forger: $out"
grep -q "^refused: session $session is not a match of bb@1" <<<"$out" || fail "said: $out"
grep -q "bob: refused a data frame of bb@1 for session $session: not one of its matches" \
  "$T/gw.log" || fail "the forged frame not logged"
note "bob's frame for rb's session $session refused and logged"

# ---- killed mid-match: lost by disconnected, then skipped ---------------------
new_test killed
DB=$ROOT/setup/arena.db T=$ROOT/setup
eventually live_session || fail "no match of rb's running"
kill -9 "$CONNECT_PID"
FAIL_LOG=$T/ladder.log
lost() { [ "$(sql "SELECT count(*) FROM matches WHERE reason = 'disconnected'")" -ge 1 ]; }
eventually lost || fail "no match lost by disconnected: $(ar matches | tail -5)"
eventually grep -q "rb@1 disconnected\|rb no longer plays" "$T/gw.log" "$T/ladder.log" ||
  fail "the gateway did not let rb go"
eventually grep -q "rb no longer plays" "$T/ladder.log" || fail "the ladder still pairs rb"
culprit=$(sql "SELECT b.name FROM matches m JOIN match_seats s ON s.match_id = m.id
               AND s.seat = m.culprit JOIN bots b ON b.id = s.bot_id
               WHERE m.reason = 'disconnected' LIMIT 1")
[ "$culprit" = rb ] || fail "the disconnected seat is $culprit's"
sleep 1      # the relays of matches started before the ladder let rb go end
before=$(rb_games) others=$(sql "SELECT count(*) FROM matches")
others_on() { [ "$(sql "SELECT count(*) FROM matches")" -ge $((others + 6)) ]; }
eventually others_on || fail "the other bots stopped playing"
[ "$(rb_games)" = "$before" ] || fail "rb played $(( $(rb_games) - before )) matches while away"
ar bot list | grep -q "^rb .* remote, not connected" || fail "rb not shown gone: $(ar bot list)"
ar bot list --absent-after 0 | grep -q "^rb .* remote, absent" || fail "rb not shown absent"
note "lost $(sql "SELECT count(*) FROM matches WHERE reason = 'disconnected'") by disconnected," \
  "then skipped while $(( $(sql "SELECT count(*) FROM matches") - others )) others played"

# ---- back, then replaced by a newer connection ---------------------------------
new_test back
DB=$ROOT/setup/arena.db T=$ROOT/setup
forfeits=$(sql "SELECT count(*) FROM matches WHERE reason = 'disconnected'")
start_connect connect2.log
first=$CONNECT_PID
rb_more() { [ "$(rb_played)" -ge "$(( played + 2 ))" ]; }
played=$(rb_played)
eventually rb_more || fail "rb did not play again"
start_connect connect3.log
wait_exit "$first"
[ "$WAITED" = 1 ] && grep -q "^closed: another connection for rb@1 took over" "$T/connect2.log" ||
  fail "the older connection: $WAITED $(cat "$T/connect2.log")"
played=$(rb_played)
eventually rb_more || fail "rb did not play on the newer connection"
note "back: rb played again; the newer connection took over"

# ---- a network fault (netns: the link cut past the silence limit) -------------
if [ "$WHERE" = netns ]; then
  new_test cut
  DB=$ROOT/setup/arena.db T=$ROOT/setup
  ip -n "$NS_HOME" link set "vh$TAG" down
  eventually grep -q "the gateway is silent; reconnecting" "$T/connect3.log" ||
    fail "connect did not see the fault: $(cat "$T/connect3.log")"
  ip -n "$NS_HOME" link set "vh$TAG" up
  reattached() { [ "$(grep -c "^connected as rb@1" "$T/connect3.log")" -ge 2 ]; }
  eventually reattached || fail "connect did not reconnect: $(cat "$T/connect3.log")"
  played=$(rb_played)
  eventually rb_more || fail "rb did not play after the fault"
  note "the link cut: connect reconnected and rb plays again"

  # Cut again, and while it is away another connect for rb attaches (from
  # the organizer's side, where the gateway is still reached): the one
  # coming back is the older and is refused; it does not take rb back.
  new_test overtaken
  DB=$ROOT/setup/arena.db T=$ROOT/setup
  silent_twice() { [ "$(grep -c "the gateway is silent; reconnecting" "$T/connect3.log")" -ge 2 ]; }
  ip -n "$NS_HOME" link set "vh$TAG" down
  eventually silent_twice || fail "connect did not see the second fault: $(cat "$T/connect3.log")"
  older=$CONNECT_PID
  : >"$T/connect3b.log"
  "${ORG[@]}" "$ARENA" connect --credentials "$T/alice/arena.cred" --name rb -- \
    "$T/alice/late_bot" >>"$T/connect3b.log" 2>&1 &
  CONNECT_PID=$!
  PIDS+=("$CONNECT_PID")
  eventually grep -q "^connected as rb@1" "$T/connect3b.log" ||
    fail "the newer connect: $(cat "$T/connect3b.log")"
  ip -n "$NS_HOME" link set "vh$TAG" up
  wait_exit "$older"
  [ "$WAITED" = 1 ] && grep -q "^closed: another connection for rb@1 took over" \
    "$T/connect3.log" || fail "the connect coming back: $WAITED $(cat "$T/connect3.log")"
  grep -q "a connection coming back refused" "$T/gw.log" || fail "the refusal not logged"
  played=$(rb_played)
  eventually rb_more || fail "rb did not play on the newer connection"
  kill -0 "$CONNECT_PID" || fail "the newer connect stopped: $(cat "$T/connect3b.log")"
  note "a connection coming back after another attached: refused; the newer one plays"
fi

# ---- its program crashes at home, connect still connected ---------------------
new_test crashed
DB=$ROOT/setup/arena.db T=$ROOT/setup
# badbot aborts at its 3rd decision: connect (a newer connection, taking
# over) stays, and the match is lost by crash, the detail saying where.
crashes() { sql "SELECT count(*) FROM matches m JOIN match_seats s ON s.match_id = m.id
  AND s.seat = m.culprit JOIN bots b ON b.id = s.bot_id WHERE b.name = 'rb'
  AND m.reason = 'crash'"; }
disconnects=$(sql "SELECT count(*) FROM matches WHERE reason = 'disconnected'")
older=$CONNECT_PID
start_connect connect4.log "$BADBOT" crash 3
wait_exit "$older"
at_least_one() { [ "$(crashes)" -ge 1 ]; }
eventually at_least_one || fail "no match of rb's lost by crash: $(sql "SELECT reason, detail
  FROM matches ORDER BY id DESC LIMIT 3")"
detail=$(sql "SELECT m.detail FROM matches m JOIN match_seats s ON s.match_id = m.id
  AND s.seat = m.culprit JOIN bots b ON b.id = s.bot_id WHERE b.name = 'rb'
  AND m.reason = 'crash' ORDER BY m.id LIMIT 1")
grep -q "^seat [01]'s remote bot was killed by signal 6 at its participant's machine$" \
  <<<"$detail" || fail "the crash's detail: $detail"
grep -q "^match ended: rb@1 seat [01] (the bot killed by signal 6)" "$T/connect4.log" ||
  fail "connect's line: $(cat "$T/connect4.log")"
kill -0 "$CONNECT_PID" || fail "connect stopped: $(cat "$T/connect4.log")"
# Only the older connection's matches cut by the takeover may be lost so.
[ "$(sql "SELECT count(*) FROM matches m WHERE reason = 'disconnected' AND m.id > (SELECT
  max(id) FROM matches WHERE reason = 'crash')")" = 0 ] ||
  fail "disconnected after the crash: $(sql "SELECT reason, detail FROM matches
  WHERE reason = 'disconnected'")"
note "$(crashes) of rb's matches lost by crash ($detail); $disconnects by disconnected before"
# A program that exits 3 at once, before its hello: crash too, its relay's log
# (the seat's) saying how.
older=$CONNECT_PID
printf '#!/bin/sh\nexit 3\n' >"$T/alice/gone_bot"
chmod +x "$T/alice/gone_bot"
start_connect connect5.log "$T/alice/gone_bot"
wait_exit "$older"
early() { [ "$(sql "SELECT count(*) FROM matches WHERE reason = 'crash' AND detail LIKE
  '%remote bot ended at its participant''s machine (its log says how)'")" -ge 1 ]; }
eventually early || fail "no match lost by crash before the hello: $(sql "SELECT reason, detail
  FROM matches ORDER BY id DESC LIMIT 3")"
grep -q "^match ended: rb@1 seat [01] (the bot exited with status 3)" "$T/connect5.log" ||
  fail "connect's line: $(cat "$T/connect5.log")"
note "a program that exits before its hello: lost by crash too"

# ---- revoked ---------------------------------------------------------------------
new_test revoked
DB=$ROOT/setup/arena.db T=$ROOT/setup
ar user revoke alice >/dev/null
wait_exit "$CONNECT_PID"
[ "$WAITED" = 1 ] && grep -q "^refused: the access of alice was revoked" "$T/connect5.log" ||
  fail "the running connect: $WAITED $(cat "$T/connect5.log")"
rc=0; out=$(home "$ARENA" connect --credentials "$T/alice/arena.cred" --name rb -- "$RANDOM_BOT") ||
  rc=$?
[ $rc = 1 ] && grep -q "^refused: the access of alice was revoked" <<<"$out" ||
  fail "a new connect: $rc $out"
kill -INT "$LADDER_PID"
wait_exit "$LADDER_PID"
note "revoked: the running connection told and stopped, a new one refused"
echo "PASS"
