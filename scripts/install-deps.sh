#!/usr/bin/env bash
# Installs the Debian and npm packages the arena needs. Safe to re-run: it
# only calls apt-get or npm when something is missing.
#   scripts/install-deps.sh         what the build and the demo need (scripts/demo.sh):
#                                   the compiler and libraries, the bots' runtimes
#                                   (python3 with zmq and msgpack, node), the sandbox
#                                   (bubblewrap), uPlot (built into `arena serve`) and
#                                   the JavaScript SDK's packages;
#   scripts/install-deps.sh --test  that, and what scripts/test.sh needs besides:
#                                   valgrind, clang with libFuzzer, cppcheck and
#                                   clang-tidy (the lint), chromium and playwright-core
#                                   (the browser tests).
# The container test's podman is scripts/install-container-deps.sh (root only).
set -euo pipefail
cd "$(dirname "$0")/.."
test=0
case "${1:-}" in
  "") ;;
  --test) test=1 ;;
  *) echo "usage: scripts/install-deps.sh [--test]" >&2; exit 2 ;;
esac

packages=(
  build-essential cmake pkg-config
  libzmq3-dev libmsgpack-dev libsqlite3-dev libcmocka-dev libcivetweb-dev
  libarchive-dev libsodium-dev
  python3 python3-zmq python3-msgpack
  bubblewrap
)
[ $test = 1 ] && packages+=(valgrind clang libclang-rt-14-dev cppcheck clang-tidy chromium)

# node and npm: a machine that has them already (from elsewhere than
# Debian) keeps its own. Debian 12's are node 18 and npm 9.
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
  echo "install-deps: installing ${#missing[@]} Debian packages and what they need: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm packages, exactly as locked, again only when the lock file is newer
# than what is installed: the JavaScript SDK's (zeromq, msgpack), and the
# web's: uPlot, built into `arena serve`, and with --test its
# devDependency playwright-core, which drives chromium in the browser tests.
npm_ci() {                # folder, npm ci's extra arguments
  echo "install-deps: npm ci in $1${2:+ ($2)}"
  npm ci --prefix "$1" --no-audit --no-fund ${2:+"$2"} >/dev/null
}
stale() { [ ! -f "$1/node_modules/.package-lock.json" ] || [ "$1/package-lock.json" -nt "$1/node_modules/.package-lock.json" ]; }
stale sdk/js && npm_ci sdk/js
if [ $test = 1 ]; then
  { stale web || [ ! -d web/node_modules/playwright-core ]; } && npm_ci web
else
  stale web && npm_ci web --omit=dev
fi
exit 0
