#!/usr/bin/env bash
# Static analysis of every C file the build compiles: cppcheck, then
# clang-tidy with the checks of .clang-tidy. Zero findings is the rule: fix
# the code, or excuse one site in the code with its reason beside it
# (cppcheck-suppress ID / NOLINT(check)). Prints each finding and a count;
# exits 1 when there are findings, 2 when a tool is missing.
#   scripts/lint.sh [FILE...]     (default: the whole tree)
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in cppcheck clang-tidy cmake python3; do
  command -v $tool >/dev/null ||
    { echo "lint: $tool is missing (scripts/install-deps.sh --test installs it)" >&2; exit 2; }
done
dir=build-lint
cmake -S . -B $dir -DCMAKE_BUILD_TYPE=Debug -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
# The compilation database, without generated sources (they are not ours to
# lint, and do not exist until a build makes them).
python3 - "$dir" "$PWD" <<'PY'
import json, os, sys
d, root = sys.argv[1], sys.argv[2]
db = [e for e in json.load(open(f"{d}/compile_commands.json"))
      if e["file"].startswith(root + "/") and not e["file"].startswith(f"{root}/build")
      and os.path.exists(e["file"])]
json.dump(db, open(f"{d}/lint_commands.json", "w"))
open(f"{d}/lint_files.txt", "w").write("".join(e["file"] + "\n" for e in db))
PY
if [ $# -gt 0 ]; then printf '%s\n' "$@"; else cat $dir/lint_files.txt; fi >$dir/files.txt
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
jobs=$(nproc)

cppcheck --project=$dir/lint_commands.json --file-filter="*" --enable=warning,performance,portability \
  --inline-suppr --suppress=missingIncludeSystem --quiet -j"$jobs" \
  --template='{file}:{line}:{column}: {severity}: {message} [{id}]' 2>"$out/cppcheck" || true
if [ $# -gt 0 ]; then
  grep -F -f $dir/files.txt "$out/cppcheck" >"$out/cppcheck.mine" || true
  mv "$out/cppcheck.mine" "$out/cppcheck"
fi

xargs -P"$jobs" -n4 clang-tidy -p $dir --quiet <$dir/files.txt 2>/dev/null |
  grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' | sort -u >"$out/tidy" || true

cat "$out/cppcheck" "$out/tidy"
n1=$(grep -c . "$out/cppcheck" || true)
n2=$(grep -c . "$out/tidy" || true)
echo "lint: $(wc -l <$dir/files.txt) files, cppcheck $n1 findings, clang-tidy $n2 findings"
[ "$n1" = 0 ] && [ "$n2" = 0 ]
