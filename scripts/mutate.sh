#!/usr/bin/env bash
# scripts/mutate.sh - plants one-line bugs, one at a time, and prints which
# the tests catch: the kill rate, part by part.
#
# Usage: scripts/mutate.sh [--list FILE] [--part PART] [--name NAME] [--asan] [--check] [-j N] [PART]
#   --list FILE  the mutations (default tests/mutations.txt, whose top says the format)
#   --part PART  only that part's mutations (engine, referee, sdk, ...); a bare
#                PART says the same (`scripts/mutate.sh goofspiel`)
#   --name NAME  only that one
#   --asan       build with AddressSanitizer + UBSan (leaks, overflows): slower, and it
#                plants too the mutations marked "build: asan", which only it can see
#   --check      only check that each mutation still applies (its text found once)
#   -j N         build and test jobs (default: the number of cores)
#
# The tree itself is never touched. The tracked and untracked files are copied
# to build-mutate/src (only those that changed since the last run), built in
# build-mutate/build, and the tests of every mutation are run there once
# without it (they must pass). Then, for each mutation: plant it, rebuild, run
# its tests (ctest -R), put the file back. A mutant the tests turn red is
# killed; one they leave green survived: a bug the suite lets through,
# unless its block says why it is equivalent (no behaviour changed), when it
# is shown apart and left out of the rate.
#
# A habit, not a CI step: before landing a change to a part, run
# `scripts/mutate.sh --part PART`; when you fix a bug, add it to the list.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
list=tests/mutations.txt part="" only="" check=0 asan=0 jobs=$(nproc)
while [ $# -gt 0 ]; do
  case $1 in
    --list) list=$2; shift 2 ;;
    --part) part=$2; shift 2 ;;
    --name) only=$2; shift 2 ;;
    --check) check=1; shift ;;
    --asan) asan=1; shift ;;
    -j) jobs=$2; shift 2 ;;
    -*|*' '*) echo "usage: scripts/mutate.sh [--list FILE] [--part PART] [--name NAME] [--asan] [--check] [-j N] [PART]" >&2
       exit 2 ;;
    *) [ -z "$part" ] || { echo "mutate: two parts given ($part, $1)" >&2; exit 2; }
       part=$1; shift ;;
  esac
done
[ -f "$list" ] || { echo "mutate: no list $list" >&2; exit 2; }

work=$root/build-mutate
src=$work/src build=$work/build cmake_args=(-DCMAKE_BUILD_TYPE=Release)
if [ $asan = 1 ]; then
  build=$work/build-asan cmake_args=(-DCMAKE_BUILD_TYPE=Debug -DARENA_SANITIZE=ON)
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
fi
mkdir -p "$src" "$build"

# The mutations as lines of fields separated by \x1f: name part file from to tests.
parse() {
  python3 - "$list" "$part" "$only" "$asan" <<'EOF'
import sys
path, part, only, asan = sys.argv[1:5]
keys = ("name", "part", "file", "from", "to", "tests")
blocks, cur = [], {}
for lineno, line in enumerate(open(path), 1):
    line = line.rstrip("\n")
    if line.startswith("#"):
        continue
    if not line.strip():
        if cur:
            blocks.append(cur)
        cur = {}
        continue
    key, sep, value = line.partition(":")
    if not sep or key.strip() not in keys + ("why", "build", "equivalent"):
        sys.exit(f"mutate: {path}:{lineno}: not 'key: value' with a known key: {line}")
    cur[key.strip()] = value.strip()
if cur:
    blocks.append(cur)
parts = sorted({b.get("part", "") for b in blocks})
if part and part not in parts:
    sys.exit(f"mutate: no part '{part}' in {path} (its parts: {', '.join(parts)})")
names = set()
for b in blocks:
    missing = [k for k in keys if not b.get(k)]
    if missing:
        sys.exit(f"mutate: {path}: mutation {b.get('name', '?')} lacks {', '.join(missing)}")
    if b["name"] in names:
        sys.exit(f"mutate: {path}: two mutations named {b['name']}")
    names.add(b["name"])
    if b.get("build", "release") not in ("release", "asan"):
        sys.exit(f"mutate: {path}: mutation {b['name']}: build is release or asan")
    if (part and b["part"] != part) or (only and b["name"] != only):
        continue
    if b.get("build") == "asan" and asan != "1":
        print(f"mutate: {b['name']} needs --asan; not planted", file=sys.stderr)
        continue
    print("\x1f".join([b[k] for k in keys] + ["1" if b.get("equivalent") else "0"]))
EOF
}

# Replaces the one occurrence of $2 in file $1 by $3; exit 3 unless found once.
plant() {
  python3 - "$@" <<'EOF'
import sys
path, old, new = sys.argv[1:4]
text = open(path).read()
if text.count(old) != 1:
    sys.exit(3)
open(path, "w").write(text.replace(old, new))
EOF
}

# Copies the tree's files into $src: a file whose bytes differ gets written
# afresh (a new mtime, so the build sees it); files gone from the tree go.
sync_tree() {
  git ls-files -z -co --exclude-standard | python3 -c '
import os, shutil, sys
src = sys.argv[1]
files = [f for f in sys.stdin.buffer.read().decode().split("\0") if f]
keep = set()
for f in files:
    if not os.path.lexists(f):
        continue
    keep.add(f)
    dst = os.path.join(src, f)
    os.makedirs(os.path.dirname(dst) or ".", exist_ok=True)
    if os.path.islink(f):
        if not os.path.islink(dst) or os.readlink(dst) != os.readlink(f):
            if os.path.lexists(dst):
                os.remove(dst)
            os.symlink(os.readlink(f), dst)
        continue
    data = open(f, "rb").read()
    if os.path.islink(dst) or not os.path.exists(dst) or open(dst, "rb").read() != data:
        if os.path.lexists(dst):
            os.remove(dst)
        with open(dst, "wb") as out:
            out.write(data)
        shutil.copymode(f, dst)
for base, dirs, names in os.walk(src):
    rel = os.path.relpath(base, src)
    if rel in ("sdk/js", "web"):
        dirs[:] = [d for d in dirs if d != "node_modules"]
    for n in names:
        r = os.path.normpath(os.path.join(rel, n))
        if r not in keep and not (rel in ("sdk/js", "web") and n == "node_modules"):
            os.remove(os.path.join(base, n))
' "$src"
  # The npm packages (the JavaScript SDK's, the web's), as hard links: a
  # symbolic link would point out of the copy, where a sandboxed bot cannot
  # see. Linked again when the tree's packages changed.
  local dir
  for dir in sdk/js web; do
    [ -d $dir/node_modules ] || continue
    if [ -L "$src/$dir/node_modules" ] ||
       ! cmp -s $dir/node_modules/.package-lock.json "$src/$dir/node_modules/.package-lock.json"; then
      rm -rf "$src/$dir/node_modules"
      cp -al $dir/node_modules "$src/$dir/node_modules" 2>/dev/null ||
        cp -a $dir/node_modules "$src/$dir/node_modules"
    fi
  done
}

[ $check = 1 ] && asan=1           # every mutation must apply
mapfile -t mutations < <(parse)
[ ${#mutations[@]} -gt 0 ] || { echo "mutate: no mutation selected" >&2; exit 2; }

if [ $check = 1 ]; then
  bad=0
  for m in "${mutations[@]}"; do
    IFS=$'\x1f' read -r name mpart file from to tests _ <<<"$m"
    n=$(python3 -c 'import sys; print(open(sys.argv[1]).read().count(sys.argv[2]))' \
          "$file" "$from" 2>/dev/null || echo 0)
    [ "$n" = 1 ] || { echo "stale   $mpart/$name: '$from' found $n times in $file"; bad=1; }
  done
  [ $bad = 0 ] && echo "mutate: all ${#mutations[@]} mutations apply"
  exit $bad
fi

# The lock is closed in every command started below, so that a process a
# test leaves behind cannot hold it after this run.
exec 9>"$work/lock"
flock -n 9 || { echo "mutate: another mutate.sh runs in this tree" >&2; exit 1; }

# Puts back the file a mutant changed, whatever ends the run: the copy
# made before planting (the tree may have moved on meanwhile), written
# afresh so the build sees it.
current=""
restore() {
  if [ -n "$current" ]; then
    cat "$work/original" >"$src/$current"
    current=""
  fi
}
trap restore EXIT
trap 'restore; exit 130' INT TERM

sync_tree
echo "mutate: building a copy of the tree in $build"
cmake -S "$src" -B "$build" "${cmake_args[@]}" >/dev/null 9>&-
cmake --build "$build" -j"$jobs" >"$work/build.log" 2>&1 9>&- ||
  { tail -30 "$work/build.log"; echo "mutate: the tree does not build" >&2; exit 1; }

# Runs the tests matching $1 (all of them, or with $2 "first" only until
# one fails: a mutant is killed by its first red test, and waiting for the
# rest would only slow the run); prints the names of those that failed.
run_tests() {
  local out stop=()
  [ "${2:-}" = first ] && stop=(--stop-on-failure)
  out=$(ctest --test-dir "$build" -R "$1" -j"$jobs" "${stop[@]}" 2>&1 9>&-) && return 0
  printf '%s\n' "$out" | sed -n 's/^[[:space:]]*[0-9]* - \([^ ]*\) (.*/\1/p' | tr '\n' ' '
  return 1
}

# Each mutation's regex whole, in parentheses: one may hold a group, a|b inside.
union=$(for m in "${mutations[@]}"; do IFS=$'\x1f' read -r _ _ _ _ _ t _ <<<"$m"; echo "($t)"; done |
        sort -u | paste -sd'|')
echo "mutate: the tests unmutated ($union)"
if failed=$(run_tests "$union"); then :; else
  echo "mutate: these fail without any mutation; fix them first: $failed" >&2
  exit 1
fi

declare -A planted killed equivalent
survivors=() stale=() marked=()
for m in "${mutations[@]}"; do
  IFS=$'\x1f' read -r name mpart file from to tests equiv <<<"$m"
  t0=$SECONDS
  cp "$src/$file" "$work/original"
  current=$file
  if ! plant "$src/$file" "$from" "$to"; then
    current=""
    stale+=("$mpart/$name")
    printf '%-9s %-8s %-36s %s\n' stale "$mpart" "$name" "its text is not found once in $file"
    continue
  fi
  planted[$mpart]=$((${planted[$mpart]:-0} + 1))
  if ! cmake --build "$build" -j"$jobs" >"$work/build.log" 2>&1 9>&-; then
    verdict=killed by="the compiler"
  elif failed=$(run_tests "$tests" first); then
    verdict=SURVIVED by=""
  else
    verdict=killed by=$failed
  fi
  restore
  if [ $verdict = killed ]; then
    killed[$mpart]=$((${killed[$mpart]:-0} + 1))
    [ "$equiv" = 0 ] || marked+=("$mpart/$name")
  elif [ "$equiv" = 1 ]; then
    verdict=equiv
    equivalent[$mpart]=$((${equivalent[$mpart]:-0} + 1))
  else
    survivors+=("$mpart/$name: $file")
  fi
  printf '%-9s %-8s %-36s %3ds %s\n' "$verdict" "$mpart" "$name" $((SECONDS - t0)) \
    "${by:+by $by}"
done
# Leave the copy's build as the tree's, so the next run starts from there.
cmake --build "$build" -j"$jobs" >"$work/build.log" 2>&1 9>&- || true

echo
# The rate counts the mutants a test can catch: an equivalent one (its
# block says why no test can tell it apart) is shown, not counted.
printf '%-9s %8s %7s %9s %6s %6s\n' part planted killed survived equiv rate
tp=0 tk=0 te=0
row() {
  local catchable=$(($2 - $4))
  printf '%-9s %8d %7d %9d %6d %6s\n' "$1" "$2" "$3" $((catchable - $3)) "$4" \
    "$([ $catchable -gt 0 ] && echo "$((100 * $3 / catchable))%" || echo -)"
}
for p in $(printf '%s\n' "${!planted[@]}" | sort); do
  n=${planted[$p]} k=${killed[$p]:-0} e=${equivalent[$p]:-0}
  tp=$((tp + n)) tk=$((tk + k)) te=$((te + e))
  row "$p" "$n" "$k" "$e"
done
[ $tp -gt 0 ] && row all "$tp" "$tk" "$te"
for s in "${survivors[@]}"; do echo "survived: $s"; done
for s in "${marked[@]}"; do echo "killed though marked equivalent: $s (drop its mark)"; done
for s in "${stale[@]}"; do echo "stale: $s (update tests/mutations.txt)"; done
