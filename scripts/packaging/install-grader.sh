#!/bin/sh
# Makes this source tree a grader: the distribution's packages (scripts/install-deps.sh, the
# project's one list), then labgrade and the grading kits, built in place. The one install script
# of every image and package: containers/cpu.Dockerfile, gpu.Dockerfile and grader.def (every
# lab, --bin /usr/local/bin), Gradescope's setup.sh and PrairieLearn's Dockerfile (one lab,
# --root-only), both written by `labgrade package`.
#   scripts/packaging/install-grader.sh [--backend auto|cuda|emulation] [--lab labN] [--build DIR]
#                                       [--root-only] [--bin DIR]
# --backend: cuda (nvcc, cuBLAS and CUPTI of the CUDA toolkit; no GPU is needed to build) or
#     emulation (the CPU emulation: correctness and structure, speed not measured). auto (the
#     default): cuda where nvcc is installed (on PATH or in /usr/local/cuda/bin) and `nvidia-smi -L`
#     lists a GPU, emulation otherwise. A cuda build also builds the emulation's kits in DIR-emulation
#     for the batch's emulated memory and race pass (README.md, "Memory errors and races") where
#     Boost.Context is installed; without it the GPU's compute-sanitizer looks alone, and it says so.
#     LABS_CUDA_ARCHITECTURES (e.g. 90) replaces the default: native where a GPU answers at build
#     time, else 75-real;80-real;90.
# --lab labN: labgrade and that lab's kit only (default: every lab's, the grading_kits target).
# --build DIR: the build folder (default: build-grader at the top of the tree). The kits name their
#     files by absolute path: the tree and DIR stay where they were built.
# --root-only: the tree (the reference solutions) and the builds become root's alone, but for the
#     kits, which every sandboxed compile and run reads (the builds stay passable, not listable):
#     for the platforms' images, where the grader runs as root, often without bubblewrap.
# --bin DIR: links DIR/labgrade to the build's and installs DIR/labgrade-entrypoint (the images:
#     /usr/local/bin).
# Packages: apt-get runs only when something is missing, and only as root. When it cannot (no
# network, not root) what is still missing is said, one line each with what grading loses, and the
# build goes on with what is here (CMake stops naming anything it cannot do without). Object files
# are removed at the end (grading reads the kits, labgrade and the sources, never an object file),
# and apt's lists when this script fetched them. LABS_BUILD_JOBS: parallel jobs (default: cores).
set -eu
usage="usage: scripts/packaging/install-grader.sh [--backend auto|cuda|emulation] [--lab labN] [--build DIR] [--root-only] [--bin DIR]"
root=$(cd "$(dirname "$0")/../.." && pwd)
backend=auto lab="" build=$root/build-grader root_only=0 bin=""
while [ $# -gt 0 ]; do
  case $1 in
    --backend) backend=${2:?$usage}; shift 2 ;;
    --lab) lab=${2:?$usage}; shift 2 ;;
    --build) build=${2:?$usage}; shift 2 ;;
    --root-only) root_only=1; shift ;;
    --bin) bin=${2:?$usage}; shift 2 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
case $backend in auto | cuda | emulation) ;; *) echo "$usage" >&2; exit 2 ;; esac
say() { echo "install-grader: $*"; }
jobs=${LABS_BUILD_JOBS:-$(nproc)}
export PATH="$PATH:/usr/local/cuda/bin"

# 1. Packages: only what is missing, only as root; what could not be installed is said.
apt_ran=0
missing=$(sh "$root/scripts/install-deps.sh" --check || true)
if [ -n "$missing" ] && [ "$(id -u)" -eq 0 ]; then
  apt_ran=1
  sh "$root/scripts/install-deps.sh" ||
    say "apt-get could not install everything (above): going on with what is here"
  missing=$(sh "$root/scripts/install-deps.sh" --check || true)
elif [ -n "$missing" ]; then
  say "not root: not installing $missing (run this as root to install them): going on with what is here"
fi
for package in $missing; do
  case $package in
    libarchive-dev) say "without libarchive-dev: .zip and .tar.gz submissions are refused ('bad archive'); kernel.cu files and folders grade as before" ;;
    bubblewrap) say "without bubblewrap: labgrade autograder grades without it and says so (--sandbox auto); labgrade batch refuses unless --unsandboxed" ;;
    libboost-context-dev) say "without libboost-context-dev: no CPU emulation (the emulation backend and the GPU's emulated pass need it)" ;;
    *) say "without $package: the build needs it; CMake says so below if it cannot do without" ;;
  esac
done

# CMake 3.25 or later (Debian 12, Ubuntu 24.04): Ubuntu 22.04's 3.22 cannot configure the project.
command -v cmake >/dev/null || { say "no cmake: install cmake 3.25 or later" >&2; exit 2; }
cmake_version=$(cmake --version | sed -n 's/^cmake version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
# shellcheck disable=SC2086
set -- $cmake_version
if [ "${1:-0}" -lt 3 ] || { [ "${1:-0}" -eq 3 ] && [ "${2:-0}" -lt 25 ]; }; then
  say "cmake $1.$2 is older than 3.25: use a Debian 12 or Ubuntu 24.04 image" >&2
  exit 2
fi

# 2. The backend.
if [ "$backend" = auto ]; then
  backend=emulation
  if nvidia-smi -L >/dev/null 2>&1; then
    if command -v nvcc >/dev/null 2>&1; then
      backend=cuda
    else
      say "a GPU answers but nvcc is not installed (PATH, /usr/local/cuda/bin): the CPU emulation"
    fi
  fi
fi
targets=grading_kits
[ -n "$lab" ] && targets=${lab}_kit
# configure BUILD [cmake options]
configure() {
  folder=$1
  shift
  cmake -S "$root" -B "$folder" -DCMAKE_BUILD_TYPE=Release "$@"
}
emulation_build=""
if [ "$backend" = cuda ]; then
  case " $missing " in
    *" libboost-context-dev "*)
      say "no emulated pass: compute-sanitizer alone looks for memory errors and races" ;;
    *)
      emulation_build=$build-emulation
      say "the emulation's kits for the emulated pass ($targets) in $emulation_build"
      configure "$emulation_build" -DLABS_BACKEND=emulation
      cmake --build "$emulation_build" --target "$targets" -j "$jobs" ;;
  esac
  set -- -DLABS_BACKEND=cuda
  [ -n "$emulation_build" ] &&
    set -- "$@" -DLABS_EMULATION_KIT_ROOT="$emulation_build/grading-kit"
  [ -n "${LABS_CUDA_ARCHITECTURES:-}" ] &&
    set -- "$@" -DCMAKE_CUDA_ARCHITECTURES="$LABS_CUDA_ARCHITECTURES"
else
  set -- -DLABS_BACKEND=emulation
fi

# 3. labgrade and the kits.
say "building labgrade and $targets ($backend backend) in $build"
configure "$build" "$@"
cmake --build "$build" --target labgrade "$targets" -j "$jobs"
for folder in "$build" ${emulation_build:+"$emulation_build"}; do
  find "$folder" -name '*.o' -type f -delete
done

# 4. Who may read what, and where the images find labgrade.
if [ "$root_only" -eq 1 ]; then
  chmod -R go-rwx "$root" "$build" ${emulation_build:+"$emulation_build"}
  for folder in "$build" ${emulation_build:+"$emulation_build"}; do
    chmod 0711 "$folder"
    chmod -R go+rX "$folder/grading-kit"
  done
fi
if [ -n "$bin" ]; then
  mkdir -p "$bin"
  ln -sf "$build/grader/labgrade" "$bin/labgrade"
  install -m 0755 "$root/containers/labgrade-entrypoint.sh" "$bin/labgrade-entrypoint"
fi
[ "$apt_ran" -eq 1 ] && rm -rf /var/lib/apt/lists/*
say "ready ($backend backend): $build/grader/labgrade, kits in $build/grading-kit"
