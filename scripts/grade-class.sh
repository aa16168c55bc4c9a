#!/bin/sh
# The instructor's main job: grade a folder of student submissions of one lab.
#   scripts/grade-class.sh lab6 examples/lab6-class/submissions out/lab6-class [labgrade batch options]
# Builds labgrade and the lab's grading kit in build-grader/ (once), then runs `labgrade batch`:
# every submission built and run in a bubblewrap sandbox, a report per student, the gradebook
# (OUT/gradebook.html, OUT/gradebook.csv), Gradescope results (OUT/students/*/results.json) and
# JUnit XML (OUT/junit.xml). Run it again after a Ctrl-C: finished submissions are kept.
set -eu
usage="usage: scripts/grade-class.sh labN SUBMISSIONS OUT [labgrade batch options]"
lab=${1:?$usage}
submissions=${2:?$usage}
out=${3:?$usage}
shift 3
case $lab in
  lab[0-9]*) ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$PATH:/usr/local/cuda/bin"
[ -n "${LABS_SKIP_INSTALL:-}" ] || "$root/scripts/install-deps.sh"
build=${LABS_GRADER_BUILD:-$root/build-grader}
cmake -S "$root" -B "$build" -DLABS_USE_SOLUTIONS=ON > "$build.configure.log" 2>&1 ||
  { tail -30 "$build.configure.log"; exit 2; }
cmake --build "$build" --target labgrade "${lab}_kit" -j "$(nproc)" > "$build.build.log" 2>&1 ||
  { grep -E "error" -A3 "$build.build.log" | head -40; exit 2; }
exec "$build/grader/labgrade" batch "$lab" "$submissions" "$out" "$@"
