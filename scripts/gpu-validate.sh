#!/bin/sh
# What a developer runs on a GPU machine before closing an issue: a fresh configure and build of
# everything against the solutions (with the starters and known-wrong kernels), the whole test
# suite, then the student workflow on the starter of one lab. Logs, JUnit XML, result records
# and reports go to OUT (default ./gpu-validate-out).
#   scripts/gpu-validate.sh [labN ...]   (labs whose starters go through the student workflow)
set -u
[ $# -gt 0 ] || set -- lab1
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/gpu-validate-out}
mkdir -p "$out"
work=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv > "$out/gpu.txt" 2>&1

echo "== solutions, self-tests, known-wrong kernels =="
cmake -S "$root" -B "$work/ci" -DLABS_USE_SOLUTIONS=ON -DLABS_BUILD_SELF_TESTS=ON > "$out/configure-ci.log" 2>&1 || { tail -30 "$out/configure-ci.log"; exit 1; }
cmake --build "$work/ci" --target all all_labs all_known_wrong -j "$(nproc)" > "$out/build-ci.log" 2>&1 || { grep -E "error" -A3 "$out/build-ci.log" | head -60; exit 1; }
(cd "$work/ci" && ctest -j 4 --output-on-failure --output-junit "$out/junit-ci.xml" ${CTEST_EXTRA:-} > "$out/ctest-ci.log" 2>&1)
tail -25 "$out/ctest-ci.log"
tar -C "$work/ci" -czf "$out/ci-results.tar.gz" results reports

echo "== speed checks of every solution, three runs each =="
for exe in "$work"/ci/labs/lab[0-9]*; do
  name=$(basename "$exe")
  case $name in *_*) continue ;; esac
  for run in 1 2 3; do
    "$exe" --gtest_filter='*Speed*' --results-dir "$work/bench/$name-run$run" > /dev/null 2>&1
  done
done
"$work/ci/grader/labgrade" timings "$work"/bench/* | sed "s|$work/bench/||" > "$out/timings.md"
cat "$out/timings.md"

for lab in "$@"; do
  echo "== student workflow on the starter: make $lab && ctest (fresh build folder) =="
  cmake -S "$root" -B "$work/student-$lab" > "$out/configure-student-$lab.log" 2>&1
  (cd "$work/student-$lab" && make "$lab" -j "$(nproc)" > "$out/build-student-$lab.log" 2>&1 &&
    ctest > "$out/ctest-student-$lab.log" 2>&1)
  tail -22 "$out/ctest-student-$lab.log"
  cp "$work/student-$lab/reports/$lab.html" "$out/$lab-starter.html" 2>/dev/null
done
cp "$work"/ci/reports/*.html "$out/" 2>/dev/null
ls -l "$out"
