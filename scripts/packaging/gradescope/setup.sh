#!/bin/sh
# Gradescope runs this once, as root, while it builds the autograder's image (written by
# labgrade @VERSION@: labgrade package gradescope @LAB@). Choose the Ubuntu 24.04 base image.
# It builds in $LABGRADE_AUTOGRADER_ROOT/labgrade (default /autograder, Gradescope's; another root
# is for a test: scripts/packaging/gpu-setup-check.sh). Its arguments go to install-grader.sh
# (--backend cuda|emulation; the default is the CUDA backend where nvcc is installed and a GPU
# answers, the CPU emulation otherwise, as on Gradescope's runners).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=${LABGRADE_AUTOGRADER_ROOT:-/autograder}
# The source folder holds the reference solution: root's alone from now on.
chmod 0700 "$here"
sh "$here/project/scripts/packaging/install-grader.sh" --lab @LAB@ --build "$root/labgrade" \
  --root-only "$@"
