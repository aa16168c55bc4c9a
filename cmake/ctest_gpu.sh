# Sourced by the wrappers of GPU tests (run_check.sh): when
# ctest ran the test with a GPU resource spec (cmake/GpuResources.cmake), it names the GPU it gave
# the test in CTEST_RESOURCE_GROUP_0_GPUS ("id:1,slots:1"); the test then sees only that GPU, so
# `ctest -j` runs tests on different GPUs and never two on one. The id counts the GPUs this
# process may see: when CUDA_VISIBLE_DEVICES is already set (a Slurm job, a shared runner) id N
# is its N-th entry, otherwise the N-th GPU of the machine. Without a spec nothing changes.
if [ -n "${CTEST_RESOURCE_GROUP_0_GPUS:-}" ]; then
  labs_gpu_id=${CTEST_RESOURCE_GROUP_0_GPUS#id:}
  labs_gpu_id=${labs_gpu_id%%,*}
  case $labs_gpu_id in
    '' | *[!0-9]*)
      echo "ctest_gpu.sh: cannot read a GPU id from CTEST_RESOURCE_GROUP_0_GPUS='$CTEST_RESOURCE_GROUP_0_GPUS'" >&2
      exit 2
      ;;
  esac
  if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
    labs_gpu_device=$(echo "$CUDA_VISIBLE_DEVICES" | cut -d, -f$((labs_gpu_id + 1)))
    if [ -z "$labs_gpu_device" ]; then
      echo "ctest_gpu.sh: GPU id $labs_gpu_id but CUDA_VISIBLE_DEVICES='$CUDA_VISIBLE_DEVICES' lists fewer GPUs (regenerate the spec: scripts/ctest-gpu-resources.sh)" >&2
      exit 2
    fi
  else
    labs_gpu_device=$labs_gpu_id
  fi
  export CUDA_VISIBLE_DEVICES="$labs_gpu_device"
  echo "GPU: $CUDA_VISIBLE_DEVICES (ctest resource gpus, id $labs_gpu_id)"
  unset labs_gpu_id labs_gpu_device
fi
