#!/bin/bash
# The autograder packages tested for real (docs/deploy-autograders.md): a clean Debian 12
# root, the package installed into it as the platform does, its setup run there as root, then every
# submission of a sample class graded by the platform's own command, each results.json checked
# against the platform's documented format and its score against an emulation `labgrade batch` of
# the same class on this machine. Times and peak memory of the setup and of each submission.
# Too slow for CI (about 10 minutes of setup and half a minute per submission on 2 cores).
#
#   scripts/packaging/test-in-clean-root.sh gradescope|prairielearn [options]
#     --labgrade PATH   the labgrade that writes the package and grades the comparison batch
#                       (default: build/grader/labgrade); its build's grading kit is the batch's
#     --tarball FILE    a Debian 12 minbase root (mmdebstrap --variant=minbase bookworm FILE);
#                       default $LABS_CLEAN_ROOT_TAR, else one is made with mmdebstrap
#     --scratch DIR     where the root and the reports go (default /tmp/labgrade-clean-<platform>)
#     --class DIR       the submissions (default examples/lab6-class/submissions), graded as lab6
#     --only A,B        only these entries of the class
#     --batch DIR       compare with this earlier `labgrade batch` output instead of grading the
#                       class again on this machine
#     --no-bubblewrap   grade as where bubblewrap cannot start (LABGRADE_BWRAP names no program)
#     --limits          run each submission under Gradescope's default limits: 0.5 CPU, 768 MB
#     --cpus N          with --limits, N CPUs instead of 0.5 (e.g. 1, 2)
#     --reuse-root      keep a root whose setup finished in an earlier run
# Needs root, bubblewrap, tar, python3 and /usr/bin/time on this machine. Exit 0 when every
# results file is well-formed and every score equals the batch's.
set -euo pipefail
platform=${1:?usage: test-in-clean-root.sh gradescope|prairielearn [options]}
shift
case $platform in gradescope | prairielearn) ;; *) echo "unknown platform $platform" >&2; exit 2 ;; esac
repo=$(cd "$(dirname "$0")/../.." && pwd)
labgrade=$repo/build/grader/labgrade
tarball=${LABS_CLEAN_ROOT_TAR:-}
scratch=/tmp/labgrade-clean-$platform
class=$repo/examples/lab6-class/submissions
only="" batch="" no_bwrap=0 limits=0 cpus=0.5 reuse=0
while [ $# -gt 0 ]; do
  case $1 in
    --labgrade) labgrade=$2; shift 2 ;;
    --tarball) tarball=$2; shift 2 ;;
    --scratch) scratch=$2; shift 2 ;;
    --class) class=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --batch) batch=$2; shift 2 ;;
    --no-bubblewrap) no_bwrap=1; shift ;;
    --limits) limits=1; shift ;;
    --cpus) cpus=$2; shift 2 ;;
    --reuse-root) reuse=1; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
lab=lab6
[ "$(id -u)" -eq 0 ] || { echo "test-in-clean-root.sh: run as root" >&2; exit 2; }
for tool in bwrap tar python3 /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "test-in-clean-root.sh: $tool is missing" >&2; exit 2; }
done
[ -x "$labgrade" ] || { echo "test-in-clean-root.sh: no labgrade at $labgrade (--labgrade)" >&2; exit 2; }
root=$scratch/root
report=$scratch/report
mkdir -p "$scratch"
rm -rf "$report"
mkdir -p "$report/results" "$report/logs" "$report/students"
source "$repo/scripts/packaging/clean-root-lib.sh"

# The root, the package installed into it and its setup, as the platform does once.
if [ $reuse -eq 1 ] && [ -f "$scratch/setup-done" ]; then
  echo "== reusing the root in $root (setup finished earlier)"
else
  rm -rf "$root" "$scratch/setup-done" "$scratch/setup-measures" "$scratch/package"*
  make_root "$tarball" "$root"
  if [ "$platform" = gradescope ]; then
    install_gradescope_package
  else
    install_prairielearn_package
  fi
  touch "$scratch/setup-done"
fi
[ -f "$report/setup.time" ] || cp "$scratch/setup-measures"/* "$report/" 2>/dev/null || true
echo "== who may read what in the root"
permissions_ok=1
check_permissions || permissions_ok=0

# The entries graded: the class, or the --only ones (copied, so that the batch grades them alone).
if [ -n "$only" ]; then
  rm -rf "$scratch/class"
  mkdir -p "$scratch/class"
  IFS=, read -r -a chosen <<< "$only"
  for name in "${chosen[@]}"; do cp -a "$class/$name" "$scratch/class/"; done
  class=$scratch/class
fi

# The same class through labgrade batch on this machine: the scores to match.
if [ -z "$batch" ]; then
  echo "== emulation batch of the class on this machine"
  batch=$scratch/batch
  rm -rf "$batch"
  "$labgrade" batch "$lab" "$class" "$batch" > "$report/logs/batch.log" 2>&1 || true
fi

# Each submission as the platform hands it over.
for entry in "$class"/*; do
  grade_one "$entry" "$(basename "$entry")"
done

escaped_files > "$report/escaped.txt"
set +e
python3 "$repo/scripts/packaging/check-results.py" compare "$platform" "$report" "$batch" \
  "$repo/examples/lab6-class/expected.json" | tee "$report/summary.txt"
status=${PIPESTATUS[0]}
set -e
[ "$permissions_ok" -eq 1 ] || { echo "permissions: see $report/permissions.txt"; status=1; }
exit "$status"
