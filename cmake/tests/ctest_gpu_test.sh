#!/bin/sh
# Tests cmake/ctest_gpu.sh without a GPU: the GPU a wrapper picks from fake ctest resource values.
#   ctest_gpu_test.sh CMAKE_DIR
helper=${1:?usage: ctest_gpu_test.sh CMAKE_DIR}/ctest_gpu.sh
failures=0
# expect DESCRIPTION WANT_STATUS WANT_DEVICES RESOURCE_VALUE [CUDA_VISIBLE_DEVICES]
expect() {
  what=$1 want_status=$2 want=$3 value=$4 visible=${5-unset}
  got=$(
    unset CTEST_RESOURCE_GROUP_0_GPUS CUDA_VISIBLE_DEVICES
    [ "$value" = unset ] || export CTEST_RESOURCE_GROUP_0_GPUS="$value"
    [ "$visible" = unset ] || export CUDA_VISIBLE_DEVICES="$visible"
    . "$helper" > /dev/null 2>&1
    echo "${CUDA_VISIBLE_DEVICES-unset}"
  )
  status=$?
  if [ "$status" -ne "$want_status" ] || { [ "$want_status" -eq 0 ] && [ "$got" != "$want" ]; }; then
    echo "FAIL: $what: status $status, CUDA_VISIBLE_DEVICES=$got (want status $want_status, $want)"
    failures=$((failures + 1))
  else
    echo "ok: $what"
  fi
}
expect "no resource spec: nothing changes" 0 unset unset
expect "no resource spec keeps the caller's devices" 0 "2,3" unset "2,3"
expect "GPU 0" 0 0 "id:0,slots:1"
expect "GPU 1" 0 1 "id:1,slots:1"
expect "GPU 12" 0 12 "id:12,slots:1"
expect "id indexes CUDA_VISIBLE_DEVICES (a Slurm job's GPUs)" 0 7 "id:1,slots:1" "5,7"
expect "UUIDs in CUDA_VISIBLE_DEVICES" 0 GPU-b2 "id:1,slots:1" "GPU-a1,GPU-b2"
expect "id past CUDA_VISIBLE_DEVICES is an error" 2 - "id:2,slots:1" "5,7"
expect "a malformed value is an error" 2 - "slots:1"
expect "a non-numeric id is an error" 2 - "id:gpu0,slots:1"
[ "$failures" -eq 0 ] && echo "all cases pass" && exit 0
exit 1
