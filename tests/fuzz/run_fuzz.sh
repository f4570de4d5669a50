#!/usr/bin/env bash
# Runs one libFuzzer target for a bounded time from its seed corpus.
#   run_fuzz.sh TARGET CORPUS_DIR SECONDS
# New inputs go to a temporary directory (the tree's corpus is only read);
# a crash, leak or broken oracle fails, leaving the input as crash-* here,
# to be added to the corpus once fixed.
set -euo pipefail
target=$1 corpus=$2 seconds=$3
name=$(basename "$target")
new=$(mktemp -d "${TMPDIR:-/tmp}/$name-XXXXXX")
trap 'rm -rf "$new"' EXIT
"$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -print_final_stats=1 -artifact_prefix="$PWD/$name-" "$new" "$corpus" 2>"$new.log" || {
  tail -40 "$new.log"; rm -f "$new.log"; exit 1; }
grep -E "^stat::number_of_executed_units|^#[0-9]+.*DONE" "$new.log" || true
rm -f "$new.log"
