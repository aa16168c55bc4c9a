#!/bin/sh
# scripts/cuda-start-bench.sh, run once with one process: on a GPU it prints its figures; without
# one it fails saying the probe found no GPU, not with a table of made-up zeros.
#   cuda_start_bench_test.sh SOURCE_DIR
bench="$1/scripts/cuda-start-bench.sh"
output=$(bash "$bench" 0 1 2>&1)
status=$?
if nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  echo "$output" | grep -Eq '^K=1 +on GPUs 0 +wall +[0-9.]+ s; per process mean [0-9.]+ s' ||
    { echo "cuda-start-bench on a GPU printed no figures: $output"; exit 1; }
else
  [ "$status" -ne 0 ] || { echo "cuda-start-bench without a GPU exited 0: $output"; exit 1; }
  echo "$output" | grep -q "no usable GPU" ||
    { echo "cuda-start-bench without a GPU did not say so: $output"; exit 1; }
fi
echo "cuda-start-bench: ok (exit $status)"
