# tests/lib.sh - what the shell tests share. Each sources it near its top,
# by its own path (before any cd):
#   . "$(dirname "$0")/../lib.sh"
#
# fail MESSAGE   "FAIL: MESSAGE" on stderr ("FAIL [STEP]: ..." while the test
#                names its step in CURRENT), then the last 20 lines of
#                FAIL_LOG if the test set it to a file that exists; exit 1.
# note MESSAGE   "  [STEP] MESSAGE": a step's progress, on stdout.

fail() {
  echo "FAIL${CURRENT:+ [$CURRENT]}: $*" >&2
  if [ -n "${FAIL_LOG:-}" ] && [ -f "$FAIL_LOG" ]; then
    tail -20 "$FAIL_LOG" >&2
  fi
  exit 1
}

note() { echo "  [${CURRENT:-}] $*"; }
