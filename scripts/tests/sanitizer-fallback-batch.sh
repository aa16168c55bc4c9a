#!/bin/sh
# labgrade batch on a GPU with an emulated pass that cannot look: compute-sanitizer must look
# instead (batch/sanitize_step.hpp, sanitizer_plan_of). The "emulation kit" is a copy of the GPU
# kit whose compiler always fails, so the reference's emulated pass does not build, no emulated
# finding may be charged, and every submission gets the GPU's pass after its speed run. Lab 7's
# known-wrong loads_past_edge_unused.cu (reads past the inputs' edge whose values are never used)
# must then fail AnySize.Integers with memcheck's words and its line, and the reference solution
# must lose nothing. Skipped (77) without a GPU or bubblewrap.
#   scripts/tests/sanitizer-fallback-batch.sh BUILD OUT
set -eu
usage="usage: scripts/tests/sanitizer-fallback-batch.sh BUILD OUT"
build=$(cd "${1:?$usage}" && pwd)
out=${2:?$usage}
root=$(cd "$(dirname "$0")/../.." && pwd)
if ! nvidia-smi -L > /dev/null 2>&1; then
  echo "skipped: no GPU for compute-sanitizer"; exit 77
fi
cmake --build "$build" --target labgrade lab7_kit > "$out.build.log" 2>&1 ||
  { echo "labgrade or lab7_kit does not build (see $out.build.log)"; exit 1; }
kit=$build/grading-kit/lab7
grep -q '"sanitizer": *"[^"]' "$kit/kit.json" ||
  { echo "skipped: the kit has no compute-sanitizer"; exit 77; }
labgrade=$build/grader/labgrade
. "$root/scripts/tests/batch-test-lib.sh"
rm -rf "$out" "$out.emukit"
lab7_class "$out.class"
cp -r "$kit" "$out.emukit"
printf '#!/bin/sh\necho "this emulation cannot build kernel.cu" >&2\nexit 1\n' > "$out.emukit/nvcc-fails"
chmod +x "$out.emukit/nvcc-fails"
python3 - "$out.emukit" <<'PY'
import json, sys
kit = sys.argv[1] + "/kit.json"
data = json.load(open(kit))
data["backend"] = "emulation"
data["nvcc"] = sys.argv[1] + "/nvcc-fails"
data["read_only"].append(sys.argv[1])
json.dump(data, open(kit, "w"), indent=2)
PY
run_batch "$out.log" lab7 "$out.class" "$out" --kit "$kit" --emulated-pass "$out.emukit" -j 4
PYTHONPATH="$root/scripts/tests" python3 - "$out" "$out.log" <<'PY'
import sys
from pathlib import Path
from batch_results import finish, phase_events, records, solution_problems
out, log = sys.argv[1], Path(sys.argv[2]).read_text()
problems = []
if "compute-sanitizer looks instead" not in log:
    problems.append("the batch did not warn that the emulated pass cannot be trusted")
wrong = records(out, "wrong").get("AnySize.Integers")
if not wrong or wrong["verdict"] != "fail" or "compute-sanitizer memcheck" not in wrong["reason"] \
        or "kernel.cu:" not in wrong["reason"]:
    problems.append(f"wrong.cu's AnySize.Integers: {wrong and (wrong['verdict'], wrong['reason'])}")
problems += solution_problems(out, "compute-sanitizer")
passes = phase_events(out, "sanitizer@")
for who in ("solution", "wrong"):
    if "end" not in passes.get(who, set()):
        problems.append(f"no sanitizer pass for {who} in the timeline")
finish("sanitizer fallback", problems, sys.argv[2])
PY
echo "sanitizer fallback: wrong.cu failed with memcheck's words, the solution lost nothing"
