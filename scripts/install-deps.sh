#!/bin/sh
# Installs what the labs need from the distribution's packages (Debian 12, Ubuntu 24.04).
# The CUDA toolkit (nvcc, cuBLAS, CUPTI) is NVIDIA's: it must already be installed to build for a
# GPU; without it the labs build with the CPU emulation backend (docs/emulation.md).
#   scripts/install-deps.sh [--with-chromium]   (chromium: for the report-rendering test)
set -eu
# libarchive-dev lets labgrade batch read .zip/.tar.gz submissions (without it they are refused).
# libboost-context-dev: the fibers of the CPU emulation backend.
packages="cmake make g++ libgtest-dev libfmt-dev nlohmann-json3-dev libcli11-dev libarchive-dev bubblewrap libboost-context-dev"
if [ "${1:-}" = "--with-chromium" ]; then
  # The project's own tests: chromium renders a report; yamllint and PyYAML check the CI templates.
  packages="$packages chromium yamllint python3-yaml"
fi
missing=""
for package in $packages; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing="$missing $package"
done
if [ -n "$missing" ]; then
  echo "Installing:$missing"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  # shellcheck disable=SC2086
  $sudo apt-get install -y -qq --no-install-recommends $missing
fi
if ! command -v nvcc >/dev/null 2>&1; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    echo "note: nvcc is in /usr/local/cuda/bin; add it to PATH (export PATH=/usr/local/cuda/bin:\$PATH)"
  else
    echo "note: the CUDA toolkit (nvcc) is not installed: the labs build with the CPU emulation"
    echo "      backend (correctness only). For a GPU: https://developer.nvidia.com/cuda-downloads"
  fi
fi
