#!/bin/sh
# A test of the grader itself: runs a lab program built from a kernel that is known to be wrong
# (or the starter) and passes only if every named check is failed by the checks (with --any: at
# least one of them, for races that a schedule shows in some checks but not always in all).
# A check the run cannot judge (a speed check under the CPU emulation: "not measured") is listed
# and left out; when no named check can be judged the test is skipped (77).
#   expect_failure.sh [--any] LAB_EXE RESULTS_DIR CHECK...
any=0
if [ "$1" = "--any" ]; then
  any=1
  shift
fi
exe=$1 results=$2
shift 2
if [ ! -x "$exe" ]; then
  echo "not built: $exe"
  exit 77
fi
rm -rf "$results"
filter=$(echo "$@" | tr ' ' ':')
"$exe" --results-dir "$results" --gtest_filter="$filter"
status=$?
if [ "$status" -eq 77 ] && ! grep -qs '^  "verdict": "not_measured"' "$results"/*.json; then
  echo "skipped: no GPU to run the kernel on"
  exit 77
fi
bad=0
caught=0
judged=0
for check in "$@"; do
  record="$results/$check.json"
  if [ ! -f "$record" ]; then
    echo "NOT CAUGHT: $check left no result record (the program ended with status $status)"
    bad=1
  elif grep -q '^  "verdict": "not_measured"' "$record"; then
    echo "not judged: $check is not measured here ($(grep '^  "reason"' "$record"))"
  elif grep -q '^  "verdict": "fail"' "$record"; then
    echo "caught: $check failed, as it must"
    caught=$((caught + 1))
    judged=$((judged + 1))
  else
    echo "NOT CAUGHT: $check was not failed: $(grep '^  "verdict"' "$record")"
    bad=1
    judged=$((judged + 1))
  fi
done
if [ "$judged" -eq 0 ] && [ "$bad" -eq 0 ]; then
  echo "skipped: none of the named checks can be judged here"
  exit 77
fi
if [ "$any" -eq 1 ]; then
  if [ "$caught" -gt 0 ]; then
    echo "caught by $caught of the checks, as it must be by at least one"
    exit 0
  fi
  exit 1
fi
exit $bad
