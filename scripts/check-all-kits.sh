#!/bin/sh
# Every lab's grading kit, tried with labgrade batch on a class of two: the lab's reference
# solution (kernel.cu, and bonus.cu where the lab has one) and its starter. The solution must earn
# every point that can be earned here (under the CPU emulation: all but the speed checks'; on a
# GPU: all, bonus included) and the starter fewer.
#   scripts/check-all-kits.sh BUILD OUT [labgrade batch options]
# BUILD is a build folder with -DLABS_USE_SOLUTIONS=ON or not (the kits are built here:
# labN_kit); its backend decides which rule applies.
set -eu
usage="usage: scripts/check-all-kits.sh BUILD OUT [labgrade batch options]"
build=$(cd "${1:?$usage}" && pwd)
out=${2:?$usage}
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
backend=$(sed -n 's/^LABS_BACKEND:STRING=//p' "$build/CMakeCache.txt")
labgrade=$(sed -n 's/^LABS_LABGRADE:FILEPATH=//p' "$build/CMakeCache.txt")
[ -n "$labgrade" ] || labgrade=$build/grader/labgrade
mkdir -p "$out"
failed=0
for dir in "$root"/labs/lab[0-9]*/; do
  folder=$(basename "$dir")
  lab=${folder%%-*}
  cmake --build "$build" --target "${lab}_kit" -j "$(nproc)" > "$out/$lab.build.log" 2>&1 ||
    { echo "$lab: the kit does not build (see $out/$lab.build.log)"; failed=1; continue; }
  class=$out/$lab-class
  rm -rf "$class" "$out/$lab"
  mkdir -p "$class/solution" "$class/starter"
  cp "$root/solutions/$folder"/*.cu "$class/solution/"
  cp "$root/labs/$folder/kernel.cu" "$class/starter/"
  start=$(date +%s)
  status=0
  "$labgrade" batch "$lab" "$class" "$out/$lab" --kit "$build/grading-kit/$lab" "$@" \
    > "$out/$lab.log" 2>&1 || status=$?
  seconds=$(($(date +%s) - start))
  if [ "$status" -gt 1 ]; then
    echo "$lab: labgrade batch ended with status $status ($seconds s):"
    tail -5 "$out/$lab.log"
    failed=1
    continue
  fi
  most=$(python3 -c 'import json, sys
checks = json.load(open(sys.argv[1]))["checks"]
print(sum(c["points"] for c in checks if sys.argv[2] != "emulation" or c["kind"] != "speed"))' \
    "$root/labs/$folder/spec.json" "$backend")
  points_of() { awk -F, -v who="$1" '$1 == who { print $(NF - 3) }' "$out/$lab/gradebook.csv"; }
  solution=$(points_of solution)
  starter=$(points_of starter)
  verdict=ok
  [ "$solution" = "$most" ] || verdict="SOLUTION SHORT"
  [ "${starter:-0}" -lt "$most" ] || verdict="STARTER PASSES"
  # The outputs the batch attests submissions by (grader/batch/verify.hpp): none means a lab whose
  # checks record no digest, and a forged record could not be told from a right one.
  exact=$(sed -n 's/^reference solution: \([0-9]*\) exact outputs.*/\1/p' "$out/$lab.log" | head -1)
  [ "${exact:-0}" -gt 0 ] || verdict="NO EXACT OUTPUTS"
  echo "$lab: solution $solution, starter ${starter:-?}, most here $most, $exact exact outputs" \
    "($seconds s): $verdict"
  [ "$verdict" = ok ] || failed=1
done
exit $failed
