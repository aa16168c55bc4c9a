#!/bin/sh
# labgrade batch on a GPU with an emulated pass that cannot look: compute-sanitizer must look
# instead (batch/sanitize_step.hpp, sanitizer_plan_of). The "emulation kit" is a copy of the GPU
# kit whose compiler always fails, so the reference's emulated pass does not build, no emulated
# finding may be charged, and every submission gets the GPU's pass after its speed run. Lab 7's
# known-wrong loads_past_edge_unused.cu (reads past the inputs' edge whose values are never used)
# must then fail AnySize.Integers with memcheck's words and its line, and the reference solution
# must lose nothing. Skipped (77) without a GPU or bubblewrap.
# Its batch run and its reading of records follow emulated-pass-batch.sh: each script is one
# ctest test that stands alone.
#   scripts/tests/sanitizer-fallback-batch.sh BUILD OUT
set -eu
usage="usage: scripts/tests/sanitizer-fallback-batch.sh BUILD OUT"
build=$(cd "${1:?$usage}" && pwd)
out=${2:?$usage}
root=$(cd "$(dirname "$0")/../.." && pwd)
folder=lab7-tiled-any-size
if ! nvidia-smi -L > /dev/null 2>&1; then
  echo "skipped: no GPU for compute-sanitizer"; exit 77
fi
cmake --build "$build" --target labgrade lab7_kit > "$out.build.log" 2>&1 ||
  { echo "labgrade or lab7_kit does not build (see $out.build.log)"; exit 1; }
kit=$build/grading-kit/lab7
grep -q '"sanitizer": *"[^"]' "$kit/kit.json" ||
  { echo "skipped: the kit has no compute-sanitizer"; exit 77; }
rm -rf "$out" "$out.class" "$out.emukit"
mkdir -p "$out.class"
cp "$root/solutions/$folder/kernel.cu" "$out.class/solution.cu"
cp "$root/labs/$folder/tests/wrong/loads_past_edge_unused.cu" "$out.class/wrong.cu"
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
status=0
"$build/grader/labgrade" batch lab7 "$out.class" "$out" --kit "$kit" --emulated-pass "$out.emukit" \
  -j 4 > "$out.log" 2>&1 || status=$?
if [ "$status" -gt 1 ] && grep -q "bubblewrap is not available" "$out.log"; then
  echo "skipped: bubblewrap does not work here"; exit 77
fi
if [ "$status" -gt 1 ]; then
  echo "labgrade batch ended with status $status:"; tail -20 "$out.log"; exit 1
fi
python3 - "$out" "$out.log" <<'PY'
import csv, json, sys
from pathlib import Path
out, log = Path(sys.argv[1]), Path(sys.argv[2]).read_text()
problems = []
if "compute-sanitizer looks instead" not in log:
    problems.append("the batch did not warn that the emulated pass cannot be trusted")
def records(student):
    folder = out / "students" / student / "results"
    return {r["check"]: r for r in (json.loads(p.read_text()) for p in folder.glob("*.json"))}
wrong = records("wrong").get("AnySize.Integers")
if not wrong or wrong["verdict"] != "fail" or "compute-sanitizer memcheck" not in wrong["reason"] \
        or "kernel.cu:" not in wrong["reason"]:
    problems.append(f"wrong.cu's AnySize.Integers: {wrong and (wrong['verdict'], wrong['reason'])}")
for check, record in records("solution").items():
    text = record["reason"] + " ".join(record.get("notes", []))
    if record["kind"] != "speed" and record["verdict"] != "pass" or "compute-sanitizer" in text:
        problems.append(f"the solution's {check}: {record['verdict']}: {record['reason']}")
ran = set()
with (out / ".labgrade" / "timeline.csv").open() as f:
    for row in csv.DictReader(f):
        if row["phase"].startswith("sanitizer@") and row["event"] == "end":
            ran.add(row["submission"])
for who in ("solution", "wrong"):
    if who not in ran:
        problems.append(f"no sanitizer pass for {who} in the timeline")
for problem in problems:
    print("sanitizer fallback:", problem)
if problems:
    print("(the batch's output: " + sys.argv[2] + ")")
sys.exit(1 if problems else 0)
PY
echo "sanitizer fallback: wrong.cu failed with memcheck's words, the solution lost nothing"
