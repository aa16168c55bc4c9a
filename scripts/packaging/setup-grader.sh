#!/bin/sh
# Builds one lab's grading kit inside an autograder image, once, as root: Gradescope's setup.sh
# and the PrairieLearn Dockerfile's RUN step both call it (labgrade package writes them).
#   scripts/packaging/setup-grader.sh labN BUILD
# 1. The distribution's packages, with the project's own scripts/install-deps.sh.
# 2. labgrade and the lab's grading kit in BUILD: the CUDA backend where the image has nvcc and a
#    GPU answers, the CPU emulation otherwise (Gradescope and PrairieLearn graders have no GPU).
# 3. Who may read what: the project (the reference solution) and BUILD become root's alone, but
#    for the kit, which every sandboxed compile and run reads (BUILD stays passable, not listable).
set -eu
usage="usage: scripts/packaging/setup-grader.sh labN BUILD"
lab=${1:?$usage}
build=${2:?$usage}
source=$(cd "$(dirname "$0")/../.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "setup-grader.sh: run it as root (it installs packages)" >&2; exit 2; }

sh "$source/scripts/install-deps.sh"

# CMake 3.25 or later (Debian 12, Ubuntu 24.04): Ubuntu 22.04's 3.22 cannot configure the project.
cmake_version=$(cmake --version | sed -n 's/^cmake version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
set -- $cmake_version
if [ "${1:-0}" -lt 3 ] || { [ "${1:-0}" -eq 3 ] && [ "${2:-0}" -lt 25 ]; }; then
  echo "setup-grader.sh: cmake $1.$2 is older than 3.25: use a Debian 12 or Ubuntu 24.04 image" >&2
  exit 2
fi

export PATH="$PATH:/usr/local/cuda/bin"
backend=emulation
if command -v nvcc >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  backend=cuda
fi
echo "setup-grader.sh: building $lab's grading kit ($backend backend) in $build"
cmake -S "$source" -B "$build" -DCMAKE_BUILD_TYPE=Release -DLABS_BACKEND="$backend"
cmake --build "$build" --target labgrade "${lab}_kit" -j "$(nproc)"

chmod -R go-rwx "$source" "$build"
chmod 0711 "$build"
chmod -R go+rX "$build/grading-kit"
echo "setup-grader.sh: ready: $build/grader/labgrade, kit $build/grading-kit/$lab"
