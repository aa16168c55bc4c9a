#!/bin/sh
# Installs what the labs need from the distribution's packages (Debian 12, Ubuntu 24.04).
# The CUDA toolkit (nvcc, cuBLAS, CUPTI) is NVIDIA's: it must already be installed to build for a
# GPU; without it the labs build with the CPU emulation backend (docs/emulation.md).
#   scripts/install-deps.sh [--with-chromium] [--check]
# --with-chromium: also chromium, yamllint and PyYAML (the project's own tests).
# --check: installs nothing; prints the packages that are missing, space-separated, on one line
#          (nothing when none is) and exits 1 when any is.
# A package counts as present when dpkg has it installed, or when what it gives is here anyway (a
# CMake or compiler installed another way, headers under /usr/local/include): apt-get runs only for
# what is missing. When apt-get fails (no network, no package source) it says so in one line,
# names what is still missing and exits 1.
set -eu
# libarchive-dev lets labgrade batch read .zip/.tar.gz submissions (without it they are refused).
# libboost-context-dev: the fibers of the CPU emulation backend.
packages="cmake make g++ libgtest-dev libfmt-dev nlohmann-json3-dev libcli11-dev libarchive-dev bubblewrap libboost-context-dev"
check=0
for argument in "$@"; do
  case $argument in
    # The project's own tests: chromium renders a report; yamllint and PyYAML check the CI templates.
    --with-chromium) packages="$packages chromium yamllint python3-yaml" ;;
    --check) check=1 ;;
    *) echo "usage: scripts/install-deps.sh [--with-chromium] [--check]" >&2; exit 2 ;;
  esac
done

# What a package gives, found without dpkg: a program, or a header under /usr or /usr/local.
provides() {
  case $1 in
    cmake | make) command -v "$1" ;;
    g++) command -v g++ ;;
    bubblewrap) command -v bwrap ;;
    chromium) command -v chromium || command -v chromium-browser ;;
    yamllint) command -v yamllint ;;
    libgtest-dev) header gtest/gtest.h ;;
    libfmt-dev) header fmt/format.h ;;
    nlohmann-json3-dev) header nlohmann/json.hpp ;;
    libcli11-dev) header CLI/CLI.hpp ;;
    libarchive-dev) header archive.h ;;
    # Boost's headers (libboost-dev) include boost/context without the library: the CMake package
    # of the library is what the build finds (a GPU host with the headers alone lacked it).
    libboost-context-dev) header boost/context/fiber.hpp && cmake_package 'boost_context-*' ;;
    *) return 1 ;;
  esac
}
# INSTALL_DEPS_ROOT (tests only, default /): where /usr is looked for.
files_root=${INSTALL_DEPS_ROOT:-}
header() { [ -f "$files_root/usr/include/$1" ] || [ -f "$files_root/usr/local/include/$1" ]; }
cmake_package() {
  for dir in "$files_root"/usr/lib/*/cmake "$files_root"/usr/lib/cmake \
    "$files_root"/usr/local/lib/cmake "$files_root"/usr/local/lib/*/cmake; do
    for found in "$dir"/$1; do [ -d "$found" ] && return 0; done
  done
  return 1
}

missing_packages() {
  for package in $packages; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
      provides "$package" >/dev/null 2>&1 || printf ' %s' "$package"
  done
}

missing=$(missing_packages)
if [ "$check" -eq 1 ]; then
  [ -z "$missing" ] && exit 0
  echo "${missing# }"
  exit 1
fi
if [ -n "$missing" ]; then
  echo "Installing:$missing"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  # shellcheck disable=SC2086
  if ! { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends $missing; }
  then
    echo "install-deps.sh: apt-get could not install them (no network or no package source?): still missing:$(missing_packages)" >&2
    exit 1
  fi
fi
if ! command -v nvcc >/dev/null 2>&1; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    echo "note: nvcc is in /usr/local/cuda/bin; add it to PATH (export PATH=/usr/local/cuda/bin:\$PATH)"
  else
    echo "note: the CUDA toolkit (nvcc) is not installed: the labs build with the CPU emulation"
    echo "      backend (correctness only). For a GPU: https://developer.nvidia.com/cuda-downloads"
  fi
fi
