#!/bin/bash
# A student's ctest and labgrade batch give one kernel the same points (issue 32's promise),
# checked end to end as a student and an instructor would run them: the committed tree with
# KERNEL as the lab's kernel.cu, built without the solutions (`make LAB`), `ctest -R '^LAB\.'`
# (the run, compute-sanitizer's pass on a GPU, the checks, the report), then `labgrade batch` of a
# one-student class whose kernel.cu is KERNEL, with the same build's kit, both with seed 4242 (a
# race may still come out differently in two runs: a race's points rest on the sanitizer's or
# the emulator's finding, not on the outputs). The backend is this machine's (CUDA where there
# is a GPU, else the CPU emulation; LABS_CMAKE_ARGS adds options).
#   scripts/ci/same-points-check.sh LAB KERNEL [WORK]
#   e.g. scripts/ci/same-points-check.sh lab6 labs/lab6-tiled-matmul/tests/wrong/missing_sync_after_compute.cu
# Exit 0 when the points agree, 1 when they differ, 2 when a step could not run.
set -eu
[ $# -ge 2 ] || { echo "usage: scripts/ci/same-points-check.sh LAB KERNEL [WORK]" >&2; exit 2; }
repo=$(cd "$(dirname "$0")/../.." && pwd)
lab=$1
kernel=$(realpath -m "$2")
work=${3:-/tmp/same-points-$lab}
folder=""
for dir in "$repo/labs/$lab"-*/; do [ -d "$dir" ] && folder=$(basename "$dir") && break; done
[ -n "$folder" ] || { echo "same-points: no labs/$lab-* folder" >&2; exit 2; }
[ -f "$kernel" ] || { echo "same-points: no kernel file $2" >&2; exit 2; }
rm -rf "$work"
mkdir -p "$work/src" "$work/class/student/labs/$folder"
# The committed tree; a copy without git history (a snapshot unpacked from `git archive`) as it is.
if [ "$(git -C "$repo" rev-parse --show-toplevel 2> /dev/null)" = "$repo" ]; then
  git -C "$repo" archive HEAD | tar -x -C "$work/src"
else
  tar -C "$repo" --exclude='./build*' --exclude=./.gpu-scratch -cf - . | tar -x -C "$work/src"
fi
[ -f "$work/src/labs/$folder/spec.json" ] ||
  { echo "same-points: no copy of the tree in $work/src ($repo)" >&2; exit 2; }
cp "$kernel" "$work/src/labs/$folder/kernel.cu"
cp "$kernel" "$work/class/student/labs/$folder/kernel.cu"
step() {  # NAME LOG COMMAND...: a step that must run; its log's end when it does not
  local name=$1 log=$2
  shift 2
  "$@" > "$log" 2>&1 || { echo "same-points: $name failed ($log):" >&2; tail -15 "$log" >&2; exit 2; }
}
# shellcheck disable=SC2086 # the extra options are words
step configure "$work/configure.log" cmake -S "$work/src" -B "$work/build" -DLABS_USE_SOLUTIONS=OFF \
  -DCMAKE_BUILD_TYPE=Release ${LABS_CMAKE_ARGS:-}
step build "$work/build.log" cmake --build "$work/build" -j"$(nproc)" \
  --target "$lab" "${lab}_launcher" labcheck labgrade "${lab}_kit"
# The checks' tests fail for a wrong kernel: what counts is the report's points.
LAB_SEED=4242 ctest --test-dir "$work/build" -R "^$lab\\.(setup|run|sanitizer|report|[A-Z].*)\$" \
  > "$work/ctest.log" 2>&1 || true
summary="$work/build/reports/.ctest-run/$lab.summary"
[ -s "$summary" ] || { echo "same-points: ctest wrote no summary ($work/ctest.log)" >&2; exit 2; }
ctest_points=$(sed -n 's/^[^:]*: \([0-9.]*\) \/ [0-9.]* points.*/\1/p' "$summary" | head -1)
"$work/build/grader/labgrade" batch "$lab" "$work/class" "$work/out" --seed 4242 \
  > "$work/batch.log" 2>&1 || true
[ -s "$work/out/gradebook.csv" ] ||
  { echo "same-points: the batch wrote no gradebook ($work/batch.log)" >&2; exit 2; }
read -r batch_status batch_points < <(python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
print(rows[0]["status"], rows[0]["total"]) if rows else print("none", "")' "$work/out/gradebook.csv")
[ "$batch_status" = graded ] ||
  { echo "same-points: the batch did not grade the kernel: $batch_status ($work/batch.log)" >&2; exit 2; }
if [ -z "$ctest_points" ] || [ -z "$batch_points" ]; then
  echo "same-points: no points read (ctest '$ctest_points', batch '$batch_points')" >&2
  exit 2
fi
echo "same-points: $lab with $(basename "$kernel"): ctest $ctest_points points, labgrade batch $batch_points"
echo "  ctest: $(head -1 "$summary")"
echo "  batch: $(tail -1 "$work/out/gradebook.csv")"
awk -v a="$ctest_points" -v b="$batch_points" 'BEGIN { exit !(a == b) }' ||
  { echo "same-points: the points differ"; exit 1; }
echo "same-points: the same points"
