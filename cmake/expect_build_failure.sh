#!/bin/sh
# A test of the build's words: builds a known-wrong kernel that must not build (a call into a
# library the launcher does not link) and passes only when the build fails and its messages say
# every expected sentence, e.g. "calls cublasSgemm_v2 (cuBLAS), which this lab does not allow".
#   expect_build_failure.sh CMAKE BUILD_DIR TARGET PREREQUISITE EXPECTED...
# PREREQUISITE is a library the target links (the lab's entries table): without it the known-wrong
# kernels are not built yet (make all_known_wrong) and the test is skipped rather than building
# them from inside ctest.
cmake=$1 build=$2 target=$3 prerequisite=$4
shift 4
if [ ! -f "$prerequisite" ]; then
  echo "not built: $prerequisite (make all_known_wrong)"
  exit 77
fi
output=$(mktemp)
trap 'rm -f "$output"' EXIT
"$cmake" --build "$build" --target "$target" -- -j1 > "$output" 2>&1
status=$?
cat "$output"
if [ "$status" -eq 0 ]; then
  echo "NOT CAUGHT: $target was built, but its build must fail"
  exit 1
fi
bad=0
for expected in "$@"; do
  if grep -qF -- "$expected" "$output"; then
    echo "caught: the build says \"$expected\", as it must"
  else
    echo "WRONG WORDS: the failed build does not say \"$expected\""
    bad=1
  fi
done
exit $bad
