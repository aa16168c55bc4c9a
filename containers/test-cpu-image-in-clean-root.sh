#!/bin/sh
# The CPU grading image, built and used without Docker: a clean Debian 12 root (mmdebstrap's
# minbase, what debian:12 is made from) gets cpu.Dockerfile's steps replayed in it with bubblewrap
# (containers/replay_dockerfile.py: COPY with the Dockerfile's .dockerignore, each RUN as root),
# then grades the sample class there as `docker run` would with containers/README.md's flags
# (the entrypoint, then labgrade batch; the class read-only at /class, the output at /out), and
# the gradebook is checked with examples/lab6-class/check-gradebook.py (under the emulation: every
# status as expected, points in the expected ranges less the unmeasured speed checks' points, no
# hostile entry's mischief). Prints the time of each part. Too slow for CI (about 15 to 25 minutes
# on 2 cores): run it by hand after changing the images or install-grader.sh.
#   containers/test-cpu-image-in-clean-root.sh [TARBALL [WORK [CONTEXT]]]
# TARBALL: the minbase root (default $LABS_DEBIAN_TARBALL, else /var/cache/labs/bookworm-minbase.tar),
#          made with `mmdebstrap --variant=minbase bookworm TARBALL http://deb.debian.org/debian`
#          when missing. WORK: the folder for the root and the output (default
#          /var/tmp/labs-cpu-image; emptied first). CONTEXT: the build context (default this
#          repository's top, as `docker build .` takes it).
# Needs root, bubblewrap, python3, and Debian's package mirror (apt-get runs in the root).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
tarball=${1:-${LABS_DEBIAN_TARBALL:-/var/cache/labs/bookworm-minbase.tar}}
work=${2:-/var/tmp/labs-cpu-image}
context=${3:-$repo}
if [ "$(id -u)" -ne 0 ]; then
  echo "test-cpu-image: needs root (the root folder's files are root's, and apt-get runs there)" >&2
  exit 2
fi
seconds() { date +%s; }

if [ ! -s "$tarball" ]; then
  mkdir -p "$(dirname "$tarball")"
  t0=$(seconds)
  mmdebstrap --variant=minbase bookworm "$tarball" http://deb.debian.org/debian
  echo "test-cpu-image: made $tarball in $(($(seconds) - t0)) s"
fi

rm -rf "$work"
mkdir -p "$work/root" "$work/out"
t0=$(seconds)
tar -C "$work/root" -xf "$tarball"
t1=$(seconds)
echo "test-cpu-image: unpacked $tarball in $((t1 - t0)) s"

python3 "$here/replay_dockerfile.py" build "$here/cpu.Dockerfile" "$context" "$work/root" \
  2>&1 | tee "$work/build.log"
t2=$(seconds)
grep -q "^replay: RUN took .* status 0$" "$work/build.log" ||
  { echo "test-cpu-image: the image's RUN step failed (log: $work/build.log)" >&2; exit 1; }
echo "test-cpu-image: image built in $((t2 - t1)) s; root $(du -sh "$work/root" | cut -f1)"

status=0
python3 "$here/replay_dockerfile.py" run "$here/cpu.Dockerfile" "$work/root" \
  --bind "$repo/examples/lab6-class/submissions:/class:ro" --bind "$work/out:/out" \
  -- labgrade batch lab6 /class /out > "$work/grade.log" 2>&1 || status=$?
t3=$(seconds)
head -5 "$work/grade.log"
tail -5 "$work/grade.log"
echo "test-cpu-image: labgrade batch exited $status after $((t3 - t2)) s"
case $status in 0 | 1) ;; *) echo "test-cpu-image: the batch did not finish" >&2; exit 1 ;; esac

problems=0
# The sandbox must have been bubblewrap with capped memory, not a run that went unsandboxed.
grep -q "sandbox bubblewrap; memory cgroup" "$work/grade.log" ||
  { echo "test-cpu-image: the batch did not run sandboxed with a memory cap" >&2; problems=1; }
python3 "$repo/examples/lab6-class/check-gradebook.py" "$work/out" --search-root "$work/root" ||
  problems=1
echo "test-cpu-image: unpack $((t1 - t0)) s, image build $((t2 - t1)) s, grading $((t3 - t2)) s"
[ "$problems" -eq 0 ] && echo "test-cpu-image: passed"
exit "$problems"
