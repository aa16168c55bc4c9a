#!/bin/sh
# Grading through Slurm, tested for real on a one-node cluster on this machine (CI, as root: it
# installs slurm-wlm and munge with apt-get and starts munged, slurmctld and slurmd on localhost,
# without cgroups, so it runs in a container). Grades a class twice with the same seed, directly
# (`labgrade batch`) and as a Slurm job array (scripts/slurm/submit.sh, no --gres: the CI machine
# has no GPU), and compares the two gradebooks student by student (statuses, points per check,
# verdicts; scripts/ci/compare-gradebooks.py).
#   scripts/ci/slurm-test.sh [BUILD]      (default build-ci-emulation)
# BUILD's lab 6 grading kit is built and used (cmake --build BUILD --target lab6_kit), with its
# labgrade (or the one its LABS_LABGRADE names). With the CPU emulation backend (CI's
# build-ci-emulation) the kernels run on the CPU, so the verdicts compared are real: right, wrong,
# crashed, faked; speed checks are "not measured". With a cuda build on a machine without a GPU
# every kernel check is skipped. The reference solution run is left out (--no-reference: it costs
# a build and a run per shard); LABS_SLURM_TEST_REFERENCE=1 keeps it.
# Then, nightly (LABS_CI_NIGHTLY=1, as scripts/run-tests.sh's nightly tests; about 50 s, left out
# of CI to keep it under 15 minutes: 876 s with it on 2026-11-28), lab 4 the same way, with a
# class of three: the reference solution (kernel.cu and bonus.cu), the starter, and a hostile
# kernel from examples/redteam/ that writes the worked examples' answers without reading its
# inputs: the solution must earn every point but speed, the hostile kernel none. CI still grades
# lab 6's class both ways and compares them; a bonus file and that hostile kernel are graded in
# CI's ctest (lms.CanvasClass.ABonusUploadedApartIsBuiltWithTheKernel,
# lab4.must_fail.redteam_hardcoded_example_answers).
# By default a subset of the sample class in 2 shards, to keep CI under its 15 minutes: alice,
# dan, frank, grace, judy.zip, mallory-crash and mallory-fake-results (graded right, graded wrong,
# compile error, no kernel file, bad archive, a crash, forged results). LABS_SLURM_TEST_CLASS=full
# grades all of examples/lab6-class/submissions (about 4 minutes a pass on 2 cores: its looping
# and sleeping entries run to their time limits); LABS_SLURM_TEST_SHARDS sets the shards.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build-ci-emulation}" && pwd)
export PATH="$PATH:/usr/local/cuda/bin"
work=${LABS_SLURM_TEST_DIR:-/tmp/labs-slurm-test}
shards=${LABS_SLURM_TEST_SHARDS:-2}
seed=${LABS_SLURM_TEST_SEED:-20261123}
if [ "$(id -u)" -ne 0 ]; then
  echo "slurm-test: needs root (installs slurm-wlm and munge, starts their daemons)" >&2
  exit 2
fi
start_all=$(date +%s)

# 1. Slurm and munge from the distribution.
missing=""
for package in slurm-wlm munge; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing="$missing $package"
done
if [ -n "$missing" ]; then
  echo "slurm-test: installing$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing > /dev/null
fi

# 2. labgrade and the lab 6 grading kit (a build may take its labgrade from another: LABS_LABGRADE).
labgrade=$(sed -n 's/^LABS_LABGRADE:FILEPATH=//p' "$build/CMakeCache.txt")
targets="lab6_kit lab4_kit"
if [ -z "$labgrade" ]; then
  labgrade=$build/grader/labgrade
  targets="labgrade $targets"
fi
# shellcheck disable=SC2086
cmake --build "$build" --target $targets -j "$(nproc)" > "$work.build.log" 2>&1 ||
  { tail -30 "$work.build.log"; exit 1; }
backend=$(sed -n 's/^LABS_BACKEND:STRING=//p' "$build/CMakeCache.txt")
echo "slurm-test: labgrade $labgrade, kits $build/grading-kit/lab6 and lab4 (backend ${backend:-cuda})"

# 3. A one-node cluster: localhost, no GPU, no cgroups, state in $work/slurm.
rm -rf "$work"
mkdir -p "$work/slurm/state" "$work/slurm/spool"
conf=$work/slurm/slurm.conf
cat > "$conf" <<CONF
ClusterName=labs-ci
SlurmctldHost=localhost
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$work/slurm/state
SlurmdSpoolDir=$work/slurm/spool
SlurmctldPidFile=$work/slurm/slurmctld.pid
SlurmdPidFile=$work/slurm/slurmd.pid
SlurmctldLogFile=$work/slurm/slurmctld.log
SlurmdLogFile=$work/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$conf"

started_munged=""
stop_daemons() {
  for pidfile in "$work/slurm/slurmd.pid" "$work/slurm/slurmctld.pid"; do
    [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2> /dev/null || true
  done
  [ -n "$started_munged" ] && kill "$started_munged" 2> /dev/null || true
}
trap stop_daemons EXIT

if ! munge -n > /dev/null 2>&1; then
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge
  [ -s /etc/munge/munge.key ] || runuser -u munge -- mungekey --create
  runuser -u munge -- /usr/sbin/munged
  started_munged=$(cat /run/munge/munged.pid 2> /dev/null || true)
fi
munge -n | unmunge > /dev/null
slurmctld -f "$conf"
slurmd -f "$conf" -N localhost
i=0
until [ "$(sinfo -h -n localhost -o %t 2> /dev/null)" = idle ]; do
  i=$((i + 1))
  if [ "$i" -gt 60 ]; then
    echo "slurm-test: the node did not become idle:" >&2
    sinfo -N -l >&2 || true
    tail -20 "$work/slurm/slurmctld.log" "$work/slurm/slurmd.log" >&2
    exit 1
  fi
  sleep 1
done
echo "slurm-test: one-node cluster up: $(sinfo -h -o '%P %D %t %c')"

# 4. Grading a class of LAB directly, then through Slurm, with the same seed; the two gradebooks
# must agree. Sets t0, t1, t2 (start, direct done, Slurm done).
grade_both() {
  lab=$1 class=$2
  count=$(ls "$class" | wc -l)
  # Two correctness runs at a time: under the emulation each is a CPU process of its own.
  options="--seed $seed --kit $build/grading-kit/$lab --shared-runs-per-gpu 2"
  [ "${LABS_SLURM_TEST_REFERENCE:-0}" = 1 ] || options="$options --no-reference"
  t0=$(date +%s)
  status=0
  # shellcheck disable=SC2086
  "$labgrade" batch "$lab" "$class" "$work/direct-$lab" $options > "$work/direct-$lab.log" 2>&1 ||
    status=$?
  t1=$(date +%s)
  case $status in 0 | 1) ;; *) cat "$work/direct-$lab.log"; exit 1 ;; esac
  echo "slurm-test: $lab: direct batch of $count submissions: $((t1 - t0)) s"
  status=0
  # shellcheck disable=SC2086
  LABGRADE=$labgrade LABS_SLURM_GRES="" LABS_SLURM_CPUS=1 \
    "$root/scripts/slurm/submit.sh" "$lab" "$class" "$work/slurm-$lab" --shards "$shards" --wait \
    $options > "$work/submit-$lab.log" 2>&1 || status=$?
  t2=$(date +%s)
  cat "$work/submit-$lab.log"
  case $status in 0 | 1) ;; *)
    echo "slurm-test: $lab: the merge job failed (status $status)"
    for log in "$work/slurm-$lab"/slurm/shard-*.log; do echo "== $log"; tail -20 "$log"; done
    exit 1 ;;
  esac
  echo "slurm-test: $lab: Slurm job array of $shards shard(s) and merge: $((t2 - t1)) s"
  python3 "$root/scripts/ci/compare-gradebooks.py" "$work/direct-$lab" "$work/slurm-$lab"
  if cmp -s "$work/direct-$lab/gradebook.csv" "$work/slurm-$lab/gradebook.csv"; then
    echo "slurm-test: $lab: gradebook.csv is the same byte for byte"
  fi
}

# A student's points in a gradebook.
points_of() { awk -F, -v who="$2" '$1 == who { print $(NF - 3) }' "$1/gradebook.csv"; }

# Real verdicts (both runs could agree on a kit that grades nothing): under the emulation a right
# kernel earns every point but the unmeasured speed checks'.
expect_points() {
  got=$(points_of "$1" "$2")
  if [ "$got" != "$3" ]; then
    echo "slurm-test: $2 got '$got' points, not $3 ($4)" >&2
    sed -n '1,40p' "$1/students/$2/results.json" >&2 || true
    exit 1
  fi
  echo "slurm-test: $2: $got points, as expected ($4)"
}

# 5. Lab 6: the sample class.
class=$work/class-lab6
mkdir -p "$class"
if [ "${LABS_SLURM_TEST_CLASS:-subset}" = full ]; then
  cp -a "$root/examples/lab6-class/submissions/." "$class/"
else
  for entry in alice dan frank grace judy.zip mallory-crash mallory-fake-results; do
    cp -a "$root/examples/lab6-class/submissions/$entry" "$class/"
  done
fi
grade_both lab6 "$class"
lab6_seconds="direct $((t1 - t0)) s, Slurm $((t2 - t1)) s"
if [ "$backend" = emulation ]; then
  expect_points "$work/direct-lab6" alice 70 "a right kernel: every check but speed"
  expect_points "$work/direct-lab6" mallory-fake-results 0 "forged results"
fi

# 6. Lab 4 (nightly): the solution, the starter and a hostile kernel.
if [ "${LABS_CI_NIGHTLY:-0}" != 1 ]; then
  echo "slurm-test: lab 4 left out (nightly: LABS_CI_NIGHTLY=1)"
  echo "slurm-test: passed in $(($(date +%s) - start_all)) s (lab 6: $lab6_seconds)"
  exit 0
fi
class=$work/class-lab4
mkdir -p "$class/solution" "$class/starter" "$class/hostile"
cp "$root/solutions/lab4-matvec/kernel.cu" "$root/solutions/lab4-matvec/bonus.cu" "$class/solution/"
cp "$root/labs/lab4-matvec/kernel.cu" "$class/starter/"
cp "$root/examples/redteam/lab4-matvec/hardcoded_example_answers.cu" "$class/hostile/kernel.cu"
grade_both lab4 "$class"
lab4_seconds="direct $((t1 - t0)) s, Slurm $((t2 - t1)) s"
if [ "$backend" = emulation ]; then
  all_but_speed=$(python3 -c "import json,sys; s=json.load(open(sys.argv[1])); \
print(sum(c['points'] for c in s['checks'] if c['kind'] != 'speed'))" \
    "$root/labs/lab4-matvec/spec.json")
  expect_points "$work/direct-lab4" solution "$all_but_speed" "the solution: every check but speed"
  expect_points "$work/direct-lab4" hostile 0 "answers written without reading the inputs"
  starter=$(points_of "$work/direct-lab4" starter)
  [ "$starter" -lt "$all_but_speed" ] ||
    { echo "slurm-test: the lab 4 starter got $starter points" >&2; exit 1; }
  echo "slurm-test: starter: $starter points, fewer than the solution's"
fi
echo "slurm-test: passed in $(($(date +%s) - start_all)) s (lab 6: $lab6_seconds; lab 4: $lab4_seconds)"
