# Sourced by the batch's end-to-end test scripts (emulated-pass-batch.sh,
# sanitizer-fallback-batch.sh): what each does the same way. Needs $root, $labgrade.

# lab7_class DIR: lab 7's reference solution as solution.cu, and its known-wrong
# loads_past_edge_unused.cu (reads past the inputs' edge whose values are never used) as wrong.cu.
lab7_class() {
  rm -rf "$1"
  mkdir -p "$1"
  cp "$root/solutions/lab7-tiled-any-size/kernel.cu" "$1/solution.cu"
  cp "$root/labs/lab7-tiled-any-size/tests/wrong/loads_past_edge_unused.cu" "$1/wrong.cu"
}

# run_batch LOG [labgrade batch arguments]: the batch, its output in LOG. Exits the script with 77
# when bubblewrap does not work here, with 1 when the batch did not end normally (status above 1;
# 1 only says some submission did not pass).
run_batch() {
  log=$1
  shift
  status=0
  "$labgrade" batch "$@" > "$log" 2>&1 || status=$?
  if [ "$status" -gt 1 ] && grep -q "bubblewrap is not available" "$log"; then
    echo "skipped: bubblewrap does not work here"; exit 77
  fi
  if [ "$status" -gt 1 ]; then
    echo "labgrade batch ended with status $status ($log):"; tail -20 "$log"; exit 1
  fi
}
