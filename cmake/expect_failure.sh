#!/bin/sh
# A test of the grader itself: runs a lab program built from a kernel that is known to be wrong
# (or the starter) and passes only if every named check is failed by the checks (with --any: at
# least one of them, for races that a schedule shows in some checks but not always in all).
# A check the run cannot judge (a speed check under the CPU emulation: "not measured") is listed
# and left out; when no named check can be judged the test is skipped (77).
#   expect_failure.sh [--any] LAB_EXE RESULTS_DIR CHECK...
# With EXPECT_REASON="words", a named check counts as caught only if its record's reason holds them.
# With EXPECT_DIAGNOSIS="id [other-id ...]" in the environment (from the kernel's "// diagnosis:"
# lines) the records must also name the mistake: every named check that carries a diagnosis must
# carry one of these ids, and at least one must carry the first.
# With EXPECT_EVIDENCE="kind [kind ...]" (from the kernel's "// evidence:" lines), under the CPU
# emulation every kind must be among the evidence facts of the run's records (any check's: the
# emulator's measures, emulation/src/evidence.hpp), else the test fails ("NO EVIDENCE"); a kernel
# whose named checks are all speed checks (not measured there) is then judged by its evidence
# alone instead of skipped. On a GPU, which measures no such facts, it is not asked. A speed check
# does not run the kernel there: a kind the records lack is looked for in a second run of the
# checks EXPECT_EVIDENCE_CHECKS names (Suite.Name:Suite.Other, the suites' correctness checks).
# EXPECT_ISOLATION asks the lab program how its launcher (the submission's code) was kept from it
# (LAB_ISOLATION_FILE: bubblewrap, or by hand when it is root; harness/runtime/src/student/
# launcher_isolation.hpp):
#   or-skip  a red-team case (examples/redteam/): in a run that was not isolated (no bubblewrap,
#            not root) its verdicts are a self-check, so a case not caught there is skipped (77)
#            with that reason instead of failing.
#   by-hand  the run must have isolated the launcher without bubblewrap (LABGRADE_BWRAP names
#            none): root does it by hand; skipped when not root, which cannot.
#   bubblewrap  where bubblewrap runs on this machine (asked here, of bubblewrap alone), the
#            launcher must have run in it: a launcher cannot talk the lab program out of it.
# With EXPECT_ISOLATION set the lab program gets a --seed on its command line, which the launcher
# would find if it could read the lab program's (or its PID namespace's init's) /proc cmdline.
any=0
if [ "$1" = "--any" ]; then
  any=1
  shift
fi
exe=$1 results=$2
shift 2
. "$(dirname "$0")/lab_program_run.sh"
# On a GPU the submission is a launcher program beside the lab program (LAB_LAUNCHER).
require_built "$exe"
if [ "$EXPECT_ISOLATION" = "by-hand" ] && [ "$(id -u)" -ne 0 ]; then
  echo "skipped: without bubblewrap only root can isolate the launcher (a uid of its own)"
  exit 77
fi
. "$(dirname "$0")/ctest_gpu.sh"
# The bubblewrap the lab program would use, by the rule of common/bwrap.hpp (find_bwrap):
# LABGRADE_BWRAP when set (naming no program: none), else bwrap in PATH, else /usr/bin/bwrap,
# /usr/local/bin/bwrap, /bin/bwrap; printed when it runs here with the launcher's options
# (launcher_bwrap.cpp: bwrap_command) around its own --version; nothing otherwise.
bubblewrap_runs_here() {
  bwrap=${LABGRADE_BWRAP:-}
  if [ -z "$bwrap" ]; then
    bwrap=$(command -v bwrap 2> /dev/null || true)
    case "$bwrap" in /*) ;; *) bwrap="" ;; esac
    [ -n "$bwrap" ] && [ -f "$bwrap" ] && [ -x "$bwrap" ] || bwrap=""
  fi
  if [ -z "$bwrap" ]; then
    for bwrap in /usr/bin/bwrap /usr/local/bin/bwrap /bin/bwrap ""; do
      [ -f "$bwrap" ] && [ -x "$bwrap" ] && break
    done
  fi
  [ -n "$bwrap" ] && [ -f "$bwrap" ] && [ -x "$bwrap" ] || return 0
  "$bwrap" --unshare-all --unshare-user --uid 65534 --gid 65534 --die-with-parent --new-session \
    --json-status-fd 3 --cap-drop ALL --ro-bind / / --proc /proc --dev /dev --chdir / \
    -- "$bwrap" --version 3> /dev/null > /dev/null 2>&1 && echo "$bwrap"
}
fresh_results_folder "$results"
filter=$(echo "$@" | tr ' ' ':')
output=$(mktemp)
isolation_file=""
if [ -n "$EXPECT_ISOLATION" ]; then
  isolation_file=$(mktemp)
  export LAB_ISOLATION_FILE="$isolation_file"
fi
trap 'rm -f "$output" $isolation_file' EXIT
seed_args=""
[ -n "$EXPECT_ISOLATION" ] && seed_args="--seed $(od -An -N4 -tu4 /dev/urandom | tr -d ' ')"
# shellcheck disable=SC2086 # seed_args is two words or none
"$exe" $seed_args --results-dir "$results" --gtest_filter="$filter" > "$output" 2>&1
status=$?
cat "$output"
# How the launcher was isolated: the first "not isolated: why" line, else the first "isolated:".
not_isolated=""
isolated=""
if [ -n "$isolation_file" ]; then
  not_isolated=$(sed -n 's/^not isolated: //p' "$isolation_file" | head -n 1)
  isolated=$(sed -n 's/^isolated: //p' "$isolation_file" | head -n 1)
fi
# Judged by its evidence instead where the emulation measured the run (evidence_judge below).
if [ "$status" -eq 77 ] && { [ -z "$EXPECT_EVIDENCE" ] || ! emulated_records "$results"; }; then
  skip_not_judged "$results"
fi

# The id of a record's own diagnosis: the "id" line of the top-level "diagnosis" object (records
# are written with two spaces of indent a level; the cases' diagnoses sit deeper).
diagnosis_of() {
  awk '/^  "diagnosis": \{/ { inside = 1; next }
       inside && /^  \}/ { exit }
       inside && /^    "id": "/ { sub(/^    "id": "/, ""); sub(/",?$/, ""); print; exit }' "$1"
}

# The kinds of a record's evidence facts, one a line: the "kind" lines of the objects in the
# top-level "evidence" array (an object's fields sit three levels deep).
evidence_kinds_of() {
  awk '/^  "evidence": \[/ { inside = 1; next }
       inside && /^  \]/ { exit }
       inside && /^      "kind": "/ { sub(/^      "kind": "/, ""); sub(/",?$/, ""); print }' "$1"
}

bad=0
caught=0
judged=0
primary_seen=0
primary=""
for id in $EXPECT_DIAGNOSIS; do primary=$id; break; done
# The emulation's schedules are not the GPU's: its diagnoses are shown but only the GPU's are held
# to the kernel's "// diagnosis:" lines.
enforce_diagnosis=1
missed=0
evidence_judged=0
for check in "$@"; do
  record="$results/$check.json"
  if [ ! -f "$record" ]; then
    echo "NOT CAUGHT: $check left no result record (the program ended with status $status)"
    bad=1
    continue
  elif grep -q '^  "verdict": "not_measured"' "$record"; then
    echo "not judged: $check is not measured here ($(grep '^  "reason"' "$record"))"
    continue
  elif grep -q '^  "verdict": "fail"' "$record" && [ -n "$EXPECT_REASON" ] &&
    ! grep -qF "$EXPECT_REASON" "$record"; then
    echo "NOT CAUGHT: $check failed, but its reason is not \"$EXPECT_REASON...\": $(grep '^  "reason"' "$record")"
    missed=1
    judged=$((judged + 1))
  elif grep -q '^  "verdict": "fail"' "$record"; then
    echo "caught: $check failed, as it must"
    caught=$((caught + 1))
    judged=$((judged + 1))
  elif grep -q '^  "verdict": "implausible"' "$record"; then
    # No points, but not caught as it must be: every timed call is verified, so a kernel that
    # skips work fails at that call; a figure beyond the GPU's ceiling means the verification
    # missed it (the ceiling is the last line of defence, not the test's).
    echo "NOT CAUGHT: $check was only implausible (beyond the GPU's ceiling), not failed by" \
      "the verification of its timed calls: $(grep '^  "reason"' "$record")"
    missed=1
    judged=$((judged + 1))
  else
    echo "NOT CAUGHT: $check was not failed: $(grep '^  "verdict"' "$record")"
    missed=1
    judged=$((judged + 1))
  fi
  grep -q '^  "backend": "emulation' "$record" && enforce_diagnosis=0
  [ -n "$EXPECT_DIAGNOSIS" ] || continue
  given=$(diagnosis_of "$record")
  if [ -z "$given" ]; then
    echo "  diagnosis: none given for $check"
    continue
  fi
  allowed=0
  for id in $EXPECT_DIAGNOSIS; do [ "$id" = "$given" ] && allowed=1; done
  if [ "$allowed" -eq 1 ]; then
    echo "  diagnosis: $check names $given, as expected"
    [ "$given" = "$primary" ] && primary_seen=1
  elif [ "$enforce_diagnosis" -eq 1 ]; then
    echo "WRONG DIAGNOSIS: $check names $given; expected $EXPECT_DIAGNOSIS"
    bad=1
  else
    echo "  diagnosis (emulation, not held to it): $check names $given; the GPU's is $EXPECT_DIAGNOSIS"
  fi
done
if [ -n "$EXPECT_DIAGNOSIS" ] && [ "$primary_seen" -eq 0 ] && [ "$judged" -gt 0 ]; then
  if [ "$enforce_diagnosis" -eq 1 ]; then
    echo "WRONG DIAGNOSIS: no check named $primary"
    bad=1
  else
    echo "  diagnosis (emulation, not held to it): no check named $primary"
  fi
fi
# What the student reads names their own files, never the grader's sources.
if grep -nE '(harness|contract|launcher|emulation)/(src|include)/[A-Za-z0-9_/]+\.(cu|cpp|hpp|h):' \
  "$output" > /dev/null; then
  echo "GRADER PATH SHOWN: the output names a file of the kit's sources:"
  grep -nE '(harness|contract|launcher|emulation)/(src|include)/[A-Za-z0-9_/]+\.(cu|cpp|hpp|h):' \
    "$output" | head -5
  bad=1
fi
if [ "$EXPECT_ISOLATION" = "by-hand" ] && [ "$judged" -gt 0 ]; then
  if [ -n "$not_isolated" ]; then
    echo "NOT ISOLATED: the launcher ran without isolation ($not_isolated)"
    bad=1
  elif [ -z "$isolated" ]; then
    echo "NOT ISOLATED: the lab program did not say how its launcher was isolated"
    bad=1
  elif [ "$isolated" = "bubblewrap" ]; then
    echo "NOT ISOLATED BY HAND: the launcher ran under bubblewrap, which this test leaves out"
    bad=1
  else
    echo "isolated without bubblewrap: $isolated"
  fi
fi
if [ "$EXPECT_ISOLATION" = "bubblewrap" ] && [ "$judged" -gt 0 ]; then
  bwrap=$(bubblewrap_runs_here)
  if [ -z "$bwrap" ]; then
    echo "not checked: bubblewrap cannot run here, so the launcher may run without it"
  elif grep -qv '^isolated: bubblewrap$' "$isolation_file" || [ "$isolated" != "bubblewrap" ]; then
    echo "OUT OF ITS SANDBOX: $bwrap runs here, but the launcher ran" \
      "${not_isolated:+not isolated ($not_isolated)}${isolated:+isolated: $isolated}"
    bad=1
  else
    echo "kept in bubblewrap, as it must be"
  fi
fi
# "// evidence:": under the emulation, every kind named must be among the records' facts.
if [ -n "$EXPECT_EVIDENCE" ] && emulated_records "$results"; then
  rerun=0
  # Each folder quoted on its own: a build path may hold spaces.
  in_evidence_folders() {
    "$@" "$results"
    if [ "$rerun" -eq 1 ]; then "$@" "$results-evidence"; fi
  }
  kinds_in() {
    for record in "$1"/*.json; do [ -f "$record" ] && evidence_kinds_of "$record"; done
  }
  kinds_found() { in_evidence_folders kinds_in | sort -u; }
  found=$(kinds_found)
  missing=0
  for kind in $EXPECT_EVIDENCE; do echo "$found" | grep -qx "$kind" || missing=1; done
  if [ "$missing" -eq 1 ] && [ -n "$EXPECT_EVIDENCE_CHECKS" ]; then
    # The named checks' run lacks a kind (a speed check runs no kernel here): the suites'
    # correctness checks run the kernel, into a folder of their own; their verdicts judge nothing.
    fresh_results_folder "$results-evidence"
    echo "evidence: running $EXPECT_EVIDENCE_CHECKS for the emulator's facts"
    "$exe" --results-dir "$results-evidence" --gtest_filter="$EXPECT_EVIDENCE_CHECKS" \
      > /dev/null 2>&1
    rerun=1
    found=$(kinds_found)
  fi
  records_text() { cat "$1"/*.json 2> /dev/null; }
  for kind in $EXPECT_EVIDENCE; do
    if echo "$found" | grep -qx "$kind"; then
      echo "evidence: the records carry $kind, as they must:"
      in_evidence_folders records_text |
        grep -A3 "^      \"kind\": \"$kind\"" |
        sed -n 's/^      "words": "\(.*\)",\{0,1\}$/  \1/p' | sort -u | head -2
    else
      echo "NO EVIDENCE: no record's evidence has a $kind fact (the run's:" \
        "$(echo "$found" | paste -sd, - | sed 's/^$/none/; s/,/, /g'))"
      bad=1
    fi
  done
  judged=$((judged + 1))
  evidence_judged=1
fi
if [ "$judged" -eq 0 ] && [ "$bad" -eq 0 ]; then
  echo "skipped: none of the named checks can be judged here"
  exit 77
fi
if [ "$any" -eq 1 ]; then
  if [ "$caught" -gt 0 ]; then
    echo "caught by $caught of the checks, as it must be by at least one"
  elif [ "$judged" -gt "$evidence_judged" ]; then
    bad=1
  fi
elif [ "$missed" -eq 1 ]; then
  bad=1
fi
if [ "$EXPECT_ISOLATION" = "or-skip" ] && [ -n "$not_isolated" ]; then
  if [ "$bad" -ne 0 ]; then
    echo "skipped: this run was not isolated: its verdicts are a self-check ($not_isolated);" \
      "a red-team case is stopped only by an isolated launcher (bubblewrap, or a lab program" \
      "run as root)"
    exit 77
  fi
  echo "note: caught, although this run was not isolated ($not_isolated)"
fi
exit $bad
