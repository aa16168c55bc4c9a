#!/bin/bash
# What the CUDA driver serialises across a grading host: K processes started at once, process i on
# GPU i mod |GPUS|, each making its context, allocating and running a little, and ending
# (scripts/cuda_start_probe.cu). If starting 16 on one GPU takes as long as 16 spread over four,
# the start is serialised host-wide (the driver's lock), and a batch scales with GPUs only as far
# as it starts fewer processes (docs/batch-grading-h100.md, "Several GPUs").
#   scripts/cuda-start-bench.sh GPUS K [K...]      e.g. scripts/cuda-start-bench.sh 0,1,2,3 1 16 32
#   CUDA_START_WRAP="compute-sanitizer --tool memcheck" scripts/cuda-start-bench.sh 0 8
# NVCC: the compiler of the probe (default nvcc in PATH).
# Prints, per K: the wall time, each process's mean and worst, and the mean of its three parts.
set -eu
[ $# -ge 2 ] || { echo "usage: scripts/cuda-start-bench.sh GPUS K [K...]" >&2; exit 2; }
gpus=$1
shift
IFS=, read -ra gpu_list <<< "$gpus"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"${NVCC:-nvcc}" -O2 -o "$work/probe" "$(dirname "$0")/cuda_start_probe.cu"
for k in "$@"; do
  start=$(date +%s.%N)
  for i in $(seq 0 $((k - 1))); do
    (
      began=$(date +%s.%N)
      # shellcheck disable=SC2086 # the wrapper is words
      CUDA_VISIBLE_DEVICES=${gpu_list[$((i % ${#gpu_list[@]}))]} ${CUDA_START_WRAP:-} \
        "$work/probe" > "$work/parts.$i" 2> "$work/err.$i" || echo "exit $?" >> "$work/err.$i"
      echo "$began $(date +%s.%N)" > "$work/life.$i"
    ) &
  done
  wait
  wall=$(awk "BEGIN{print $(date +%s.%N) - $start}")
  if grep -q "^exit " "$work"/err.*; then
    echo "K=$k: the probe failed:" >&2
    cat "$work"/err.* | head -5 >&2
    exit 1
  fi
  life=$(cat "$work"/life.* | awk '{t = $2 - $1; s += t; if (t > m) m = t} END {printf "%.2f %.2f", s / NR, m}')
  parts=$(grep -h -E '^[0-9.]+ [0-9.]+ [0-9.]+$' "$work"/parts.* |
    awk '{a += $1; b += $2; c += $3; n++} END {if (n) printf "start %.2f, 20 allocate+run+free %.2f, end %.2f", a / n, b / n, c / n}')
  printf 'K=%-3d on GPUs %-8s wall %6.2f s; per process mean %s s, worst %s s (%s)\n' "$k" "$gpus" \
    "$wall" "${life% *}" "${life#* }" "$parts"
  rm -f "$work"/parts.* "$work"/err.* "$work"/life.*
done
