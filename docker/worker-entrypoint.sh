#!/bin/sh
# arena-worker: the worker image's command. With no arguments, a referee
# worker that connects to $ARENA_CONNECT (the arena's worker address),
# logs each match, and stays for the next arena when one says stop, as a
# service in a Deployment or a compose file should. With the keys in
# /etc/arena/keys (arena.pub, the arena's public key, and worker.key, this
# worker's secret key: `arena keygen`), the link is CURVE: encrypted, and
# only workers the arena lists are admitted. Any arguments are run instead
# (podman run IMAGE referee play ...).
set -eu
if [ $# -gt 0 ]; then
    exec "$@"
fi
keys=${ARENA_KEYS:-/etc/arena/keys}
set -- --connect "${ARENA_CONNECT:?set ARENA_CONNECT to the arena's worker address}" --stay --verbose
if [ -f "$keys/arena.pub" ] && [ -f "$keys/worker.key" ]; then
    set -- "$@" --curve-server "$keys/arena.pub" --curve-key "$keys/worker.key"
fi
exec referee worker "$@"
