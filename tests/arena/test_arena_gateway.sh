#!/usr/bin/env bash
# test_arena_gateway.sh - participants from anywhere, with real processes:
# an organizer's folder with the database and a real `arena gateway` over
# TCP with CURVE; participants in folders of their own holding nothing but
# their credentials file and their bot, submitting with `arena submit`.
# Two participants submit, list, send a second version; the other's name,
# a revoked participant and a stranger's key are refused; hostile archives
# over the wire (a link out, a path out, an absolute path, 300 MB of
# zeros, a compression bomb, 100,000 files, a fifo, a device) are each
# refused with its reason and nothing is written outside the store; the
# limits (one check at a time, the rate, the size of a message) answer
# with their own messages, and the gateway logs every refusal.
#
# usage: test_arena_gateway.sh ARENA SQL
# GATEWAY_WRAPPER (e.g. valgrind ...) runs the gateway under it
# (scripts/valgrind.sh).
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 ARENA SQL" >&2; exit 2; }
arena=$(readlink -f "$1") sqltool=$(readlink -f "$2")
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-gw.XXXXXX")
gw=
cleanup() {
  [ -n "$gw" ] && kill "$gw" 2>/dev/null && wait "$gw" 2>/dev/null
  chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"
}
trap cleanup EXIT
FAIL_LOG=$tmp/org/gw.log       # its tail shown with a failure
. "$(dirname "$0")/../lib.sh"
mkdir -p "$tmp/org" "$tmp/alice" "$tmp/bob" "$tmp/carol" "$tmp/mallory" "$tmp/stranger"
db=$tmp/org/arena.db
A() { "$arena" --db "$db" "$@"; }
sql() { "$sqltool" "$db" "$1"; }
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
endpoint=tcp://127.0.0.1:$port

# ---- the organizer ---------------------------------------------------------
for who in alice bob carol mallory; do
  A user add $who --endpoint "$endpoint" --out "$tmp/$who/arena.cred" >/dev/null
done
[ "$(stat -c %a "$tmp/alice/arena.cred")" = 600 ] || fail "credentials not private"
[ -f "$db.key" ] && [ -f "$db.key.pub" ] || fail "no arena key pair beside the database"
rc=0; A user add alice --endpoint "$endpoint" --out "$tmp/again.cred" 2>"$tmp/err" || rc=$?
[ $rc = 2 ] && grep -q "registered already" "$tmp/err" && [ ! -e "$tmp/again.cred" ] ||
  fail "a second alice: $rc $(cat "$tmp/err")"
# A stranger: credentials of another arena, whose key this one does not know.
"$arena" --db "$tmp/stranger/other.db" user add stranger --endpoint "$endpoint" \
  --out "$tmp/stranger/arena.cred" >/dev/null

# shellcheck disable=SC2086
(cd "$tmp/org" && exec ${GATEWAY_WRAPPER:-} "$arena" --db "$db" gateway --listen "tcp://127.0.0.1:$port" \
   --max-bytes 8000000 --rate 9 --concurrent 1 2>"$tmp/org/gw.log") &
gw=$!
for _ in $(seq 300); do grep -q listening "$tmp/org/gw.log" 2>/dev/null && break; sleep 0.1; done
grep -q "listening on tcp://127.0.0.1:$port" "$tmp/org/gw.log" || fail "the gateway did not start"

# ---- participants, each in a folder of their own -----------------------------
# A bot folder: the Python sample bot with its SDK beside it.
make_bot() {
  mkdir -p "$1"
  cp "$src/agents/python/random_bot.py" "$1/bot.py"
  cp -r "$src/sdk/python/arena_bot" "$1/arena_bot"
  rm -rf "$1/arena_bot/__pycache__"
}
make_bot "$tmp/alice/mybot"
make_bot "$tmp/bob/src"
echo "# bob's" >>"$tmp/bob/src/bot.py"
(cd "$tmp/bob/src" && tar czf ../bot.tar.gz .)
submit() {   # submit WHO ARGS...: in WHO's folder, with WHO's credentials
  local who=$1; shift
  (cd "$tmp/$who" && "$arena" submit --credentials arena.cred "$@")
}

out=$(submit alice --name rnd --version 1 --game warchest --cmd "python3 bot.py" mybot) ||
  fail "alice's first version: $out"
grep -q "^accepted: rnd@1, checked in warchest " <<<"$out" &&
  grep -q "bot test rnd@1 in warchest: seat 1 v random: started" <<<"$out" ||
  fail "alice's verdict and the check's report: $out"
[ "$(sql "SELECT group_concat(g.game, ' ') FROM bot_games g JOIN bots b ON b.id = g.bot_id
          WHERE b.name = 'rnd'")" = warchest ] || fail "rnd@1 is registered for its declared game alone"
hash=$(sed -n 's/^content hash //p' <<<"$out")
[ ${#hash} = 64 ] && [ -d "$db.store/$hash" ] || fail "not stored under its hash: $out"
[ -z "$(find "$db.store/$hash" -perm /222)" ] || fail "the stored copy is writable"
out=$(submit alice --name rnd --version 2 --game warchest --cmd "python3 bot.py" mybot) ||
  fail "alice's second version: $out"
grep -q "^accepted: rnd@2.*a new version" <<<"$out" || fail "second version: $out"
[ "$(ls "$db.store" | wc -l)" = 1 ] || fail "the same files stored twice: $(ls "$db.store")"
[ "$(sql "SELECT games FROM submissions WHERE version = '2'")" = warchest ] || fail "games kept"

rc=0; out=$(submit bob --name rnd --version 9 --cmd "python3 bot.py" bot.tar.gz) || rc=$?
[ $rc = 1 ] && grep -q "refused: the name rnd is taken by another participant" <<<"$out" ||
  fail "bob on alice's name: $rc $out"
out=$(submit bob --name bobbot --version 1 --cmd "python3 bot.py" bot.tar.gz) ||
  fail "bob's archive: $out"
grep -q "^accepted: bobbot@1" <<<"$out" || fail "bob: $out"
# No --game: checked in every game, registered for those it passed.
games=$(sed -n 's/^accepted: bobbot@1, checked in \(.*\) (plays both.*/\1/p' <<<"$out")
[ -n "$games" ] && [ "$(sql "SELECT g.game FROM bot_games g JOIN bots b ON b.id = g.bot_id
          WHERE b.name = 'bobbot' ORDER BY g.game")" = "$(tr ' ' '\n' <<<"$games" | sort)" ] ||
  fail "bobbot's games ('$games') are the ones its check passed: $out"
[ "$(ls "$db.store" | wc -l)" = 2 ] || fail "bob's files not stored apart"

out=$(submit alice --list) || fail "alice's list: $out"
grep -q "^rnd@1 " <<<"$out" && grep -q "^rnd@2 " <<<"$out" && ! grep -q bobbot <<<"$out" ||
  fail "alice sees her bots alone: $out"
# Each with its declared games and when its check ran (UTC), as the database has them.
today=$(date -u +%Y-%m-%d)
grep -q "^rnd@1 .* $today [0-9:]\{8\} *${hash:0:12}  warchest$" <<<"$out" &&
  grep -q "^[ ]*bot .*status .*matches .*elo .*checked (UTC) .*content .*games$" <<<"$out" ||
  fail "alice's list shows no games or check time: $out"
A bot list --format csv >"$tmp/bots.csv"
python3 - "$tmp/bots.csv" "$hash" <<'PY' || fail "bot list: $(cat "$tmp/bots.csv")"
import csv, sys
rows = {r["bot"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert rows["rnd@1"]["owner"] == "alice" and rows["rnd@1"]["content_hash"] == sys.argv[2], rows
assert rows["bobbot"]["owner"] == "bob", rows
PY

# Only the owner disables or retires a bot.
rc=0; out=$(submit bob --disable rnd@1 --reason mine) || rc=$?
[ $rc = 1 ] && grep -q "refused: you have no bot rnd@1" <<<"$out" || fail "bob disables alice's: $out"
out=$(submit alice --disable rnd@1 --reason "an old one") || fail "alice disables: $out"
[ "$(sql "SELECT status || ': ' || status_reason FROM bots WHERE version = '1' AND name = 'rnd'")" = \
  "disabled: by its owner: an old one" ] || fail "disabled: $out"

# Revoked: refused from the next request on, with a message.
A user revoke carol >/dev/null
make_bot "$tmp/carol/b"
rc=0; out=$(submit carol --name carolbot --version 1 --cmd "python3 bot.py" b) || rc=$?
[ $rc = 1 ] && grep -q "refused: the access of carol was revoked" <<<"$out" ||
  fail "carol revoked: $rc $out"
A user list | grep -q "^carol  *revoked" || fail "user list: $(A user list)"
# A stranger's credentials (another arena's), and a key this arena does
# not know with its right public key: refused at the handshake, said
# plainly; the unknown key is logged.
rc=0; submit stranger --list >"$tmp/out" 2>&1 || rc=$?
[ $rc = 2 ] && grep -q "refused these credentials" "$tmp/out" || fail "stranger: $rc $(cat "$tmp/out")"
"$arena" keygen "$tmp/stranger/k" >/dev/null
python3 - "$tmp/alice/arena.cred" "$tmp/stranger/k" >"$tmp/stranger/arena.cred" <<'PY'
import sys
key = [l for l in open(sys.argv[2]) if not l.startswith("#")][0].strip()
for line in open(sys.argv[1]):
    print("secret-key " + key if line.startswith("secret-key ") else line, end="")
PY
rc=0; submit stranger --list >"$tmp/out" 2>&1 || rc=$?
[ $rc = 2 ] && grep -q "refused these credentials" "$tmp/out" || fail "unknown key: $rc $(cat "$tmp/out")"
grep -q "a connection with an unknown key refused" "$tmp/org/gw.log" || fail "unknown key: no log"

# One check at a time: while alice's third version is checked, bob waits.
submit alice --name rnd --version 3 --cmd "python3 bot.py" mybot >"$tmp/third" 2>&1 &
third=$!
for _ in $(seq 400); do grep -q "checking rnd@3" "$tmp/org/gw.log" && break; sleep 0.05; done
rc=0; out=$(submit bob --name bobbot --version 2 --cmd "python3 bot.py" bot.tar.gz) || rc=$?
[ $rc = 1 ] && grep -q "the gateway is checking 1 submissions already" <<<"$out" ||
  fail "bob while alice is checked: $rc $out"
# ... and alice herself is told her own check runs (not the gateway's count).
rc=0; out=$(submit alice --name rnd --version 4 --cmd "python3 bot.py" mybot) || rc=$?
[ $rc = 1 ] && grep -q "your submission rnd@3 is still being checked" <<<"$out" ||
  fail "alice while her third is checked: $rc $out"
wait $third || fail "alice's third version: $(cat "$tmp/third")"

# The Python SDK's helper: the same request from Python.
out=$(cd "$tmp/bob" && PYTHONPATH="$src/sdk/python" /usr/bin/python3 -m arena_bot.submit \
        --credentials arena.cred --name bobbot --version 2 --cmd "python3 bot.py" src) ||
  fail "bob from Python: $out"
grep -q "^accepted: bobbot@2" <<<"$out" || fail "bob from Python: $out"
out=$(cd "$tmp/bob" && PYTHONPATH="$src/sdk/python" /usr/bin/python3 -m arena_bot.submit \
        --credentials arena.cred --list) || fail "bob's list from Python: $out"
grep -q "^bobbot@2 " <<<"$out" || fail "bob's list from Python: $out"
# The JavaScript SDK's helper (sdk/js/submit.js): a folder (packed by tar, the same
# files as bobbot@1), and the list.
js_versions=0
if command -v node >/dev/null && [ -d "$src/sdk/js/node_modules/zeromq" ]; then
  out=$(cd "$tmp/bob" && node "$src/sdk/js/submit.js" --credentials arena.cred --name bobbot \
          --version 3 --game warchest --cmd "python3 bot.py" src) || fail "bob from JS: $out"
  grep -q "^accepted: bobbot@3, checked in warchest " <<<"$out" &&
    [ "$(sed -n 's/^content hash //p' <<<"$out")" = "$(sql "SELECT content_hash FROM bots
      WHERE name = 'bobbot' AND version = '1'")" ] || fail "bob from JS: $out"
  out=$(cd "$tmp/bob" && node "$src/sdk/js/submit.js" --credentials arena.cred --list) ||
    fail "bob's list from JS: $out"
  grep -q "^bobbot@3 .*  warchest$" <<<"$out" || fail "bob's list from JS: $out"
  js_versions=1
  rc=0; out=$(cd "$tmp/bob" && node "$src/sdk/js/submit.js" --credentials arena.cred \
                --name x 2>&1) || rc=$?
  [ $rc = 2 ] && grep -q "are needed" <<<"$out" || fail "JS helper without a folder: $rc $out"
else
  note "the JS helper untried: no node or sdk/js/node_modules (npm ci --prefix sdk/js)"
fi

# ---- hostile submissions over the wire ---------------------------------------
python3 - "$tmp/mallory" <<'PY'
import io, os, sys, tarfile
out = sys.argv[1]

class Zeros(io.RawIOBase):
    def __init__(self, n): self.left = n
    def readable(self): return True
    def readinto(self, b):
        n = min(len(b), self.left); b[:n] = bytes(n); self.left -= n; return n

def archive(name, entries):
    with tarfile.open(os.path.join(out, name), "w:gz", compresslevel=1,
                      format=tarfile.GNU_FORMAT) as t:
        for info, data in entries:
            t.addfile(info, data)

def entry(path, kind=tarfile.REGTYPE, size=0, link="", data=None):
    i = tarfile.TarInfo(path); i.type = kind; i.size = size; i.linkname = link; i.mode = 0o644
    return i, (data if data is not None else (Zeros(size) if size else None))

ok = entry("bot.py", size=0)
archive("linkout.tar.gz", [ok, entry("escape-link", tarfile.SYMTYPE, link="/etc")])
archive("pathout.tar.gz", [ok, entry("../escape-path", size=4, data=io.BytesIO(b"evil"))])
archive("absolute.tar.gz", [ok, entry(out + "/escape-abs", size=4, data=io.BytesIO(b"evil"))])
archive("zeros.tar.gz", [ok, entry("zeros", size=300 << 20)])
archive("bomb.tar.gz", [ok] + [entry("part%d" % i, size=1 << 20) for i in range(64)])
archive("many.tar.gz", [entry("f%06d" % i) for i in range(100000)])
archive("fifo.tar.gz", [ok, entry("escape-fifo", tarfile.FIFOTYPE)])
archive("device.tar.gz", [ok, entry("escape-dev", tarfile.CHRTYPE)])
PY
hostile() {   # hostile ARCHIVE REASON
  local rc=0 out
  out=$(submit mallory --name evil --version "v$RANDOM" --cmd "sh bot.py" "$1") || rc=$?
  [ $rc = 1 ] && grep -q "refused: .*$2" <<<"$out" || fail "$1: $rc $out"
  grep -q "mallory: refused: .*$2" "$tmp/org/gw.log" || fail "$1: no log line"
}
hostile linkout.tar.gz "a link that points outside"
hostile pathout.tar.gz "a path with '..'"
hostile absolute.tar.gz "an absolute path"
hostile zeros.tar.gz "too big: more than 8000000 bytes unpacked"
hostile bomb.tar.gz "too big: more than 8000000 bytes unpacked"
hostile many.tar.gz "too many files: more than 10000"
hostile fifo.tar.gz "a device, fifo or socket"
hostile device.tar.gz "a device, fifo or socket"
# The same from a folder: refused by `arena submit` itself, nothing sent.
mkdir "$tmp/mallory/fifodir" && cp "$tmp/alice/mybot/bot.py" "$tmp/mallory/fifodir/" &&
  mkfifo "$tmp/mallory/fifodir/pipe"
rc=0; submit mallory --name evil --version f --cmd "sh bot.py" fifodir 2>"$tmp/err" || rc=$?
[ $rc = 2 ] && grep -q "a device, fifo or socket: pipe" "$tmp/err" || fail "fifo folder: $(cat "$tmp/err")"
# Over the message limit: the gateway's libzmq drops it, the participant is told.
head -c 10000000 /dev/urandom >"$tmp/mallory/big.bin"
(cd "$tmp/mallory" && tar czf big.tar.gz big.bin)
rc=0; submit mallory --name evil --version big --cmd x --max-bytes 20000000 big.tar.gz \
  >"$tmp/out" 2>&1 || rc=$?
[ $rc = 2 ] && grep -q "over its size limit" "$tmp/out" || fail "a message too big: $rc $(cat "$tmp/out")"
# The rate: 9 submissions an hour; mallory sent 8 (the refused count too).
out=$(submit mallory --name evil --version last --cmd "sh bot.py" linkout.tar.gz) && fail "9th"
grep -q "a link that points outside" <<<"$out" || fail "the 9th: $out"
rc=0; out=$(submit mallory --name evil --version over --cmd "sh bot.py" linkout.tar.gz) || rc=$?
[ $rc = 1 ] && grep -q "at most 9 submissions an hour" <<<"$out" || fail "rate: $rc $out"

# Nothing written outside the store: no escape-* anywhere, only whole
# stored folders in the store.
# (find may meet others' files vanishing from /tmp: its status says nothing)
found=$({ find "$tmp" /tmp -maxdepth 4 -name 'escape*' 2>/dev/null || true; } | head -5)
[ -z "$found" ] || fail "written outside the store: $found"
[ "$(ls -A "$db.store" | wc -l)" = 2 ] || fail "the store: $(ls -A "$db.store")"
[ "$(sql "SELECT count(*) FROM bots WHERE owner_id IS NOT NULL")" = $((5 + js_versions)) ] ||
  fail "registered"
[ "$(sql "SELECT count(*) FROM submissions WHERE accepted = 0 AND bot = 'evil'")" = 9 ] ||
  fail "mallory's refusals kept: $(sql "SELECT count(*) FROM submissions WHERE bot = 'evil'")"

kill -TERM "$gw"
rc=0; wait "$gw" || rc=$?
gw=
[ $rc = 0 ] || fail "the gateway's exit on SIGTERM: $rc"
echo "ok"
