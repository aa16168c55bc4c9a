#!/bin/sh
# Makes this source tree a grading host: the distribution's packages (scripts/install-deps.sh, the
# project's one list), then labgrade and every lab's grading kit, built in place, and the
# entrypoint that gives the sandbox's per-run cgroups a place in a container. The one set of steps
# of every image: containers/cpu.Dockerfile, gpu.Dockerfile and grader.def run it, and
# containers/test-cpu-image-in-clean-root.sh runs it in a clean Debian root.
#   containers/install-grader.sh cpu|gpu
# cpu: the CPU emulation backend (no GPU: correctness and structure; speed is not measured).
# gpu: the CUDA backend (nvcc, cuBLAS and CUPTI from the image), with an emulation build's kits for
#      the emulated memory and race pass (README.md, "Memory errors and races"). LABS_CUDA_ARCHITECTURES
#      (e.g. 90) replaces the default 75-real;80-real;90, chosen when no GPU is seen at build time.
# The kits name their files by absolute path: the tree stays where it was built. Object files are
# removed afterwards (grading reads the kits, labgrade and the sources, never an object file).
# Links /usr/local/bin/labgrade and installs /usr/local/bin/labgrade-entrypoint. Needs root.
set -eu
usage="usage: containers/install-grader.sh cpu|gpu"
backend=${1:?$usage}
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${LABS_BUILD_JOBS:-$(nproc)}
export PATH="$PATH:/usr/local/cuda/bin"

"$root/scripts/install-deps.sh"

# configure BUILD [cmake options]: the instructor's grading build (scripts/grade-class.sh's).
configure() {
  build=$1
  shift
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DLABS_USE_SOLUTIONS=ON "$@"
}

case $backend in
  cpu)
    configure "$root/build-grader" -DLABS_BACKEND=emulation
    cmake --build "$root/build-grader" --target labgrade grading_kits -j "$jobs"
    ;;
  gpu)
    configure "$root/build-grader-emulation" -DLABS_BACKEND=emulation
    cmake --build "$root/build-grader-emulation" --target grading_kits -j "$jobs"
    set -- -DLABS_BACKEND=cuda -DLABS_EMULATION_KIT_ROOT="$root/build-grader-emulation/grading-kit"
    if [ -n "${LABS_CUDA_ARCHITECTURES:-}" ]; then
      set -- "$@" -DCMAKE_CUDA_ARCHITECTURES="$LABS_CUDA_ARCHITECTURES"
    fi
    configure "$root/build-grader" "$@"
    cmake --build "$root/build-grader" --target labgrade grading_kits -j "$jobs"
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac

for build in "$root/build-grader" "$root/build-grader-emulation"; do
  if [ -d "$build" ]; then find "$build" -name '*.o' -type f -delete; fi
done
ln -sf "$root/build-grader/grader/labgrade" /usr/local/bin/labgrade
install -m 0755 "$root/containers/labgrade-entrypoint.sh" /usr/local/bin/labgrade-entrypoint
rm -rf /var/lib/apt/lists/*
echo "install-grader: $backend grading host ready: labgrade and the kits in $root/build-grader/grading-kit"
