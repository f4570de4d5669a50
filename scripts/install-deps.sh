#!/usr/bin/env bash
# Installs the Debian packages the arena needs to build, test and run.
# Safe to re-run: it only calls apt-get when something is missing.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libzmq3-dev libmsgpack-dev libsqlite3-dev libcmocka-dev libcivetweb-dev
  valgrind python3 python3-zmq python3-msgpack
  bubblewrap
  clang libclang-rt-14-dev
  cppcheck clang-tidy
  chromium
)

# JavaScript bots need node and npm; a machine that has them already (from
# elsewhere than Debian) keeps its own.
command -v node >/dev/null && command -v npm >/dev/null || packages+=(nodejs npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo=sudo
  fi
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm packages, exactly as locked, again only when the lock file is newer
# than what is installed: the JavaScript SDK's, and the web's (uPlot, built
# into `arena serve`; playwright-core, which drives chromium in the tests).
cd "$(dirname "$0")/.."
for dir in sdk/js web; do
  if [ ! -f $dir/node_modules/.package-lock.json ] ||
     [ $dir/package-lock.json -nt $dir/node_modules/.package-lock.json ]; then
    echo "install-deps: npm ci in $dir"
    npm ci --prefix $dir --no-audit --no-fund >/dev/null
  fi
done
