#!/bin/sh
# arena-worker: the worker image's command. With no arguments, a referee
# worker that connects to $ARENA_CONNECT (the arena's worker address),
# logs each match, and stays for the next arena when one says stop, as a
# service in a Deployment or a compose file should. With the keys in
# /etc/arena/keys (arena.pub, the arena's public key, and worker.key, this
# worker's secret key: `arena keygen`), the link is CURVE: encrypted, and
# only workers the arena lists are admitted. Submitted bots (named by
# content hash) are fetched from the arena into $ARENA_CACHE (default
# /var/cache/arena, at most $ARENA_CACHE_MB, default 1024; "none": run them
# from the arena's store, a volume mounted at the same path). Any arguments are run instead
# (podman run IMAGE referee play ...), after the same cgroup step.
#
# Control groups for the bot sandbox: the runtime mounts the cgroup
# controllers read-only. Where a controller's mount shows exactly this
# container's own group (a private cgroup namespace, or the runtime's bind
# of the container's group) and the container has CAP_SYS_ADMIN, it is
# made writable in this container's mount namespace only: the referee
# then makes a limited group per bot below the container's own, which
# still bounds them all. A mount that shows more than the container's own
# group is left alone, and the referee says what is missing
# (docker/README.md, "Security"). ARENA_CGROUP_WRITABLE=no skips this.
set -eu
own_cgroup_mounts() {
    # Mount points of read-only cgroup mounts whose root is this process's
    # group in that hierarchy (/proc/self/cgroup: id:controllers:path).
    awk 'NR == FNR { split($0, f, ":"); own[f[2]] = substr($0, length(f[1] f[2]) + 3); next }
         {
             for (i = 7; $i != "-"; i++) ;
             type = $(i + 1); n = split($(i + 3), o, ","); key = ""
             if (type != "cgroup" && type != "cgroup2") next
             for (j = 1; type == "cgroup" && j <= n; j++) {
                 if (o[j] != "rw" && o[j] != "ro" && (o[j] !~ /=/ || o[j] ~ /^name=/))
                     key = key (key == "" ? "" : ",") o[j]
             }
             if ((key in own) && own[key] == $4 && $6 ~ /^ro(,|$)/) print $5
         }' /proc/self/cgroup /proc/self/mountinfo
}
if [ "${ARENA_CGROUP_WRITABLE:-auto}" != no ]; then
    for point in $(own_cgroup_mounts); do
        mount -o remount,bind,rw "$point" 2>/dev/null || true
    done
fi
if [ $# -gt 0 ]; then
    exec "$@"
fi
keys=${ARENA_KEYS:-/etc/arena/keys}
set -- --connect "${ARENA_CONNECT:?set ARENA_CONNECT to the worker address of the arena}" --stay --verbose
if [ -f "$keys/arena.pub" ] && [ -f "$keys/worker.key" ]; then
    set -- "$@" --curve-server "$keys/arena.pub" --curve-key "$keys/worker.key"
fi
cache=${ARENA_CACHE:-/var/cache/arena}
if [ "$cache" != none ]; then
    set -- "$@" --cache "$cache" --cache-mb "${ARENA_CACHE_MB:-1024}"
fi
exec referee worker "$@"
