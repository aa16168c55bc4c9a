#!/bin/sh
# expect_failure.sh's diagnosis assertion on a fake lab program (harness/checks/tests/fake_lab_program.sh)
# that fails check A.B with the diagnosis last_tile_skipped. No GPU needed.
#   expect_failure_test.sh <expect_failure.sh> <fake_lab_program.sh>
script=$1 fake=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/expect-failure.XXXXXX") || exit 1
bad=0
expect() {  # expect <exit status> <EXPECT_DIAGNOSIS>
  EXPECT_DIAGNOSIS="$2" sh "$script" "$fake" "$work/r" A.B >"$work/out" 2>&1
  got=$?
  if [ "$got" -ne "$1" ]; then
    echo "FAIL: EXPECT_DIAGNOSIS='$2' gave status $got, expected $1:"
    cat "$work/out"
    bad=1
  fi
}
expect 0 ""                                     # no expectation: the verdict alone
expect 0 "last_tile_skipped"                    # the right one
expect 0 "last_tile_skipped first_tile_only"    # right, with an alternative
expect 1 "first_tile_only"                      # the wrong one
expect 1 "first_tile_only last_tile_skipped"    # allowed, but the first is never named
rm -rf "$work"
[ "$bad" -eq 0 ] && echo "expect_failure.sh checks diagnoses"
exit $bad
