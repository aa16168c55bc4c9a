#!/bin/sh
# Times batch grading of a made-up class of N lab 6 submissions (scripts/make-class.sh):
#   scripts/bench-batch.sh N OUT [labgrade batch options]
# Uses build/ (LABS_GRADER_BUILD to change it), which must hold labgrade and lab6's grading kit
# (cmake --build build --target labgrade lab6_kit). Prints the wall time, the per-status counts
# and the points histogram from OUT/gradebook.csv, and checks every student's points against what
# make-class.sh made them for (scripts/ci/check-class-points.py; exit 1 when any differs);
# OUT/bench.txt keeps the same lines.
set -eu
usage="usage: scripts/bench-batch.sh N OUT [labgrade batch options]"
n=${1:?$usage}
out=${2:?$usage}
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
build=${LABS_GRADER_BUILD:-$root/build}
class=$(mktemp -d)
trap 'rm -rf "$class"' EXIT
"$root/scripts/make-class.sh" "$n" "$class/submissions" > "$class/made.txt"
start=$(date +%s.%N)
# Exit status 1 says some submissions did not pass: the normal case for a class.
status=0
"$build/grader/labgrade" batch lab6 "$class/submissions" "$out" "$@" || status=$?
end=$(date +%s.%N)
[ "$status" -le 1 ] || { echo "bench-batch: labgrade batch ended with status $status" >&2; exit "$status"; }
{
  echo "batch of $n lab 6 submissions: $(awk "BEGIN{printf \"%.1f\", $end - $start}") s wall ($(nproc) cores, $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | tr '\n' ' ')GPU(s))"
  echo "statuses:"
  tail -n +2 "$out/gradebook.csv" | awk -F, '{print "  " $(NF-1)}' | sort | uniq -c
  echo "points (expected mix: see scripts/make-class.sh):"
  tail -n +2 "$out/gradebook.csv" | awk -F, '{print "  " $(NF-3)}' | sort -n | uniq -c
} | tee "$out/bench.txt"
as_made=0
python3 "$root/scripts/ci/check-class-points.py" "$class/made.txt" "$out" > "$class/as-made.txt" ||
  as_made=$?
tail -12 "$class/as-made.txt"
cat "$class/as-made.txt" >> "$out/bench.txt"
exit "$as_made"
