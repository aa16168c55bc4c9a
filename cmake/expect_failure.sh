#!/bin/sh
# A test of the grader itself: runs a lab program built from a kernel that is known to be wrong
# (or the starter) and passes only if every named check is failed by the checks.
#   expect_failure.sh LAB_EXE RESULTS_DIR CHECK...
# With EXPECT_DIAGNOSIS="id [other-id ...]" in the environment (from the kernel's "// diagnosis:"
# lines) the records must also name the mistake: every named check that carries a diagnosis must
# carry one of these ids, and at least one must carry the first.
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

# The id of a record's own diagnosis: the "id" line of the top-level "diagnosis" object (records
# are written with two spaces of indent a level; the cases' diagnoses sit deeper).
diagnosis_of() {
  awk '/^  "diagnosis": \{/ { inside = 1; next }
       inside && /^  \}/ { exit }
       inside && /^    "id": "/ { sub(/^    "id": "/, ""); sub(/",?$/, ""); print; exit }' "$1"
}

bad=0
primary_seen=0
primary=""
for id in $EXPECT_DIAGNOSIS; do primary=$id; break; done
for check in "$@"; do
  record="$results/$check.json"
  if [ ! -f "$record" ]; then
    echo "NOT CAUGHT: $check left no result record (the program ended with status $status)"
    bad=1
    continue
  elif grep -q '^  "verdict": "fail"' "$record"; then
    echo "caught: $check failed, as it must"
  else
    echo "NOT CAUGHT: $check was not failed: $(grep '^  "verdict"' "$record")"
    bad=1
  fi
  [ -n "$EXPECT_DIAGNOSIS" ] || continue
  given=$(diagnosis_of "$record")
  if [ -z "$given" ]; then
    echo "  diagnosis: none given for $check"
    continue
  fi
  allowed=0
  for id in $EXPECT_DIAGNOSIS; do [ "$id" = "$given" ] && allowed=1; done
  if [ "$allowed" -eq 1 ]; then
    echo "  diagnosis: $check names $given, as expected"
    [ "$given" = "$primary" ] && primary_seen=1
  else
    echo "WRONG DIAGNOSIS: $check names $given; expected $EXPECT_DIAGNOSIS"
    bad=1
  fi
done
if [ -n "$EXPECT_DIAGNOSIS" ] && [ "$primary_seen" -eq 0 ]; then
  echo "WRONG DIAGNOSIS: no check named $primary"
  bad=1
fi
exit $bad
