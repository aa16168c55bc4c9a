#!/bin/sh
# The main job in one command: set up, build one lab and grade it (the HTML report included).
#   scripts/grade-lab.sh lab1               grade the starter/your work in labs/
#   scripts/grade-lab.sh lab1 --solutions   grade the reference solution
# The build goes to build/ (build-solutions/ with --solutions); the report to <build>/reports/.
set -eu
lab=${1:?usage: scripts/grade-lab.sh labN [--solutions]}
case $lab in
  lab[0-9]*) ;;
  *) echo "usage: scripts/grade-lab.sh labN [--solutions]" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$PATH:/usr/local/cuda/bin"
"$root/scripts/install-deps.sh"
preset=student
[ "${2:-}" = "--solutions" ] && preset=solutions
(cd "$root" && cmake --preset "$preset" >/dev/null)
build="$root/build"
[ "$preset" = solutions ] && build="$root/build-solutions"
cmake --build "$build" --target "$lab" -j "$(nproc)"
cd "$build" && ctest -L "^$lab\$" --output-on-failure
