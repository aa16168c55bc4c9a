#!/bin/sh
# A test of the grader itself: runs a lab program built from a kernel that is known to be wrong
# (or the starter) and passes only if every named check is failed by the checks.
#   expect_failure.sh LAB_EXE RESULTS_DIR CHECK...
exe=$1 results=$2
shift 2
if [ ! -x "$exe" ]; then
  echo "not built: $exe"
  exit 77
fi
. "$(dirname "$0")/ctest_gpu.sh"
rm -rf "$results"
filter=$(echo "$@" | tr ' ' ':')
"$exe" --results-dir "$results" --gtest_filter="$filter"
status=$?
if [ "$status" -eq 77 ]; then
  echo "skipped: no GPU to run the kernel on"
  exit 77
fi
bad=0
for check in "$@"; do
  record="$results/$check.json"
  if [ ! -f "$record" ]; then
    echo "NOT CAUGHT: $check left no result record (the program ended with status $status)"
    bad=1
  elif grep -q '^  "verdict": "fail"' "$record"; then
    echo "caught: $check failed, as it must"
  else
    echo "NOT CAUGHT: $check was not failed: $(grep '^  "verdict"' "$record")"
    bad=1
  fi
done
exit $bad
