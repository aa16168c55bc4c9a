#!/bin/sh
# On a machine with two GPUs: grades a made-up class of N lab 6 submissions (scripts/make-class.sh)
# once on GPU 0 and once spread over GPUs 0 and 1, with the same seed, and checks that the two
# gradebooks agree student by student (scripts/ci/compare-gradebooks.py), that the one-GPU
# gradebook gives every student the points make-class.sh made them for (check-class-points.py:
# two batches that grade alike can both be wrong under load), and that both GPUs ran kernels in
# the second run (nvidia-smi sampled every LABS_GPU_SAMPLE_SECONDS, default 5). Prints both times
# and fails when two GPUs were less than LABS_MIN_SPEEDUP (default 1.5) times faster than one
# (issue 33: a grading host's second GPU must pay for itself).
#   scripts/ci/two-gpu-check.sh [N] [OUT] [labgrade batch options]     (default 40, /tmp/two-gpu)
# Uses LABS_GRADER_BUILD (default build-grader/, configured with the solutions and built here).
set -eu
n=${1:-40}
out=${2:-/tmp/two-gpu}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
root=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="$PATH:/usr/local/cuda/bin"
build=${LABS_GRADER_BUILD:-$root/build-grader}
seed=${LABS_SEED:-4242}
gpus=$(nvidia-smi -L | grep -c '^GPU ' || true)
if [ "$gpus" -lt 2 ]; then
  echo "two-gpu-check: needs two GPUs, nvidia-smi lists $gpus" >&2
  exit 2
fi
[ -f "$build/CMakeCache.txt" ] || cmake -S "$root" -B "$build" -DLABS_USE_SOLUTIONS=ON > /dev/null
cmake --build "$build" --target labgrade lab6_kit -j "$(nproc)" > "$build.build.log" 2>&1 ||
  { tail -30 "$build.build.log"; exit 2; }
rm -rf "$out"
mkdir -p "$out"
"$root/scripts/make-class.sh" "$n" "$out/class" > "$out/class.txt"

# Seconds between two samples of the GPUs' processes. nvidia-smi's query takes the driver's locks
# that every CUDA process's start, allocations and end take too, on any GPU: sampled every 0.5 s,
# one query took 0.7 to 1 s under a batch's load, and may be what slowed its runs
# (docs/batch-grading-h100.md, "Several GPUs"). Sparse samples still show both GPUs in use.
sample_seconds=${LABS_GPU_SAMPLE_SECONDS:-5}

grade() {  # grade NAME GPUS [options]: one batch, with the GPUs' use sampled
  name=$1 devices=$2
  shift 2
  (while :; do
     nvidia-smi --query-compute-apps=gpu_bus_id,pid --format=csv,noheader 2> /dev/null
     sleep "$sample_seconds"
   done) > "$out/$name.samples" &
  sampler=$!
  start=$(date +%s.%N)
  status=0
  "$build/grader/labgrade" batch lab6 "$out/class" "$out/$name" --gpus "$devices" --seed "$seed" \
    "$@" > "$out/$name.log" 2>&1 || status=$?
  end=$(date +%s.%N)
  kill "$sampler"
  case $status in 0 | 1) ;; *) tail -30 "$out/$name.log"; exit 1 ;; esac
  seconds=$(awk "BEGIN{printf \"%.1f\", $end - $start}")
  busy=$(cut -d, -f1 "$out/$name.samples" | sort | uniq -c | awk '{printf "%s%s: %d samples", sep, $2, $1; sep=", "}')
  echo "$name: $n submissions on GPU(s) $devices: $seconds s; GPUs seen running kernels: ${busy:-none}" |
    tee -a "$out/summary.txt"
}
grade one-gpu 0 "$@"
one_gpu_seconds=$seconds
as_made=0
python3 "$root/scripts/ci/check-class-points.py" "$out/class.txt" "$out/one-gpu" > "$out/as-made.txt" ||
  as_made=$?
tail -1 "$out/as-made.txt" | tee -a "$out/summary.txt"
grade two-gpus 0,1 "$@"
two_gpus_seconds=$seconds
used=$(cut -d, -f1 "$out/two-gpus.samples" | sort -u | grep -c . || true)
same=0
python3 "$root/scripts/ci/compare-gradebooks.py" "$out/one-gpu" "$out/two-gpus" > "$out/compare.txt" ||
  same=$?
cat "$out/compare.txt" >> "$out/summary.txt"
tail -5 "$out/compare.txt"
[ "$same" -eq 0 ] || { echo "two-gpu-check: the verdicts differ ($out/compare.txt)"; exit 1; }
[ "$as_made" -eq 0 ] || { echo "two-gpu-check: points not as made ($out/as-made.txt)"; exit 1; }
if [ "$used" -lt 2 ]; then
  echo "two-gpu-check: the two-GPU run was seen on $used GPU(s) only" | tee -a "$out/summary.txt"
  exit 1
fi
min_speedup=${LABS_MIN_SPEEDUP:-1.5}
speedup=$(awk "BEGIN{printf \"%.2f\", $one_gpu_seconds / $two_gpus_seconds}")
echo "speed-up: ${speedup}x (${one_gpu_seconds} s on one GPU, ${two_gpus_seconds} s on two; at least ${min_speedup}x expected)" |
  tee -a "$out/summary.txt"
if awk "BEGIN{exit !($speedup < $min_speedup)}"; then
  echo "two-gpu-check: two GPUs were only ${speedup}x as fast as one (at least ${min_speedup}x expected)"
  exit 1
fi
echo "two-gpu-check: same verdicts, both GPUs used, ${speedup}x faster ($out/summary.txt)"
