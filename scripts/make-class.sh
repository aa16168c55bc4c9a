#!/bin/sh
# Makes a class of N lab 6 submissions for load-testing the batch grader:
#   scripts/make-class.sh N OUT
# OUT/student-001/labs/lab6-tiled-matmul/kernel.cu ... are copies of the sample class's kernels
# (examples/lab6-class) with small textual changes: a first comment naming the student, and
# TILE_WIDTH alternating 16 / 32 among the correct ones. The mix, repeating every 20 students:
# 16 correct (80%), 2 wrong (10%), 1 slow but correct (5%), 1 that does not compile (5%).
# Prints one line per student (folder, kind, expected points) and a summary. OUT must not exist
# or be empty.
set -eu

usage() {
  echo "usage: scripts/make-class.sh N OUT   (N: number of students, 1 or more)" >&2
  exit 2
}
[ $# -eq 2 ] || usage
n=$1
out=$2
case $n in
  '' | *[!0-9]*) usage ;;
esac
[ "$n" -ge 1 ] || usage
if [ -e "$out" ] && [ -n "$(ls -A "$out")" ]; then
  echo "make-class.sh: $out exists and is not empty" >&2
  exit 1
fi

root=$(cd "$(dirname "$0")/.." && pwd)
class="$root/examples/lab6-class"
kernel=labs/lab6-tiled-matmul/kernel.cu
correct="$class/submissions/alice/$kernel"
wrong_transposed="$class/submissions/dan/$kernel"
wrong_first_tile="$class/archive-src/ivan/$kernel"
slow="$class/submissions/erin/$kernel"
broken="$class/submissions/frank/$kernel"
for f in "$correct" "$wrong_transposed" "$wrong_first_tile" "$slow" "$broken"; do
  [ -f "$f" ] || { echo "make-class.sh: missing sample $f" >&2; exit 1; }
done

# Which kind each of 20 students in a row gets: C correct, W wrong, S slow, X does not compile.
pattern=CCCCWCCCSCCCCWCCCCXC
width=${#n}
[ "$width" -ge 3 ] || width=3
format="student-%0${width}d"

# copy SAMPLE STUDENT_DIR HEADER [SED_SCRIPT]: the sample without its leading comment lines,
# under a new first comment.
copy() {
  mkdir -p "$2/labs/lab6-tiled-matmul"
  {
    printf '%s\n' "$3"
    awk 'started || !/^\/\// { started = 1; print }' "$1" | sed -e "${4:-}"
  } >"$2/$kernel"
}

mkdir -p "$out"
n_correct=0 n_wrong=0 n_slow=0 n_broken=0
i=1
while [ "$i" -le "$n" ]; do
  # shellcheck disable=SC2059 # the format is ours: student-%0Nd
  name=$(printf "$format" "$i")
  dir="$out/$name"
  slot=$(( (i - 1) % 20 + 1 ))
  kind=$(printf '%s' "$pattern" | cut -c "$slot")
  case $kind in
    C)
      n_correct=$((n_correct + 1))
      if [ $((n_correct % 2)) -eq 1 ]; then tile=16; else tile=32; fi
      copy "$correct" "$dir" "// $name: lab 6, tiled matmul (TILE_WIDTH $tile)" \
        "s/^#define TILE_WIDTH 16\$/#define TILE_WIDTH $tile/"
      what="correct, TILE_WIDTH $tile, expected 100"
      ;;
    W)
      n_wrong=$((n_wrong + 1))
      if [ $((n_wrong % 2)) -eq 1 ]; then
        copy "$wrong_transposed" "$dir" "// $name: lab 6, tiled matmul"
        what="wrong (P transposed, like dan), expected 0"
      else
        copy "$wrong_first_tile" "$dir" "// $name: lab 6, tiled matmul"
        what="wrong (first tile only, like ivan), expected 5"
      fi
      ;;
    S)
      n_slow=$((n_slow + 1))
      copy "$slow" "$dir" "// $name: lab 6, tiled matmul (one thread loads the tiles)"
      what="slow but correct (like erin), expected 70"
      ;;
    X)
      n_broken=$((n_broken + 1))
      copy "$broken" "$dir" "// $name: lab 6, tiled matmul"
      what="does not compile (like frank), expected compile error"
      ;;
  esac
  printf '%s  %s\n' "$name" "$what"
  i=$((i + 1))
done
echo "made $n submissions in $out: $n_correct correct, $n_wrong wrong, $n_slow slow, $n_broken not compiling"
