#!/usr/bin/env bash
# test_referee_cli.sh REFEREE BADBOT RANDOM - the `referee` program as a user
# meets it: play prints a result and exits 0 even when a bot misbehaves;
# bad arguments exit 2 with one line on stderr naming the problem; replay
# checks records; show prints the boards.
set -u
if [ $# -ne 3 ]; then
    echo "usage: $0 REFEREE BADBOT RANDOM" >&2
    exit 2
fi
REF=$1 BAD=$2 RND=$3
T=$(mktemp -d /tmp/arena-cli-test-XXXXXX)
trap 'rm -rf "$T"' EXIT
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# run NAME ARGS...: runs the referee (at most 60 s), sets rc, out, err.
run() {
    local name=$1; shift
    timeout 60 "$REF" "$@" >"$T/$name.out" 2>"$T/$name.err"
    rc=$?
    out=$(cat "$T/$name.out")
    err=$(cat "$T/$name.err")
}

# Sanitizer builds need their address space unlimited; short time controls.
PLAY=(play --memory-mb 0 --move-ms 1000 --bank-ms 2000 --handshake-ms 8000)

# ---- play --------------------------------------------------------------------
run good "${PLAY[@]}" --bot "$RND" --bot "$BAD ok" --seed 11 --record "$T/good.rec"
if [ $rc -eq 0 ] && grep -Eq '^result: (1-0|0-1|0\.5-0\.5)  reason: (markers|round_limit)' <<<"$out" &&
   [ -s "$T/good.rec" ]; then
    pass "play random vs ok"
else
    fail "play random vs ok: rc=$rc out=[$out] err=[$err]"
fi

run crash "${PLAY[@]}" --bot "$BAD crash 3" --bot "$RND" --seed 11 --record "$T/crash.rec"
if [ $rc -eq 0 ] && grep -q '^result: 0-1  reason: crash' <<<"$out"; then
    pass "play with a crashing bot exits 0 and prints the result"
else
    fail "play with a crashing bot: rc=$rc out=[$out] err=[$err]"
fi

run quiet "${PLAY[@]}" --bot "$RND" --bot "$BAD illegal" --quiet
if [ $rc -eq 0 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q '^illegal_action ' <<<"$out"; then
    pass "play --quiet prints one result line"
else
    fail "play --quiet: rc=$rc out=[$out] err=[$err]"
fi

mkdir "$T/logs"
run flood "${PLAY[@]}" --bot "$BAD flood" --bot "$RND" --log-dir "$T/logs"
size=$(stat -c %s "$T/logs/seat0.log" 2>/dev/null || echo 0)
if [ $rc -eq 0 ] && grep -Eq 'reason: (markers|round_limit)' <<<"$out" &&
   [ "$size" -ge 1048576 ] && [ "$size" -le $((1048576 + 40)) ] &&
   [ "$(tail -n 1 "$T/logs/seat0.log")" = "[arena: log truncated]" ] && [ -f "$T/logs/seat1.log" ]; then
    pass "a bot writing 50 MB plays on; its log in --log-dir is capped ($size bytes)"
else
    fail "flood with --log-dir: rc=$rc size=$size out=[$out] err=[$err]"
fi

# A bot whose processes flood its endpoint with raw connections loses `flood`;
# the referee lives (libzmq aborted it once its file table was full) whether
# it may raise its soft limit of 1,024 files (ulimit -Sn) or not (ulimit -n:
# the hard limit too), and the other seat wins.
for limit in -Sn -n; do
    (ulimit $limit 1024 && run "conns$limit" "${PLAY[@]}" --bot "$RND" --bot "$BAD conns 5:200"         --record "$T/conns.rec" && echo "$rc" >"$T/conns.rc")
    rc=$(cat "$T/conns.rc" 2>/dev/null || echo none) out=$(cat "$T/conns$limit.out")
    err=$(cat "$T/conns$limit.err")
    if [ "$rc" = 0 ] && grep -q '^result: 1-0  reason: flood' <<<"$out" &&
       grep -qx 'culprit 1' "$T/conns.rec"; then
        pass "a flood of connections at ulimit $limit 1024: the referee lives, the flooder loses"
    else
        fail "a flood of connections at ulimit $limit 1024: rc=$rc out=[$out] err=[$err]"
    fi
    rm -f "$T/conns.rc" "$T/conns.rec"
done

# ---- bad arguments: exit 2, one line on stderr naming the problem ------------
# bad NAME PATTERN ARGS...
bad() {
    local name=$1 pattern=$2; shift 2
    run "$name" "$@"
    local lines
    lines=$(printf '%s' "$err" | grep -c '')
    if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && grep -Eq -- "$pattern" <<<"$err"; then
        pass "$name: $err"
    else
        fail "$name: rc=$rc (want 2), stderr $lines lines (want 1) matching /$pattern/: [$err]"
    fi
}
B=(--bot "$RND" --bot "$RND")
bad unknown_flag        "unknown option '--frobnicate'"  play "${B[@]}" --frobnicate 3
bad unknown_flag_last   "unknown option '--frobnicate'"  play "${B[@]}" --frobnicate
bad missing_bot_value   "--bot needs a value"            play --bot "$RND" --bot
bad empty_bot           "--bot needs a command"          play --bot "" --bot "$RND"
bad no_bots             "no bots"                        play --seed 3
bad seed_abc            "--seed.*'abc'"                  play "${B[@]}" --seed abc
bad seed_negative       "--seed.*'-4'"                   play "${B[@]}" --seed -4
bad seed_overflow       "--seed"                         play "${B[@]}" --seed 99999999999999999999999
bad setup_nonsense      "setup must be"                  play "${B[@]}" --setup nonsense
bad players_three       "players must be"                play "${B[@]}" --players 3
bad move_ms_zero        "--move-ms"                      play "${B[@]}" --move-ms 0
bad strikes_word        "--strikes"                      play "${B[@]}" --strikes many
bad bad_option          "option 'nokey'|nokey"           play "${B[@]}" --option nokey
bad transport           "--transport"                    play "${B[@]}" --transport udp
bad record_unwritable   "record.*/nonexistent/dir/x.rec" play "${B[@]}" --record /nonexistent/dir/x.rec
bad record_directory    "record.*$T"                     play "${B[@]}" --record "$T"
bad log_dir_missing     "logs.*/nonexistent/dir"        play "${B[@]}" --log-dir /nonexistent/dir
bad log_dir_file        "logs.*good.rec"                 play "${B[@]}" --log-dir "$T/good.rec"
bad unknown_command     "unknown command 'dance'"        dance
bad replay_no_file      "replay takes one record file"   replay

run no_command
if [ $rc -eq 2 ] && grep -q '^usage: referee play' <<<"$err"; then
    pass "no command: usage on stderr, exit 2"
else
    fail "no command: rc=$rc err=[$err]"
fi

# ---- replay and show ---------------------------------------------------------
run replay_good replay "$T/good.rec"
if [ $rc -eq 0 ] && grep -q 'verified' <<<"$out"; then
    pass "replay of a good record"
else
    fail "replay of a good record: rc=$rc out=[$out] err=[$err]"
fi

run replay_crash replay "$T/crash.rec"
if [ $rc -eq 0 ] && grep -q 'verified: .* crash' <<<"$out"; then
    pass "replay of a forfeited match's record"
else
    fail "replay of the crash record: rc=$rc out=[$out] err=[$err]"
fi

# Tamper: the 5th decision's action becomes the first other action found.
n5=$(grep -n '^decision ' "$T/good.rec" | sed -n 5p | cut -d: -f1)
act5=$(sed -n "${n5}p" "$T/good.rec" | cut -d' ' -f5-)
other=$(grep '^decision ' "$T/good.rec" | cut -d' ' -f5- | grep -vxF -- "$act5" | sed -n 3p)
awk -v n="$n5" -v a="$other" 'NR == n { split($0, f, " "); print f[1], f[2], f[3], f[4], a; next } { print }' \
    "$T/good.rec" >"$T/tampered.rec"
if [ -z "$other" ] || cmp -s "$T/good.rec" "$T/tampered.rec"; then
    fail "could not tamper with the record"
fi
run replay_tampered replay "$T/tampered.rec"
if [ $rc -ne 0 ] && grep -q 'mismatch' <<<"$err"; then
    pass "replay of a tampered record fails: $err"
else
    fail "replay of a tampered record: rc=$rc out=[$out] err=[$err]"
fi

sed 's/^result .*/result 1 0/' "$T/crash.rec" >"$T/crash_swapped.rec"
run replay_swapped replay "$T/crash_swapped.rec"
[ $rc -ne 0 ] && pass "replay of a forfeit with the scores swapped fails: $err" ||
    fail "replay of a forfeit with the scores swapped: rc=$rc"

sed 's/^hash .*/hash 0123456789abcdef/' "$T/good.rec" >"$T/badhash.rec"
run replay_badhash replay "$T/badhash.rec"
[ $rc -ne 0 ] && pass "replay with a wrong hash fails" || fail "replay with a wrong hash: rc=$rc"

printf 'arena-record 1\ngame chess\n' >"$T/junk.rec"
run replay_junk replay "$T/junk.rec"
[ $rc -ne 0 ] && [ -n "$err" ] && pass "replay of junk fails: $err" || fail "replay of junk: rc=$rc"

run replay_missing replay "$T/none.rec"
[ $rc -ne 0 ] && pass "replay of a missing file fails" || fail "replay of a missing file: rc=$rc"

run show show "$T/good.rec"
ndec=$(grep -c '^decision ' "$T/good.rec")
boards=$(grep -c '^round [0-9]*, ' <<<"$out")
if [ $rc -eq 0 ] && [ "$boards" -eq $((ndec + 1)) ] && grep -q 'seat 0 (side A)' <<<"$out" &&
   grep -q '^#1  seat ' <<<"$out" && grep -q '^result: ' <<<"$out"; then
    pass "show prints $boards boards"
else
    fail "show: rc=$rc boards=$boards decisions=$ndec err=[$err]"
fi

run show_tampered show "$T/tampered.rec"
[ $rc -ne 0 ] && pass "show refuses a tampered record" || fail "show of a tampered record: rc=$rc"

if [ $failures -ne 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "all passed"
