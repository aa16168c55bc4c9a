#!/bin/sh
# End to end without a GPU: a fake nvidia-smi lists two GPUs, a small project configured with
# cmake/GpuResources.cmake registers six GPU tests that each hold their GPU for a moment, and
# `ctest -j 4` must run them on both GPUs, never two at once on one. Then with no GPU listed the
# same project must fall back to RESOURCE_LOCK gpu (one GPU test at a time, no resource spec).
#   gpu_resources_test.sh SOURCE_ROOT WORK_DIR
set -eu
root=${1:?usage: gpu_resources_test.sh SOURCE_ROOT WORK_DIR}
work=${2:?usage: gpu_resources_test.sh SOURCE_ROOT WORK_DIR}
project=$root/cmake/tests/gpu-resources-project
cmake=${CMAKE:-cmake}  # the running build's cmake and ctest when ctest runs this
ctest=${CTEST:-ctest}
rm -rf "$work"
mkdir -p "$work/bin"
unset CUDA_VISIBLE_DEVICES CTEST_RESOURCE_GROUP_COUNT CTEST_RESOURCE_GROUP_0_GPUS
cat > "$work/bin/nvidia-smi" <<'SMI'
#!/bin/sh
[ "$FAKE_GPUS" -ge 1 ] && echo "GPU 0: Fake GPU (UUID: GPU-0000)"
[ "$FAKE_GPUS" -ge 2 ] && echo "GPU 1: Fake GPU (UUID: GPU-1111)"
exit 0
SMI
chmod +x "$work/bin/nvidia-smi"
PATH="$work/bin:$PATH"
export PATH

FAKE_GPUS=2 "$cmake" -S "$project" -B "$work/two" -DLABS_ROOT="$root" > "$work/two.log" 2>&1 ||
  { cat "$work/two.log"; exit 1; }
grep -q '"id": "1"' "$work/two/gpu-resources.json" ||
  { echo "FAIL: no spec with two GPUs"; cat "$work/two/gpu-resources.json"; exit 1; }
(cd "$work/two" && "$ctest" -j 4 --output-on-failure) > "$work/two.ctest.log" 2>&1 ||
  { cat "$work/two.ctest.log"; exit 1; }
# Each line of the log: device start end (nanoseconds).
sort -k2,2n "$work/two/gpu-log.txt" | awk '
  { dev = $1; used[dev]++
    if (dev in busy_until && $2 < busy_until[dev]) { print "FAIL: two tests at once on GPU " dev; bad = 1 }
    if ($3 > busy_until[dev]) busy_until[dev] = $3
    for (d in busy_until) if (d != dev && busy_until[d] > $2) parallel = 1 }
  END { n = 0; for (d in used) n++
        if (n != 2) { print "FAIL: tests ran on " n " GPU(s), expected 2"; bad = 1 }
        if (!parallel) { print "FAIL: the two GPUs were never used at once"; bad = 1 }
        if (!bad) print "ok: six GPU tests spread over 2 GPUs, one test per GPU at a time, both GPUs at once"
        exit bad }'

FAKE_GPUS=0 "$cmake" -S "$project" -B "$work/none" -DLABS_ROOT="$root" > "$work/none.log" 2>&1 ||
  { cat "$work/none.log"; exit 1; }
if [ -e "$work/none/gpu-resources.json" ] || grep -q CTEST_RESOURCE_SPEC_FILE "$work/none/CTestTestfile.cmake" ||
   ! grep -q 'RESOURCE_LOCK "gpu"' "$work/none/CTestTestfile.cmake"; then
  echo "FAIL: without a GPU the tests must take RESOURCE_LOCK gpu and no resource spec"
  exit 1
fi
echo "ok: without a GPU, RESOURCE_LOCK gpu and no resource spec"
