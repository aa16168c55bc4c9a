#!/bin/sh
# A test of the grader itself: runs a lab program built from a kernel written as a real student
# writes it (tests/right/) and passes only if every named check passes: an innocent submission
# never loses points to a rule of the checks. A check the run cannot judge (a speed check under
# the CPU emulation: "not measured") is listed and left out; when none can be judged the test is
# skipped (77).
#   expect_pass.sh LAB_EXE RESULTS_DIR CHECK...
exe=$1 results=$2
shift 2
. "$(dirname "$0")/lab_program_run.sh"
require_built "$exe"
. "$(dirname "$0")/ctest_gpu.sh"
fresh_results_folder "$results"
filter=$(echo "$@" | tr ' ' ':')
"$exe" --results-dir "$results" --gtest_filter="$filter"
status=$?
[ "$status" -eq 77 ] && skip_not_judged "$results"
bad=0
judged=0
for check in "$@"; do
  record="$results/$check.json"
  if [ ! -f "$record" ]; then
    echo "INNOCENT LOST POINTS: $check left no result record (the program ended with status $status)"
    bad=1
  elif grep -q '^  "verdict": "not_measured"' "$record"; then
    echo "not judged: $check is not measured here"
  elif grep -q '^  "verdict": "pass"' "$record"; then
    echo "passed: $check, as it must"
    judged=$((judged + 1))
  else
    echo "INNOCENT LOST POINTS: $check: $(grep '^  "verdict"' "$record") $(grep '^  "reason"' "$record")"
    bad=1
    judged=$((judged + 1))
  fi
done
if [ "$judged" -eq 0 ] && [ "$bad" -eq 0 ]; then
  echo "skipped: none of the named checks can be judged here"
  exit 77
fi
exit $bad
