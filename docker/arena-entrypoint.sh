#!/bin/sh
# arena-coordinator: the arena image's command.
#
#   1. Registers the bots listed in $ARENA_BOTS (default /etc/arena/bots)
#      that the database does not have yet: one bot a line, its name and
#      then its command ("greedy /opt/arena/build/agents/greedy"); lines
#      starting with # are comments.
#   2. Runs `arena ARGS` (a compose `command:` or a pod's `args:`), or
#      `arena $ARENA_COMMAND` when no arguments are given (the image sets a
#      default; the Kubernetes ConfigMap sets its own): a ladder or a
#      tournament.
#   3. With ARENA_KEEP_RUNNING=1, stays up after a command that ends (a
#      tournament), so that an orchestrator does not run it again and the
#      database stays reachable (kubectl exec ... arena standings). A stop
#      meanwhile ends it as soon as arena has ended (a ladder's --grace).
# The database is /data/arena.db (the working directory is /data).
set -eu
bots=${ARENA_BOTS:-/etc/arena/bots}
if [ -f "$bots" ]; then
    known=$(arena bot list 2>/dev/null | awk 'NR > 1 { print $1 }')
    grep -v '^[[:space:]]*\(#\|$\)' "$bots" | while read -r name cmd; do
        if printf '%s\n' "$known" | grep -qxF "$name"; then
            continue
        fi
        # Registered untried: the workers run the bots, in their own
        # containers; the coordinator's may not be able to sandbox one.
        arena bot add "$name" --no-test --cmd "$cmd"
    done
fi
if [ $# -eq 0 ] && [ -n "${ARENA_COMMAND:-}" ]; then
    # Split into words, without quoting and without globbing (tcp://*:7000).
    set -f
    # shellcheck disable=SC2086
    set -- $ARENA_COMMAND
    set +f
fi
if [ "${ARENA_KEEP_RUNNING:-0}" != 1 ]; then
    exec arena "$@"
fi
# A stop (SIGTERM) while the command runs reaches arena too (tini -g signals
# the group): wait for it to finish its grace, then end with its status.
status=0
arena "$@" &
pid=$!
trap 'wait "$pid"; exit $?' TERM INT
wait "$pid" || status=$?
trap - TERM INT
echo "arena-coordinator: arena $* ended (status $status); staying up (ARENA_KEEP_RUNNING=1)"
exec sleep infinity
