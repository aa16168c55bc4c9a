#!/bin/sh
# ctest's entry point for a lab's checks and report. A lab that is not built yet is skipped
# (exit 77) with a note the end-of-run summary prints; otherwise LABCHECK does the work: labcheck
# (grader/src/labcheck_main.cpp), or a labgrade, which has the same run, verdict and report.
#   run_check.sh LAB_EXE LABCHECK LAB SUMMARY_DIR run     SPEC RESULTS
#   run_check.sh LAB_EXE LABCHECK LAB SUMMARY_DIR verdict RESULTS CHECK
#   run_check.sh LAB_EXE LABCHECK LAB SUMMARY_DIR check   SPEC RESULTS CHECK TIMEOUT
#   run_check.sh LAB_EXE LABCHECK LAB SUMMARY_DIR sanitize SPEC RESULTS SANITIZER [OPTION...]
#   run_check.sh LAB_EXE LABCHECK LAB SUMMARY_DIR report  SPEC RESULTS REPORT KERNEL_LABEL HANDOUT
#   run_check.sh LAB_EXE LABCHECK LAB SUMMARY_DIR expect  MODE OPTIONS... -- PROGRAM ...
# `run` runs every check in one run of the lab program (labN.run) and `verdict` shows one check's
# part of it (labN.<Check>); `check` runs one check alone; `sanitize` is compute-sanitizer's pass
# (labN.sanitizer: its findings fail the run's checks; with --expect-findings, a known-wrong
# kernel's test, labN.must_fail.NAME.TOOL); `expect` is a self-test of the checks
# (labN.must_fail.<kernel>, labN.must_pass.<kernel>, labN.isolation.launcher_view: labcheck
# expect, grader/src/expect_command.hpp). Whether a check passed is LABCHECK's to say, never this
# script's: nothing here reads a record.
exe=$1 labgrade=$2 lab=$3 summary_dir=$4 mode=$5
shift 5
if [ ! -x "$exe" ] || [ ! -x "$labgrade" ]; then
  echo "not built: run make $lab"
  mkdir -p "$summary_dir" && : > "$summary_dir/$lab.not-built"
  exit 77
fi
# A known-wrong kernel's test runs the lab program with that kernel's launcher (LAB_LAUNCHER):
# one not built is that test's skip, not the lab's (the summary's "not built" is the lab's).
if [ -n "${LAB_LAUNCHER:-}" ] && [ ! -x "$LAB_LAUNCHER" ]; then
  echo "not built: $(basename "$LAB_LAUNCHER") (make $lab builds it)"
  exit 77
fi
case $mode in
  run)
    . "$(dirname "$0")/ctest_gpu.sh"
    exec "$labgrade" run --spec "$1" --results "$2" -- "$exe" --spec "$1"
    ;;
  verdict)
    exec "$labgrade" verdict --results "$1" --check "$2"
    ;;
  check)
    . "$(dirname "$0")/ctest_gpu.sh"
    # labgrade runs the lab program as labgrade batch does (the record comes back over the grader
    # channel, not through a file) and adds --gtest_filter itself.
    exec "$labgrade" run --spec "$1" --results "$2" --check "$3" --timeout "$4" -- \
      "$exe" --spec "$1"
    ;;
  sanitize)
    . "$(dirname "$0")/ctest_gpu.sh"
    spec=$1 results=$2 sanitizer=$3
    shift 3
    exec "$labgrade" sanitize --spec "$spec" --results "$results" --sanitizer "$sanitizer" "$@" \
      -- "$exe" --spec "$spec"
    ;;
  expect)
    . "$(dirname "$0")/ctest_gpu.sh"
    exec "$labgrade" expect "$@"
    ;;
  report)
    mkdir -p "$summary_dir"
    exec "$labgrade" report --spec "$1" --results "$2" --out "$3" --kernel-source "$4" \
      --handout "$5" --summary "$summary_dir/$lab.summary"
    ;;
esac
echo "run_check.sh: unknown mode '$mode'" >&2
exit 2
