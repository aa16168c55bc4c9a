#!/bin/sh
# Grades a class on a Slurm cluster: plans the shards, submits them as a job array (one GPU per
# task) and a merge job that runs after every task has ended, and prints the job ids.
#   scripts/slurm/submit.sh labN SUBMISSIONS OUT [--shards N] [--wait] [labgrade shard plan options]
# OUT/gradebook.html appears when the merge job has run; each task's log is OUT/slurm/shard-<i>.log.
# Needs labgrade and the lab's grading kit built on a file system the nodes share (LABGRADE, default
# build-grader/grader/labgrade: scripts/grade-class.sh builds it). Settings, from the environment:
#   LABS_SLURM_GRES       the GPU each task asks for (default gpu:1; empty: no --gres, e.g. for a
#                         cluster without GPUs, where every kernel check is skipped)
#   LABS_SLURM_EXCLUSIVE  1: each task takes a whole node (--exclusive), not just its GPU
#   LABS_SLURM_CPUS       CPUs per task, for the builds (default 4)
#   LABS_SLURM_ARGS       more sbatch options for both jobs, e.g. "--partition=gpu --account=cs101"
#                         (sbatch also reads SBATCH_PARTITION, SBATCH_ACCOUNT, SBATCH_TIMELIMIT)
# With --wait it waits for the merge job and exits with its status (0 all graded, 1 some
# submissions not gradable, 3 a shard did not finish: `labgrade shard run OUT --index I`, then
# `labgrade shard merge OUT`).
set -eu
usage="usage: scripts/slurm/submit.sh labN SUBMISSIONS OUT [--shards N] [--wait] [plan options]"
lab=${1:?$usage}
submissions=${2:?$usage}
out=${3:?$usage}
shift 3
shards=4
wait=""
plan_args=""
while [ $# -gt 0 ]; do
  case $1 in
    --shards) shards=${2:?$usage}; shift 2 ;;
    --shards=*) shards=${1#--shards=}; shift ;;
    --wait) wait=1; shift ;;
    *) plan_args="$plan_args $1"; shift ;;
  esac
done
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
LABGRADE=${LABGRADE:-$root/build-grader/grader/labgrade}
export LABGRADE
if [ ! -x "$LABGRADE" ]; then
  echo "submit.sh: no labgrade at $LABGRADE: build it (scripts/grade-class.sh does, or" \
       "cmake --build BUILD --target labgrade ${lab}_kit) or set LABGRADE" >&2
  exit 2
fi
mkdir -p "$out/slurm"
out=$(cd "$out" && pwd)

# shellcheck disable=SC2086
count=$("$LABGRADE" shard plan "$lab" "$submissions" "$out" --shards "$shards" $plan_args)

gres=${LABS_SLURM_GRES-gpu:1}
task_args="--cpus-per-task=${LABS_SLURM_CPUS:-4}${gres:+ --gres=$gres}"
[ "${LABS_SLURM_EXCLUSIVE:-0}" = 1 ] && task_args="$task_args --exclusive"
# shellcheck disable=SC2086
array=$(sbatch --parsable --array=0-$((count - 1)) --job-name="labgrade-$lab" \
  --output="$out/slurm/shard-%a.log" $task_args ${LABS_SLURM_ARGS:-} \
  "$here/grade-class.sbatch" run "$out")
array=${array%%;*}  # "id;cluster" on federated clusters
# afterany, not afterok: a failed task must not keep the others' results out of the gradebook;
# the merge lists its submissions as not graded and exits 3.
merge_args="--parsable --dependency=afterany:$array --job-name=labgrade-$lab-merge --output=$out/slurm/merge.log"
echo "submitted: $count shard(s) as job array $array, merge job after it" >&2
if [ -n "$wait" ]; then
  # shellcheck disable=SC2086
  if sbatch --wait $merge_args ${LABS_SLURM_ARGS:-} "$here/grade-class.sbatch" merge "$out" \
       > "$out/slurm/merge.jobid"; then
    status=0
  else
    status=$?
  fi
  cat "$out/slurm/merge.log" >&2 || true
  echo "gradebook: $out/gradebook.html (merge exit status $status)" >&2
  exit "$status"
fi
# shellcheck disable=SC2086
merge=$(sbatch $merge_args ${LABS_SLURM_ARGS:-} "$here/grade-class.sbatch" merge "$out")
echo "array job $array, merge job ${merge%%;*}: squeue -u \"\$USER\"; the gradebook will be $out/gradebook.html" >&2
echo "$array ${merge%%;*}"
