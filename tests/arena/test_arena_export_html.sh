#!/usr/bin/env bash
# test_arena_export_html.sh - `arena export ID --html FILE`: one page with
# nothing from outside it (no URL it loads), opened from the file in a
# real browser (test_arena_export_html.mjs); a bot's log holding
# "</script>" stays text; bad arguments are one line, exit 2.
#
# usage: test_arena_export_html.sh ARENA RANDOM
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 ARENA RANDOM" >&2; exit 2; }
arena=$(readlink -f "$1") random=$(readlink -f "$2")
here=$(cd "$(dirname "$0")" && pwd)
modules=$(readlink -f "$here/../../web/node_modules")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-html.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"
A() { "$arena" --db "$tmp/a.db" "$@"; }
line='</script><b class="injected">x</b><script>alert(1)</script>'
# In a folder of its own with a copy of the random bot: the sandbox shows
# the bot its folder.
mkdir "$tmp/loud"
cp "$random" "$tmp/loud/random"
printf '#!/bin/sh\nprintf "%%s\\n" '"'%s'"' >&2\nexec ./random\n' "$line" >"$tmp/loud/loud"
chmod +x "$tmp/loud/loud"
A bot add loud --no-test --cwd "$tmp/loud" --cmd ./loud >/dev/null
A bot add quiet --no-test --cmd "$random" >/dev/null
A tournament --games 2 --concurrency 1 --memory-mb 0 --quiet loud quiet
A export 1 --html "$tmp/m1.html" >"$tmp/out" || fail "export --html"
grep -qx "wrote match 1 to $tmp/m1.html: open it in a browser" "$tmp/out" || fail "said: $(cat "$tmp/out")"
# Nothing the page loads: no src= or href= to anything, no url() in its style.
! grep -Eq '<(script|link|img)[^>]* (src|href)=|url\(' "$tmp/m1.html" ||
  fail "the page loads something: $(grep -Eo '(src|href)=[^ >]*|url\([^)]*' "$tmp/m1.html" | head -3)"
# Five scripts: the data, app.js, the shim, War Chest's board (no other
# game's), match.js.
[ "$(grep -c '</script>' "$tmp/m1.html")" = 5 ] || fail "a </script> inside the page's data"
grep -q '^ArenaBoards.warchest = ' "$tmp/m1.html" && ! grep -q '^ArenaBoards.goofspiel = ' "$tmp/m1.html" ||
  fail "the page holds another game's board, or not its own"
decisions=$(A matches --format csv | awk -F, '$1 == 1 { print $8 }')
node "$here/test_arena_export_html.mjs" "$tmp/m1.html" "$decisions" "$line" "$modules" ||
  fail "the page in a browser"
for args in "1 --html" "--tournament 1 --html $tmp/x.html $tmp/d" "99 --html $tmp/x.html"; do
  rc=0; A export $args 2>"$tmp/err" >/dev/null || rc=$?
  [ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && [ ! -e "$tmp/x.html" ] ||
    fail "export $args: $rc $(cat "$tmp/err")"
done
echo "test_arena_export_html: ok"
