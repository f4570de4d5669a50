#!/usr/bin/env bash
# Records out and the small things: `arena export ID [FILE]` writes a record
# that `referee replay` and `referee show` read, with or without trailing
# blank lines; anything else is "not a match record"; --version on every
# program; a bot name over 63 characters is refused, not cut.
# Usage: test_arena_export.sh ARENA REFEREE WARCHEST RANDOM
set -euo pipefail
arena=$1 ref=$2 warchest=$3 random=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-export-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"
A() { "$arena" --db "$tmp/a.db" "$@"; }

A bot add r1 --no-test --cmd "$random" >/dev/null
A bot add r2 --no-test --cmd "ARENA_BOT_SEED=5 $random" >/dev/null
A tournament --games 2 --concurrency 2 --memory-mb 0 --quiet r1 r2

# 1. Exported to a file and to standard output: the same bytes, which replay.
A export 1 "$tmp/m1.rec"
A export 1 > "$tmp/m1-stdout.rec"
cmp -s "$tmp/m1.rec" "$tmp/m1-stdout.rec" || fail "export to a file and to stdout differ"
head -1 "$tmp/m1.rec" | grep -qx "arena-record 1" || fail "the export is not a record"
"$ref" replay "$tmp/m1.rec" | grep -q "verified" || fail "an exported record does not replay"
"$ref" show "$tmp/m1.rec" | grep -q "^result: " || fail "an exported record does not show"
hash=$(A replay 1 | sed 's/.*hash //')
grep -qx "hash $hash" "$tmp/m1.rec" || fail "the export's hash is not the stored match's"

# 1b. A tournament's or a ladder's every match into a folder (made when
# missing), each the record `arena export ID` writes, each replaying.
A export --tournament 1 "$tmp/t1" >"$tmp/out" || fail "export --tournament"
grep -qx "wrote 2 records to $tmp/t1 (referee replay FILE, referee show FILE)" "$tmp/out" ||
  fail "export --tournament said: $(cat "$tmp/out")"
[ "$(ls "$tmp/t1")" = "$(printf 'match-1.rec\nmatch-2.rec')" ] || fail "t1: $(ls "$tmp/t1")"
cmp -s "$tmp/t1/match-1.rec" "$tmp/m1.rec" || fail "the folder's match 1 is not export 1's"
for f in "$tmp"/t1/*.rec; do "$ref" replay "$f" | grep -q verified || fail "$f does not replay"; done
A ladder --matches 2 --concurrency 2 --memory-mb 0 2>/dev/null || fail "a ladder of 2 matches"
A export --ladder war "$tmp/lad" >/dev/null || fail "export --ladder"
[ "$(ls "$tmp/lad" | wc -l)" = 2 ] && [ ! -e "$tmp/lad/match-1.rec" ] || fail "lad: $(ls "$tmp/lad")"
for args in "--tournament 9 $tmp/x" "--tournament 1" "--ladder nope $tmp/x" "--tournament 1 --ladder w $tmp/x"; do
  rc=0; A export $args 2>"$tmp/err" || rc=$?
  [ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && [ ! -e "$tmp/x" ] ||
    fail "export $args: $rc $(cat "$tmp/err")"
done

# 2. Trailing blank lines (an editor's, a shell's) are accepted.
{ cat "$tmp/m1.rec"; printf '\n\n  \n'; } > "$tmp/blank.rec"
"$ref" replay "$tmp/blank.rec" | grep -q "verified" || fail "trailing blank lines refused"
"$ref" show "$tmp/blank.rec" >/dev/null || fail "show refuses trailing blank lines"

# 3. Anything else is not a match record, said so.
printf 'hello world\n' > "$tmp/text.txt"
: > "$tmp/empty.rec"
for f in text.txt empty.rec; do
  err=$("$ref" replay "$tmp/$f" 2>&1) && fail "$f replayed"
  [[ "$err" == *"not a match record"* ]] || fail "unclear error for $f: $err"
done
A export 1 "$tmp/no/such/dir/m.rec" 2>"$tmp/err" && fail "export into a missing folder succeeded"
grep -q "cannot write $tmp/no/such/dir/m.rec" "$tmp/err" || fail "unclear error: $(cat "$tmp/err")"
err=$(A export 99 2>&1) && fail "a missing match exported"
[[ "$err" == *"no match 99"* ]] || fail "unclear error: $err"

# 4. --version everywhere.
"$arena" --version | grep -Eq '^arena [0-9]+\.[0-9]+\.[0-9]+ \(database schema [0-9]+\)$' ||
  fail "arena --version: $("$arena" --version)"
"$ref" --version | grep -Eq '^referee [0-9]+\.[0-9]+\.[0-9]+ ' || fail "referee --version"
"$warchest" --version | grep -Eq '^warchest [0-9]+\.[0-9]+\.[0-9]+$' || fail "warchest --version"

# 5. A name over 63 characters is refused whole, not cut.
long=$(printf 'b%.0s' $(seq 64))
err=$(A bot add "$long" --no-test --cmd "$random" 2>&1) && fail "a 64-character name was accepted"
[[ "$err" == *"longer than 63 characters"* ]] || fail "unclear error: $err"
A bot add "${long:1}" --no-test --cmd "$random" >/dev/null || fail "a 63-character name was refused"
echo "export: records out, blank lines, not a record, --version, long names"
