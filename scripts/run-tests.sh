#!/bin/sh
# The project's own tests in one command: set up, build everything against the solutions
# (starters and known-wrong kernels too) and run every test. Without a GPU the kernel checks are
# skipped with the reason; the framework's tests run everywhere. JUnit XML: build-ci/junit.xml.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$PATH:/usr/local/cuda/bin"
"$root/scripts/install-deps.sh" --with-chromium
(cd "$root" && cmake --preset ci)
cmake --build "$root/build-ci" --target all all_labs -j "$(nproc)"
cd "$root/build-ci"
ctest --output-on-failure --output-junit junit.xml --timeout 900
