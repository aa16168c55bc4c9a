#!/bin/sh
# The project's own tests in one command: set up, build everything against the solutions
# (starters and known-wrong kernels too) and run every test, for two backends:
#   cuda       build-ci/: nvcc builds everything; the framework's tests run everywhere, the kernel
#              checks need a GPU (skipped with the reason without one). JUnit: build-ci/junit.xml.
#   emulation  build-ci-emulation/: the kernels run on the CPU (docs/emulation.md), so the
#              correctness and structure checks of every lab run without a GPU: solutions must
#              pass, starters and known-wrong kernels must fail. JUnit: build-ci-emulation/junit.xml.
# LABS_CI_BACKENDS="cuda emulation" (the default) chooses; the cuda pass is left out, with a
# note, where nvcc is not installed.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$PATH:/usr/local/cuda/bin"
"$root/scripts/install-deps.sh" --with-chromium
jobs=$(nproc)
status=0
for backend in ${LABS_CI_BACKENDS:-cuda emulation}; do
  start=$(date +%s)
  case $backend in
    cuda)
      if ! command -v nvcc >/dev/null 2>&1; then
        echo "run-tests: no nvcc, so no cuda build (the emulation pass checks the kernels)"
        continue
      fi
      # Without a GPU the cuda build is only compiled, never run: one real architecture is enough
      # (the default list compiles every kernel four times), and the known-wrong kernels, whose
      # tests need a GPU, are checked by the emulation pass instead.
      targets="all all_labs all_known_wrong"
      if ! nvidia-smi -L > /dev/null 2>&1; then
        targets="all"
        if [ -z "${CUDAARCHS:-}" ]; then
          export CUDAARCHS=90-real
        fi
        echo "run-tests: no GPU: the cuda build compiles the harness and the checks for" \
          "${CUDAARCHS}; the lab programs and known-wrong kernels, whose tests need a GPU, are" \
          "left out (their tests say 'not built'; the emulation pass builds and runs them)"
      fi
      (cd "$root" && cmake --preset ci)
      # shellcheck disable=SC2086
      cmake --build "$root/build-ci" --target $targets -j "$jobs"
      (cd "$root/build-ci" && ctest --output-on-failure --output-junit junit.xml --timeout 900) ||
        status=1
      ;;
    emulation)
      # The grader is host code, the same for both backends: take the cuda pass's labgrade.
      labgrade_option=""
      if [ -x "$root/build-ci/grader/labgrade" ]; then
        labgrade_option="-DLABS_LABGRADE=$root/build-ci/grader/labgrade"
      fi
      # shellcheck disable=SC2086
      (cd "$root" && cmake --preset ci-emulation $labgrade_option)
      # The labs, their starters and known-wrong kernels and the emulator's own tests; the
      # framework's other tests ran in the cuda pass.
      cmake --build "$root/build-ci-emulation" -j "$jobs" --target all_labs all_known_wrong \
        emulation_rewriter_tests emulation_runtime_tests
      # The known-wrong kernels marked "// emulation: nightly" (tens of seconds each on the CPU;
      # cmake/AddLab.cmake) are left out so CI stays within 15 minutes; their GPU tests run in
      # the GPU job, and LABS_CI_NIGHTLY=1 (the nightly run) runs them here too.
      nightly_option="-LE nightly"
      if [ "${LABS_CI_NIGHTLY:-0}" = 1 ]; then
        nightly_option=""
      else
        echo "run-tests: the emulation's nightly tests are left out (LABS_CI_NIGHTLY=1 runs them)"
      fi
      # One core per check and a check per core: the CPU references are single-threaded.
      # shellcheck disable=SC2086 # nightly_option is two words or none
      (cd "$root/build-ci-emulation" && LABS_EMU_THREADS=1 \
        ctest -L 'lab[0-9]|known_wrong|emulation' $nightly_option -j "$jobs" --output-on-failure \
          --output-junit junit.xml --timeout 900) || status=1
      ;;
    *)
      echo "run-tests: unknown backend '$backend' (cuda or emulation)" >&2
      exit 2
      ;;
  esac
  echo "run-tests: $backend pass took $(($(date +%s) - start)) s"
done
exit $status
