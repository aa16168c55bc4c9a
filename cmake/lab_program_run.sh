# Sourced by the tests that run a lab program on a kernel and judge its records
# (expect_failure.sh, expect_pass.sh): the steps they share.

# Skipped (77) when the lab program or, on a GPU, the submission's launcher (LAB_LAUNCHER) was not
# built.
require_built() {
  if [ -n "$LAB_LAUNCHER" ] && [ ! -x "$LAB_LAUNCHER" ]; then
    echo "not built: $LAB_LAUNCHER"
    exit 77
  fi
  if [ ! -x "$1" ]; then
    echo "not built: $1"
    exit 77
  fi
}

# A new, empty results folder, made here with its parents and writable by their owner alone: a
# launcher isolated under another uid must not be able to write a record into it (nor make it
# first).
fresh_results_folder() {
  rm -rf "$1"
  (umask 022 && mkdir -p "$1") && chmod go-w "$1"
}

# After a lab program that exited 77 (it judged nothing: no GPU, or only speed checks under the
# CPU emulation, whose records say not_measured): says why, and exits 77.
skip_not_judged() {
  if grep -qs '^  "verdict": "not_measured"' "$1"/*.json; then
    echo "skipped: every named check is a speed check, not measured under the CPU emulation" \
      "(docs/emulation-verdicts.md)"
  else
    echo "skipped: no GPU to run the kernel on"
  fi
  exit 77
}

# Whether the run's records are the CPU emulation's (their backend says so).
emulated_records() {
  grep -qs '^  "backend": "emulation' "$1"/*.json
}
