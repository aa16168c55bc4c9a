#!/bin/sh
# labgrade batch's emulated pass, end to end, on an emulation build (the pass then reruns the
# emulation against the build's own kit, which is harmless): lab 7's reference solution and its
# known-wrong loads_past_edge_unused.cu (tile loads past the inputs' edge whose values are never
# used) graded with --emulated-pass. The wrong kernel's AnySize.Integers must fail with the
# emulation's words, the solution must lose nothing, and the timeline must show the pass ran for
# the reference and the solution. Then the pass must charge what the batch's own runs did not
# see: graded with a doctored copy of the kit whose compiler builds the reference solution
# whatever was submitted, the wrong kernel passes those runs, and only the emulated pass (the
# real kit, the real kernel.cu) finds its reads past the edge.
#   scripts/tests/emulated-pass-batch.sh BUILD OUT
set -eu
usage="usage: scripts/tests/emulated-pass-batch.sh BUILD OUT"
build=$(cd "${1:?$usage}" && pwd)
out=${2:?$usage}
root=$(cd "$(dirname "$0")/../.." && pwd)
folder=lab7-tiled-any-size
# A build given another build's labgrade (-DLABS_LABGRADE, as CI's emulation pass is) uses it:
# the grader is host code, the same for both backends.
labgrade=$(sed -n 's/^LABS_LABGRADE:FILEPATH=//p' "$build/CMakeCache.txt")
targets="lab7_kit"
[ -n "$labgrade" ] || { labgrade=$build/grader/labgrade; targets="labgrade lab7_kit"; }
# shellcheck disable=SC2086
cmake --build "$build" --target $targets > "$out.build.log" 2>&1 ||
  { echo "lab7_kit does not build (see $out.build.log)"; exit 1; }
. "$root/scripts/tests/batch-test-lib.sh"
rm -rf "$out"
lab7_class "$out.class"
run_batch "$out.log" lab7 "$out.class" "$out" --kit "$build/grading-kit/lab7" \
  --emulated-pass "$build/grading-kit/lab7" -j 2
PYTHONPATH="$root/scripts/tests" python3 - "$out" "$out.log" <<'PY'
import sys
from pathlib import Path
from batch_results import finish, phase_events, records, solution_problems
out, log = sys.argv[1], Path(sys.argv[2]).read_text()
problems = []
if "emulated memory and race pass:" not in log:
    problems.append("the batch did not say it runs the emulated pass")
wrong = records(out, "wrong").get("AnySize.Integers")
words = "the CPU emulation found an access outside the memory"
if not wrong or wrong["verdict"] != "fail" or words not in wrong["reason"]:
    problems.append(f"wrong.cu's AnySize.Integers: {wrong and (wrong['verdict'], wrong['reason'])}")
problems += solution_problems(out, "CPU emulation found")
spans = phase_events(out, "emulated@cpu")
for who in (".reference", "solution"):
    if not {"start", "end"} <= spans.get(who, set()):
        problems.append(f"no emulated@cpu start and end for {who} in the timeline")
finish("emulated pass", problems, sys.argv[2])
PY
echo "emulated pass: wrong.cu failed with the emulation's words, the solution lost nothing"

kit=$build/grading-kit/lab7
doctored=$out.kit
rm -rf "$doctored" "$out.charged" "$out.class2"
cp -r "$kit" "$doctored"
cp "$root/solutions/$folder/kernel.cu" "$doctored/solution.cu"
printf '#!/bin/sh\nobject=$4\nshift 4\nexec "%s" -c "%s" -o "$object" "$@"\n' \
  "$kit/bin/emucc" "$doctored/solution.cu" > "$doctored/bin/emucc"
python3 - "$doctored" <<'PY'
import json, sys
kit = sys.argv[1] + "/kit.json"
data = json.load(open(kit))
data["nvcc"] = sys.argv[1] + "/bin/emucc"
data["read_only"].append(sys.argv[1])
json.dump(data, open(kit, "w"), indent=2)
PY
mkdir -p "$out.class2"
cp "$root/labs/$folder/tests/wrong/loads_past_edge_unused.cu" "$out.class2/wrong.cu"
run_batch "$out.charged.log" lab7 "$out.class2" "$out.charged" --kit "$doctored" \
  --emulated-pass "$kit" -j 2
python3 - "$out.charged" <<'PY'
import json, sys
from pathlib import Path
folder = Path(sys.argv[1]) / "students" / "wrong" / "results"
record = json.loads((folder / "AnySize.Integers.json").read_text())
ran_again = any("ran this check's first case again" in note for note in record["notes"])
if record["verdict"] != "fail" or not record["reason"].startswith(
        "the CPU emulation found an access outside the memory") or not ran_again:
    sys.exit(f"emulated pass: not charged: AnySize.Integers {record['verdict']}: "
             f"{record['reason']} {record['notes']}")
PY
echo "emulated pass: charged the reads past the edge the batch's runs did not see"
