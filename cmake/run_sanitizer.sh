#!/bin/sh
# ctest's entry point for compute-sanitizer over a lab's correctness checks. Skipped (77) when the
# lab is not built or there is no GPU; fails only when the sanitizer reports an error (a check
# that fails is the correctness tests' business, not this test's).
#   run_sanitizer.sh LAB_EXE LAB SANITIZER TOOL RESULTS_DIR GTEST_FILTER [expect-errors]
# With expect-errors (a known-wrong kernel) it passes only when the sanitizer reports errors.
exe=$1 lab=$2 sanitizer=$3 tool=$4 results=$5 filter=$6 expect=${7:-}
# On a GPU the submission is a launcher program beside the lab program (LAB_LAUNCHER).
if [ -n "$LAB_LAUNCHER" ] && [ ! -x "$LAB_LAUNCHER" ]; then
  echo "not built: $LAB_LAUNCHER"
  exit 77
fi
if [ ! -x "$exe" ]; then
  echo "not built: run make $lab"
  exit 77
fi
"$exe" --gtest_list_tests > /dev/null 2>&1 || true
if ! nvidia-smi -L > /dev/null 2>&1; then
  echo "skipped: no GPU for compute-sanitizer"
  exit 77
fi
. "$(dirname "$0")/ctest_gpu.sh"
rm -rf "$results"
# Tells the harness: no guard zones (the sanitizer must see writes out of bounds itself) and
# leave out products too large to run under the sanitizer in reasonable time.
export LAB_SANITIZER="$tool"
# API errors are the lab program's own (it probes each kernel's parameters with
# cuFuncGetParamInfo until the call fails); the student's host code runs in the launcher, where no
# CUDA call is real. Only the kernels' memory errors and races count.
# Only the lab program is tracked: the launcher (the student's host code, against a stand-in
# runtime) must not load the real CUDA driver, which the sanitizer's injection would make it do
# (and the lab program refuses a launcher that loaded a CUDA library).
"$sanitizer" --tool "$tool" --target-processes application-only --error-exitcode 99 \
  --print-limit 20 --report-api-errors no "$exe" --results-dir "$results" --gtest_filter="$filter"
status=$?
if [ "$expect" = expect-errors ]; then
  case $status in
    99) echo "caught: compute-sanitizer $tool reported errors, as it must"; exit 0 ;;
    77) echo "skipped: no GPU"; exit 77 ;;
    *) echo "NOT CAUGHT: compute-sanitizer $tool reported no errors (status $status)"; exit 1 ;;
  esac
fi
case $status in
  99)
    echo "compute-sanitizer $tool found errors (listed above with the kernel and line)"
    exit 1
    ;;
  77)
    echo "skipped: no GPU"
    exit 77
    ;;
  0) echo "compute-sanitizer $tool: no errors" ;;
  *) echo "compute-sanitizer $tool: no errors (the checks themselves ended with status $status: see the correctness tests)" ;;
esac
exit 0
