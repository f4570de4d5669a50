#!/usr/bin/env bash
# Installs what scripts/test-containers.sh needs on a Debian 12 host, as
# root: podman with runc (crun fails on cgroup v1 hosts) and catatonit (the
# pods' pause process), netavark and aardvark-dns (networks where containers
# find each other by name) with iptables, which netavark runs to set up a
# network's bridge and NAT rules (Debian's netavark does not depend on it:
# without it every build or run with a network fails with "netavark: No
# such file or directory"), mmdebstrap (the Debian base image, since no
# registry may be reachable) and podman-compose. Only what is missing.
set -euo pipefail

packages=(podman runc catatonit netavark aardvark-dns iptables mmdebstrap podman-compose)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "install-container-deps: run as root to install: ${missing[*]}" >&2
  exit 1
fi
echo "install-container-deps: installing ${#missing[@]} Debian packages and what they need: ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
