# serve.sh - sourced by the web's shell tests: starts `arena serve`.
#
# serve DB OUT: "$ARENA" serving DB on an ephemeral loopback port, its
# output in OUT; sets SERVER (its pid) and URL. WEB_SERVER_WRAPPER: a
# command to run the server under (scripts/valgrind.sh).
serve() {
  ${WEB_SERVER_WRAPPER:-} "$ARENA" --db "$1" serve --listen 127.0.0.1:0 > "$2" 2>&1 &
  SERVER=$!
  for _ in $(seq 300); do
    grep -q 'http://' "$2" && break
    kill -0 "$SERVER" || { cat "$2"; exit 1; }
    sleep 0.1
  done
  URL=$(grep -o 'http://[0-9.:]*' "$2")
  [ -n "$URL" ] || { echo "serve did not start"; cat "$2"; exit 1; }
}
