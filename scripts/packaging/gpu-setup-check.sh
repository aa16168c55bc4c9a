#!/bin/sh
# The Gradescope package's GPU branch, checked on a GPU host (docs/deploy-autograders.md, "On a
# GPU"): `labgrade package gradescope lab6` built from this tree, unpacked into a scratch
# /autograder layout (LABGRADE_AUTOGRADER_ROOT), its setup.sh run as Gradescope runs it, with no
# network (apt-get is a stand-in that fails, as offline), then run_autograder for four sample-class
# submissions (a right kernel, a right but slow one, a wrong one, one that does not compile), each
# results.json checked by check-results.py against examples/lab6-class/expected.json: Gradescope's
# format, the status, the points in the expected range, and every check judged (speed measured).
#   scripts/packaging/gpu-setup-check.sh OUT [--labgrade PATH] [--cpu] [--only a,b]
# OUT gets summary.txt (the host, each step's time, whether apt-get was called, the table),
# setup.log, grading.log and results/NAME.json; nothing else. Exit 0 when every result is as
# expected, 1 on any difference, 2 when it cannot run.
# --labgrade PATH: writes the package with this labgrade (default: one built from this tree in the
#     scratch folder; the CUDA backend where a GPU answers).
# --cpu: the CPU branch instead (setup.sh --backend emulation; speed not measured, its points off
#     the ranges): how the check itself is tested on a machine without a GPU.
# --only: other entries of examples/lab6-class/submissions.
# LABS_GPU_CHECK_SECONDS (default 350): the whole check's limit; a step still running then is
# stopped and said. The scratch folder ($TMPDIR) is removed at the end unless LABS_GPU_CHECK_KEEP=1.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
usage="usage: scripts/packaging/gpu-setup-check.sh OUT [--labgrade PATH] [--cpu] [--only a,b]"
out=${1:?$usage}
shift
labgrade="" cpu=0 only="alice,erin,dan,frank"
while [ $# -gt 0 ]; do
  case $1 in
    --labgrade) labgrade=${2:?$usage}; shift 2 ;;
    --cpu) cpu=1; shift ;;
    --only) only=${2:?$usage}; shift 2 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
start=$(date +%s)
deadline=$((start + ${LABS_GPU_CHECK_SECONDS:-350}))
class=$repo/examples/lab6-class
mkdir -p "$out/results"
out=$(cd "$out" && pwd)
rm -f "$out"/results/*.json "$out/summary.txt" "$out/setup.log" "$out/grading.log"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/labgrade-gpu-check.XXXXXX")
[ "${LABS_GPU_CHECK_KEEP:-0}" = 1 ] || trap 'chmod -R u+rwX "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT
summary=$out/summary.txt
note() { echo "$*" | tee -a "$summary"; }
stop() { note "gpu-setup-check: $*"; exit 2; }
# step SECONDS_CAP COMMAND...: COMMAND within the cap and the check's deadline; 124 when stopped.
step() {
  cap=$1
  shift
  left=$((deadline - $(date +%s)))
  [ "$left" -lt "$cap" ] && cap=$left
  [ "$cap" -gt 0 ] || return 124
  timeout "$cap" "$@"
}
elapsed() { echo "$(($(date +%s) - $1)) s"; }

note "gpu-setup-check: $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, tree $(git -C "$repo" describe --always --dirty 2>/dev/null || echo "?")"
note "gpu: $(nvidia-smi -L 2>/dev/null | head -1 || true)"
export PATH="$PATH:/usr/local/cuda/bin"
note "nvcc: $(nvcc --version 2>/dev/null | tail -1 || true); $(cmake --version 2>/dev/null | head -1 || echo 'no cmake')"
if [ "$cpu" -eq 0 ] && ! nvidia-smi -L >/dev/null 2>&1; then
  stop "nvidia-smi lists no GPU here: run it on the GPU host (or --cpu to check the CPU branch)"
fi

# 1. labgrade, to write the package.
t=$(date +%s)
if [ -z "$labgrade" ]; then
  labgrade=$scratch/labgrade-build/grader/labgrade
  { cmake -S "$repo" -B "$scratch/labgrade-build" -DCMAKE_BUILD_TYPE=Release &&
      step 100000 cmake --build "$scratch/labgrade-build" --target labgrade -j "$(nproc)"; } \
    > "$scratch/labgrade-build.log" 2>&1 ||
    { tail -20 "$scratch/labgrade-build.log"; stop "could not build labgrade from $repo (above)"; }
fi
[ -x "$labgrade" ] || stop "no labgrade at $labgrade"
zip=$scratch/lab6-autograder.zip
"$labgrade" package gradescope lab6 "$zip" --source "$repo" > /dev/null ||
  stop "labgrade package gradescope lab6 failed"
note "package: $(elapsed "$t") (labgrade and the zip)"

# 2. The /autograder layout and setup.sh's run, offline.
root=$scratch/autograder
mkdir -p "$root/source" "$root/results" "$root/submission" "$scratch/no-network"
python3 "$repo/scripts/packaging/check-results.py" unzip "$zip" "$root/source"
cp -p "$root/source/run_autograder" "$root/run_autograder"
cat > "$scratch/no-network/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$*" >> "$scratch/apt-get.calls"
echo "apt-get: no network here (gpu-setup-check.sh's stand-in)" >&2
exit 100
EOF
chmod +x "$scratch/no-network/apt-get"
t=$(date +%s)
setup_args=""
[ "$cpu" -eq 1 ] && setup_args="--backend emulation"
status=0
# shellcheck disable=SC2086
step 100000 env LABGRADE_AUTOGRADER_ROOT="$root" PATH="$scratch/no-network:$PATH" \
  sh "$root/source/setup.sh" $setup_args > "$out/setup.log" 2>&1 || status=$?
note "setup.sh: $(elapsed "$t"), exit $status"
if [ -f "$scratch/apt-get.calls" ]; then
  note "apt-get: called ($(tr '\n' ';' < "$scratch/apt-get.calls")) and failed as offline: setup went on"
else
  note "apt-get: not called (every package needed was here, or not root)"
fi
grep "^install-grader: " "$out/setup.log" | tee -a "$summary" || true
[ "$status" -eq 124 ] && stop "setup.sh ran past the check's time (setup.log)"
[ "$status" -eq 0 ] || stop "setup.sh failed (setup.log: $(tail -1 "$out/setup.log"))"
want="ready (cuda backend)"
[ "$cpu" -eq 1 ] && want="ready (emulation backend)"
grep -qF "$want" "$out/setup.log" || stop "setup.sh did not build the kit it should have: no '$want' in setup.log"

# 3. Each submission as Gradescope hands it over, graded by run_autograder: a right but slow
# kernel takes seconds on a GPU, minutes under the emulation (erin: 1 to 3 on 2 busy cores).
per_submission=150
[ "$cpu" -eq 1 ] && per_submission=600
for name in $(echo "$only" | tr , ' '); do
  entry=$class/submissions/$name
  [ -e "$entry" ] || stop "no $entry"
  rm -rf "$root/submission" "$root/results"
  mkdir -p "$root/submission" "$root/results"
  if [ -d "$entry" ]; then cp -a "$entry/." "$root/submission/"; else cp -a "$entry" "$root/submission/"; fi
  t=$(date +%s)
  status=0
  echo "== $name" >> "$out/grading.log"
  step "$per_submission" env LABGRADE_AUTOGRADER_ROOT="$root" "$root/run_autograder" \
    >> "$out/grading.log" 2>&1 ||
    status=$?
  if [ -f "$root/results/results.json" ]; then
    cp "$root/results/results.json" "$out/results/$name.json"
    note "$name: $(elapsed "$t"), exit $status"
  else
    note "$name: $(elapsed "$t"), exit $status, NO results.json (grading.log)"
  fi
  [ "$status" -eq 124 ] && note "$name: stopped after its $per_submission s or the check's time"
done

# 4. Against the class's expected scores.
gpu_flag="--gpu"
[ "$cpu" -eq 1 ] && gpu_flag=""
status=0
# shellcheck disable=SC2086
python3 "$repo/scripts/packaging/check-results.py" expected gradescope "$out/results" \
  "$class/expected.json" $gpu_flag >> "$summary" 2>&1 || status=$?
missing=0
for name in $(echo "$only" | tr , ' '); do
  [ -f "$out/results/$name.json" ] || { note "MISSING: $name has no results.json"; missing=1; }
done
sed -n '/^submission /,$p' "$summary"
note "gpu-setup-check: $(elapsed "$start") in all"
if [ "$status" -ne 0 ] || [ "$missing" -ne 0 ]; then
  note "gpu-setup-check: FAILED"
  exit 1
fi
note "gpu-setup-check: passed"
