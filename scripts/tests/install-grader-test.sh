#!/bin/sh
# ctest ci.install_grader: scripts/packaging/install-grader.sh's choices, fast and without a GPU.
# The script runs in a copy of its tree with stand-ins on PATH: cmake (records each call, makes
# the build's labgrade and kit folders), nvidia-smi and nvcc (a GPU host or not), and an
# install-deps.sh that reports the packages INSTALL_DEPS_MISSING names as missing and records
# whether it was asked to install. Checked: the backend auto picks, the emulation kits of the
# emulated pass beside a CUDA build (and their absence without Boost.Context), no package
# installation when nothing is missing, a failed one tolerated with one line per missing package,
# --lab, --root-only's modes, --bin, and the one-line errors. Then scripts/install-deps.sh --check
# with a dpkg-query that knows every package: nothing missing, no apt-get.
#   scripts/tests/install-grader-test.sh SCRATCH
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=${1:?usage: install-grader-test.sh SCRATCH}
rm -rf "$scratch"
mkdir -p "$scratch/bin" "$scratch/tree/scripts/packaging" "$scratch/tree/containers"
cp "$repo/scripts/packaging/install-grader.sh" "$scratch/tree/scripts/packaging/"
echo "#!/bin/sh" > "$scratch/tree/containers/labgrade-entrypoint.sh"
log=$scratch/calls.log
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

cat > "$scratch/tree/scripts/install-deps.sh" <<'EOF'
#!/bin/sh
if [ "${1:-}" = --check ]; then
  [ -z "${INSTALL_DEPS_MISSING:-}" ] && exit 0
  echo "$INSTALL_DEPS_MISSING" | tr , ' '
  exit 1
fi
echo "install-deps: asked to install" >> "$TEST_LOG"
echo "install-deps.sh: apt-get could not install them: still missing: $INSTALL_DEPS_MISSING" >&2
exit 1
EOF
cat > "$scratch/bin/cmake" <<'EOF'
#!/bin/sh
if [ "$1" = --version ]; then echo "cmake version ${TEST_CMAKE_VERSION:-4.0.2}"; exit 0; fi
echo "cmake $*" >> "$TEST_LOG"
if [ "$1" = --build ]; then
  mkdir -p "$2/grader" "$2/grading-kit/lab6" "$2/objects"
  touch "$2/grader/labgrade" "$2/grading-kit/lab6/kit.json" "$2/objects/x.o"
fi
EOF
cat > "$scratch/bin/nvidia-smi" <<'EOF'
#!/bin/sh
[ "${TEST_GPU:-0}" = 1 ] && echo "GPU 0: NVIDIA H200 (UUID: GPU-0)"
[ "${TEST_GPU:-0}" = 1 ]
EOF
printf '#!/bin/sh\nexit 0\n' > "$scratch/nvcc"
chmod +x "$scratch/bin/"* "$scratch/nvcc" "$scratch/tree/scripts/install-deps.sh"

# run NAME [VAR=VALUE...] -- ARGS: the script in the copy, its output in $scratch/NAME.out.
run() {
  name=$1
  shift
  : > "$log"
  rm -rf "$scratch/build" "$scratch/build-emulation" "$scratch/usr-bin"
  assignments=""
  while [ "$1" != -- ]; do
    assignments="$assignments $1"
    shift
  done
  shift
  status=0
  # shellcheck disable=SC2086
  env PATH="$scratch/bin:/usr/bin:/bin" TEST_LOG="$log" $assignments \
    sh "$scratch/tree/scripts/packaging/install-grader.sh" "$@" > "$scratch/$name.out" 2>&1 ||
    status=$?
}
with_nvcc() { cp "$scratch/nvcc" "$scratch/bin/nvcc"; }
without_nvcc() { rm -f "$scratch/bin/nvcc"; }
has() { grep -q -e "$2" "$3" || fail "$1: no '$2' in $(basename "$3"): $(tr '\n' '|' < "$3")"; }
lacks() { ! grep -q -e "$2" "$3" || fail "$1: '$2' in $(basename "$3")"; }

# A GPU host with every package: CUDA backend, the emulated pass's kit first, no installation.
with_nvcc
run gpu TEST_GPU=1 -- --lab lab6 --build "$scratch/build"
[ "$status" -eq 0 ] || fail "gpu: exit $status: $(cat "$scratch/gpu.out")"
has gpu "-B $scratch/build-emulation .*-DLABS_BACKEND=emulation" "$log"
has gpu "--target labgrade lab6_kit" "$log"
has gpu "-DLABS_BACKEND=cuda -DLABS_EMULATION_KIT_ROOT=$scratch/build-emulation/grading-kit" "$log"
lacks gpu "asked to install" "$log"
has gpu "ready (cuda backend)" "$scratch/gpu.out"
[ -z "$(find "$scratch/build" "$scratch/build-emulation" -name '*.o')" ] || fail "gpu: object files left"

# Offline GPU host without libarchive, bubblewrap and Boost.Context: one line each, still CUDA.
run offline TEST_GPU=1 INSTALL_DEPS_MISSING=libarchive-dev,bubblewrap,libboost-context-dev -- \
  --lab lab6 --build "$scratch/build"
[ "$status" -eq 0 ] || fail "offline: exit $status: $(cat "$scratch/offline.out")"
if [ "$(id -u)" -eq 0 ]; then
  has offline "asked to install" "$log"
  has offline "apt-get could not install everything" "$scratch/offline.out"
else
  has offline "not root: not installing" "$scratch/offline.out"
fi
for package in libarchive-dev bubblewrap libboost-context-dev; do
  has offline "without $package:" "$scratch/offline.out"
done
has offline "no emulated pass" "$scratch/offline.out"
lacks offline "build-emulation" "$log"
has offline "-DLABS_BACKEND=cuda" "$log"

# No GPU: the emulation; a GPU without nvcc: the emulation, said; --backend cuda without a GPU.
run cpu TEST_GPU=0 -- --build "$scratch/build"
has cpu "-DLABS_BACKEND=emulation" "$log"
has cpu "--target labgrade grading_kits" "$log"
lacks cpu "LABS_BACKEND=cuda" "$log"
run forced TEST_GPU=0 -- --backend cuda --build "$scratch/build"
has forced "-DLABS_BACKEND=cuda" "$log"
without_nvcc
if ! PATH="$scratch/bin:/usr/bin:/bin:/usr/local/cuda/bin" command -v nvcc >/dev/null; then
  run no-nvcc TEST_GPU=1 -- --build "$scratch/build"
  has no-nvcc "a GPU answers but nvcc is not installed" "$scratch/no-nvcc.out"
  has no-nvcc "-DLABS_BACKEND=emulation" "$log"
fi

# --root-only: the tree and the build root's alone, the kit readable; --bin links labgrade.
run modes -- --build "$scratch/build" --root-only --bin "$scratch/usr-bin"
[ "$(stat -c %a "$scratch/build")" = 711 ] || fail "modes: build is $(stat -c %a "$scratch/build")"
[ "$(stat -c %a "$scratch/build/grading-kit/lab6")" = 755 ] || fail "modes: the kit is not readable"
[ "$(stat -c %a "$scratch/build/grader")" = 700 ] || fail "modes: the build's grader is readable"
[ "$(stat -c %a "$scratch/tree/scripts")" = 700 ] || fail "modes: the tree is readable"
[ "$(readlink "$scratch/usr-bin/labgrade")" = "$scratch/build/grader/labgrade" ] || fail "--bin: no link"
[ -x "$scratch/usr-bin/labgrade-entrypoint" ] || fail "--bin: no entrypoint"
chmod -R u+rwX,go+rX "$scratch/tree"

# One-line errors.
run usage -- --backend gpu
[ "$status" -eq 2 ] || fail "usage: exit $status"
has usage "^usage: " "$scratch/usage.out"
run old-cmake TEST_CMAKE_VERSION=3.22.1 --
[ "$status" -eq 2 ] || fail "old-cmake: exit $status"
has old-cmake "cmake 3.22 is older than 3.25" "$scratch/old-cmake.out"

# The real install-deps.sh --check where dpkg knows every package: silent, exit 0, no apt-get.
printf '#!/bin/sh\nprintf "install ok installed"\n' > "$scratch/bin/dpkg-query"
# shellcheck disable=SC2016
printf '#!/bin/sh\necho "apt-get $*" >> "$TEST_LOG"\nexit 100\n' > "$scratch/bin/apt-get"
chmod +x "$scratch/bin/dpkg-query" "$scratch/bin/apt-get"
: > "$log"
out=$(PATH="$scratch/bin:/usr/bin:/bin" TEST_LOG="$log" sh "$repo/scripts/install-deps.sh" --check) ||
  fail "install-deps --check: exit $? with every package installed: $out"
[ -z "$out" ] || fail "install-deps --check printed '$out'"
PATH="$scratch/bin:/usr/bin:/bin" TEST_LOG="$log" sh "$repo/scripts/install-deps.sh" >/dev/null ||
  fail "install-deps: exit $? with every package installed"
lacks install-deps "apt-get" "$log"

# Where dpkg knows nothing, what is on disk counts: Boost's headers without Boost.Context's CMake
# package (a GPU host had them so) leave libboost-context-dev missing; with it, present.
printf '#!/bin/sh
exit 1
' > "$scratch/bin/dpkg-query"
disk=$scratch/disk
mkdir -p "$disk/usr/include/boost/context"
: > "$disk/usr/include/boost/context/fiber.hpp"
check_boost() {
  PATH="$scratch/bin:/usr/bin:/bin" INSTALL_DEPS_ROOT="$disk" sh "$repo/scripts/install-deps.sh" \
    --check | tr ' ' '\n' | grep -c '^libboost-context-dev$' || true
}
[ "$(check_boost)" = 1 ] || fail "install-deps --check: Boost headers alone counted as Boost.Context"
mkdir -p "$disk/usr/lib/x86_64-linux-gnu/cmake/boost_context-1.83.0"
[ "$(check_boost)" = 0 ] || fail "install-deps --check: Boost.Context's CMake package not seen"

echo "install-grader-test: $failures failure(s)"
[ "$failures" -eq 0 ]
