#!/usr/bin/env bash
# Makes the Debian 12 base image the arena's images are built FROM, where no
# container registry is reachable: mmdebstrap (minbase) from the Debian
# mirror this machine's apt uses, imported into podman as IMAGE (default
# localhost/debian:bookworm). Does nothing when IMAGE exists already.
#   usage: scripts/container-base.sh [IMAGE]
#   DEBIAN_MIRROR=http://... overrides the mirror.
set -euo pipefail
image=${1:-localhost/debian:bookworm}

# Two runs at once build it once.
lock=${XDG_CACHE_HOME:-$HOME/.cache}/arena/container-base.lock
mkdir -p "$(dirname "$lock")"
exec 9>"$lock"
flock 9
if podman image exists "$image"; then
  exit 0
fi

# The machine's Debian mirror: the first deb.822 URIs or one-line source
# ending in /debian (security and updates follow from it in mmdebstrap).
mirror=${DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
  mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources \
             2>/dev/null | grep -v '^\s*#' | grep -oE '(https?|file)://[^ ]*/debian/?( |$)' | head -n 1 |
           tr -d ' ' || true)
fi
args=()
if [ -n "$mirror" ] && [ "${mirror%/}" != "http://deb.debian.org/debian" ]; then
  args=("${mirror%/}")
fi
echo "container-base: building $image with mmdebstrap${mirror:+ from $mirror}"
start=$(date +%s)
# mmdebstrap writes the tarball to stdout; podman import reads it.
mmdebstrap --quiet --variant=minbase bookworm - "${args[@]}" | podman import --quiet - "$image" >/dev/null
echo "container-base: $image ready in $(( $(date +%s) - start )) s"
