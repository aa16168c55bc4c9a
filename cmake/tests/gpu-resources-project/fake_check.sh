#!/bin/sh
# A GPU test that only holds "its GPU" for a moment: logs "device start end" (nanoseconds).
. "$1/ctest_gpu.sh"
start=$(date +%s%N)
sleep 0.4
echo "${CUDA_VISIBLE_DEVICES:-none} $start $(date +%s%N)" >> "$2"
