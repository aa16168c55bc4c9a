#!/bin/sh
# A test of the launcher isolated by hand (harness/runtime/src/student/launcher_view.hpp and
# launcher_isolation.hpp): the lab program runs without bubblewrap (LABGRADE_BWRAP names none), as
# root, with a --seed on its command line, and its launcher is a shell script in a folder under
# /tmp that prints what it sees and exits; the lab program shows what it printed. It must see a
# /dev of its own (no GPU device nodes), private /tmp and /dev/shm (a file left in the machine's
# /tmp not there, what it writes there gone with it), a blank /proc/1/cmdline, a leased uid and at
# most 1024 processes; and it must have run at all from under /tmp. Skipped when not root.
#   expect_launcher_view.sh LAB_EXE RESULTS_DIR CHECK
exe=$1 results=$2 check=$3
if [ "$(id -u)" -ne 0 ]; then
  echo "skipped: without bubblewrap only root can isolate the launcher"
  exit 77
fi
if [ ! -x "$exe" ]; then
  echo "not built: $exe"
  exit 77
fi
. "$(dirname "$0")/ctest_gpu.sh"
folder=$(mktemp -d /tmp/launcher-view.XXXXXX)
marker=$(mktemp /tmp/launcher-view-marker.XXXXXX)
left="/tmp/launcher-view-left-$$"
output=$(mktemp)
isolation=$(mktemp)
trap 'rm -rf "$folder" "$marker" "$left" "$output" "$isolation"' EXIT
# Readable and runnable by the launcher's uid; the marker readable by anyone.
chmod 755 "$folder"
chmod 644 "$marker"
cat > "$folder/launcher" << EOF
#!/bin/sh
echo "view uid: \$(id -u)"
echo "view dev: \$(ls /dev | tr '\n' ' ')"
echo "view init: \$(tr '\0' ' ' < /proc/1/cmdline)"
echo "view nproc: \$(sed -n 's/^Max processes *\([0-9a-z]*\).*/\1/p' /proc/self/limits)"
[ -e "$marker" ] && echo "view marker: seen"
touch "$left" && echo "view tmp: writable"
touch /dev/shm/launcher-view && echo "view shm: writable"
exit 3
EOF
chmod 755 "$folder/launcher"
rm -rf "$results"
(umask 022 && mkdir -p "$results")
LABGRADE_BWRAP=/nonexistent/bwrap LAB_LAUNCHER="$folder/launcher" LAB_ISOLATION_FILE="$isolation" \
  "$exe" --seed 4242 --results-dir "$results" --gtest_filter="$check" > "$output" 2>&1
status=$?
cat "$output"
if [ "$status" -eq 77 ] && ! grep -q 'view uid' "$output"; then
  echo "skipped: the lab program judged nothing here (no GPU?)"
  exit 77
fi
bad=0
fail() {
  echo "NOT ISOLATED AS IT MUST BE: $1"
  bad=1
}
grep -q '^isolated: uid [0-9]* in a PID namespace of its own' "$isolation" ||
  fail "the lab program did not isolate it by hand in a PID namespace: $(cat "$isolation")"
grep -q 'view uid: 2[0-9][0-9][0-9][0-9][0-9]$' "$output" ||
  fail "it did not run (from under /tmp) as a sandbox uid of its own"
grep -q 'view dev: fd full null random shm stderr stdin stdout urandom zero $' "$output" ||
  fail "its /dev is not its own (no GPU device nodes): $(grep 'view dev' "$output")"
grep -q 'view init:.*--seed' "$output" && fail "its /proc/1/cmdline shows the lab program's"
grep -q 'view nproc: 1024$' "$output" || fail "its processes are not limited to 1024"
grep -q 'view marker' "$output" && fail "it sees the machine's /tmp"
[ -e "$left" ] && fail "what it wrote in its /tmp is in the machine's"
grep -q 'view tmp: writable' "$output" || fail "its own /tmp is not writable"
grep -q 'view shm: writable' "$output" || fail "its own /dev/shm is not writable"
[ "$bad" -eq 0 ] && echo "isolated by hand as it must be: $(cat "$isolation")"
exit $bad
