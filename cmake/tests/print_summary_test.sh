#!/bin/sh
# The last words of a ctest run (cmake/print_summary.cmake): each lab's score line, the labs not
# built, and, when a lab is short of full marks, that ctest's percentage is not the grade.
#   print_summary_test.sh CMAKE CMAKE_DIR
set -eu
cmake=$1 dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; echo "--- output:"; cat "$work/out"; exit 1; }

mkdir "$work/starter"
echo "lab3 (Rows and columns): 0 / 100 points, 1 of 10 checks passed; report: r.html" > "$work/starter/lab3.summary"
touch "$work/starter/lab1.not-built"
"$cmake" -DSUMMARY_DIR="$work/starter" -P "$dir/print_summary.cmake" > "$work/out" 2>&1
grep -q "^lab3 (Rows and columns): 0 / 100 points, 1 of 10 checks passed" "$work/out" || fail "no score line"
grep -q "^lab1: not built" "$work/out" || fail "no not-built line"
tail -n 1 "$work/out" | grep -q "Your grade is the points above" || fail "the last line is not the grade note"

mkdir "$work/full"
echo "lab6 (Tiled): 100 / 100 points, 8 of 8 checks passed; report: r.html" > "$work/full/lab6.summary"
"$cmake" -DSUMMARY_DIR="$work/full" -P "$dir/print_summary.cmake" > "$work/out" 2>&1
grep -q "Your grade is" "$work/out" && fail "the note shows although nothing was short or skipped"
tail -n 1 "$work/out" | grep -q "^lab6 (Tiled): 100 / 100 points" || fail "the score is not the last line"
echo "ok"
