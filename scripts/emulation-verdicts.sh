#!/bin/sh
# The verdict table of docs/emulation-verdicts-by-check.md: runs every lab program of an
# emulation build made with LABS_USE_SOLUTIONS=ON and LABS_BUILD_SELF_TESTS=ON (the solution, the
# starter and every known-wrong kernel) over all its checks, and prints one markdown row per check
# that the GPU validation recorded (docs/known-wrong-h100.md: the checks each kernel must fail;
# every check of a solution passed) with the verdict on the GPU and under emulation; then a second
# table of the checks the GPU table does not list that the emulation fails.
#   scripts/emulation-verdicts.sh BUILD_DIR > table.md
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: scripts/emulation-verdicts.sh BUILD_DIR}
gpu_table="$root/docs/known-wrong-h100.md"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# verdict and reason of one record, as "verdict|reason" (reason cut to 110 characters).
record_fields() {
  verdict=$(sed -n 's/^  "verdict": "\(.*\)",\{0,1\}$/\1/p' "$1")
  reason=$(sed -n 's/^  "reason": "\(.*\)",\{0,1\}$/\1/p' "$1" | sed 's/\\"/"/g; s/|/\//g' | cut -c1-110)
  echo "$verdict|$reason"
}

header() {
  echo "| kernel | check | GPU (H100) | emulation | emulation's reason |"
  echo "| --- | --- | --- | --- | --- |"
}
: > "$work/unlisted.md"
header
for exe in "$build"/labs/lab[0-9]*; do
  [ -x "$exe" ] && [ -f "$exe" ] || continue
  name=$(basename "$exe")
  lab=${name%%_*}
  case $name in
    *_*) kind=variant ;;
    *) kind=solution ;;
  esac
  "$exe" --results-dir "$work/$name" > "$work/$name.log" 2>&1 || true
  for record in "$work/$name"/*.json; do
    check=$(basename "$record" .json)
    fields=$(record_fields "$record")
    verdict=${fields%%|*}
    reason=${fields#*|}
    if [ "$kind" = solution ]; then
      gpu=pass
    else
      gpu=$(grep "^| $name | $check |" "$gpu_table" | cut -d'|' -f4 | tr -d ' ' || true)
    fi
    label=$name
    [ "$kind" = solution ] && label="$lab (solution)"
    if [ -z "$gpu" ]; then
      # Not in the GPU table: the kernel need not fail it. Listed apart if the emulation fails it.
      [ "$verdict" = fail ] && echo "| $label | $check | not run | $verdict | $reason |" >> "$work/unlisted.md"
      continue
    fi
    echo "| $label | $check | $gpu | $verdict | $reason |"
  done
  # Kernels whose must-fail line is sanitizer.racecheck: on the GPU, compute-sanitizer caught them.
  if [ "$kind" = variant ]; then
    folder=$(ls -d "$root"/labs/"$lab"-*)
    source="$folder/tests/wrong/${name#*_}.cu"
    if [ -f "$source" ] && grep -q '^// must-fail:.*sanitizer.racecheck' "$source"; then
      echo "| $name | sanitizer.racecheck | caught | not run (no sanitizer) | no sanitizer on the CPU: its emulated_race test requires a correctness check to fail instead (see below) |"
    fi
  fi
done
echo
echo "Checks the GPU validation did not run for that kernel, failed under emulation:"
echo
header
cat "$work/unlisted.md"
