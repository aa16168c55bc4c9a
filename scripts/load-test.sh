#!/bin/sh
# Load test of batch grading: N copies of a right but slow lab 6 kernel (the sample class's
# erin), graded with labgrade batch's defaults. Every copy must earn every point it can earn
# here: a kernel never loses points to the load of the others (shared runs follow the machine,
# and a check past its limit among shared runs is run again alone before it fails).
#   scripts/load-test.sh N KIT OUT [labgrade batch options]
# KIT is a lab 6 grading kit (BUILD/grading-kit/lab6); labgrade is taken from LABGRADE or from
# the kit's build (KIT/../../grader/labgrade). Under the CPU emulation the most is every point but
# the speed checks'; on a GPU, erin's 70 too (right, but no faster than the naive kernel).
set -eu
usage="usage: scripts/load-test.sh N KIT OUT [labgrade batch options]"
n=${1:?$usage}
kit=$(cd "${2:?$usage}" && pwd)
out=${3:?$usage}
shift 3
root=$(cd "$(dirname "$0")/.." && pwd)
labgrade=${LABGRADE:-$kit/../../grader/labgrade}
class=$(mktemp -d)
trap 'rm -rf "$class"' EXIT
i=1
while [ "$i" -le "$n" ]; do
  mkdir -p "$class/slow-$i"
  cp "$root/examples/lab6-class/submissions/erin/labs/lab6-tiled-matmul/kernel.cu" "$class/slow-$i/"
  i=$((i + 1))
done
start=$(date +%s)
status=0
"$labgrade" batch lab6 "$class" "$out" --kit "$kit" "$@" > "$out.log" 2>&1 || status=$?
end=$(date +%s)
[ "$status" -le 1 ] || { tail -30 "$out.log"; echo "load-test: labgrade batch ended with $status" >&2; exit 1; }
# The most this kernel earns: every check's points but speed's (not measured under the emulation);
# erin's kernel is no faster than the naive one, so that is the most on a GPU too.
most=$(python3 -c 'import json, sys
print(sum(c["points"] for c in json.load(open(sys.argv[1]))["checks"] if c["kind"] != "speed"))' \
  "$kit/spec.json")
short=$(awk -F, -v most="$most" 'NR > 1 && $(NF - 3) + 0 < most { print $1 ": " $(NF - 3) }' "$out/gradebook.csv")
echo "load-test: $n right but slow submissions in $((end - start)) s ($(nproc) cores); the most without speed: $most"
if [ -n "$short" ]; then
  echo "load-test: FAILED: these lost points they should have earned:"
  echo "$short"
  exit 1
fi
echo "load-test: passed: every submission earned $most or more"
