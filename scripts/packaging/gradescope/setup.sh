#!/bin/sh
# Gradescope runs this once, as root, while it builds the autograder's image (written by
# labgrade @VERSION@: labgrade package gradescope @LAB@). Choose the Ubuntu 24.04 base image.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# /autograder/source holds the reference solution: root's alone from now on.
chmod 0700 "$here"
sh "$here/project/scripts/packaging/setup-grader.sh" @LAB@ /autograder/labgrade
