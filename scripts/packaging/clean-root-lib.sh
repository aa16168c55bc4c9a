# The steps of scripts/packaging/test-in-clean-root.sh (sourced there): a clean root, commands run
# inside it as the platforms run theirs (root, a fresh /tmp, the network for apt), each measured.
# Uses the caller's variables: repo, labgrade, scratch, root, report, platform, lab, no_bwrap, limits, cpus.

# Unpacks the minbase tarball (made with mmdebstrap when none is given) into $2.
make_root() {
  local tarball=$1 target=$2
  if [ -z "$tarball" ]; then
    command -v mmdebstrap >/dev/null || { echo "no --tarball and no mmdebstrap" >&2; exit 2; }
    tarball=$scratch/bookworm-minbase.tar
    [ -f "$tarball" ] || mmdebstrap --variant=minbase bookworm "$tarball" http://deb.debian.org/debian
  fi
  echo "== clean root from $tarball"
  mkdir -p "$target"
  tar -xf "$tarball" -C "$target"
}

# Docker's default capabilities for root in a container (what Gradescope's and PrairieLearn's
# graders get): no CAP_SYS_ADMIN, so no new namespaces.
docker_caps=(--cap-add CAP_CHOWN --cap-add CAP_DAC_OVERRIDE --cap-add CAP_FSETID
  --cap-add CAP_FOWNER --cap-add CAP_MKNOD --cap-add CAP_NET_RAW --cap-add CAP_SETGID
  --cap-add CAP_SETUID --cap-add CAP_SETFCAP --cap-add CAP_SETPCAP --cap-add CAP_NET_BIND_SERVICE
  --cap-add CAP_SYS_CHROOT --cap-add CAP_KILL --cap-add CAP_AUDIT_WRITE)

# in_root DIR COMMAND...: sets root_cmd to COMMAND run in the root, in DIR, as root (as a
# platform's setup and grading run as root in their container), with the network (apt) and a
# fresh /tmp. Every capability, so that bubblewrap can start inside; with --no-bubblewrap,
# Docker's default capabilities and no bubblewrap for the grader to find, as on the platforms.
root_binds=()  # more binds for in_root, after the root's own
work_binds=()  # binds of the grader's work folder, for measured runs

# The sandboxes' uid slots (common/uid_lease.hpp) are lock files in /run/lock/labgrade-sandbox:
# the root shares this machine's, so that a grader inside and one outside (another test, another
# engineer's batch) never lease the same uid and kill each other's processes by it. Containers on
# one platform host do not see each other's processes, so there it is no matter.
uid_lock_binds() {
  [ -d /run/lock ] || return 0
  install -d -m 0700 /run/lock/labgrade-sandbox
  echo --bind /run/lock/labgrade-sandbox /run/lock/labgrade-sandbox
}

in_root() {
  local dir=$1
  shift
  local extra=(--cap-add ALL $(uid_lock_binds))
  [ "$no_bwrap" -eq 1 ] &&
    extra=("${docker_caps[@]}" $(uid_lock_binds) --setenv LABGRADE_BWRAP /nonexistent/bwrap)
  root_cmd=(bwrap --bind "$root" / --proc /proc --dev /dev --ro-bind /sys /sys
    --ro-bind /etc/resolv.conf /etc/resolv.conf --perms 1777 --tmpfs /tmp "${root_binds[@]}"
    --unshare-pid --unshare-ipc --unshare-uts --die-with-parent
    --clearenv --setenv PATH /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
    --setenv HOME /root --setenv LANG C.UTF-8 "${extra[@]}" --chdir "$dir" "$@")
}

# The memory cgroup this script runs in (cgroup v1), where a child group can count a command.
memory_parent() {
  local path
  path=$(awk -F: '$2 == "memory" {print $3}' /proc/self/cgroup)
  [ -n "$path" ] && [ -w "/sys/fs/cgroup/memory$path" ] && echo "/sys/fs/cgroup/memory$path"
}

# measured LABEL DIR COMMAND...: COMMAND run in the root (in_root) under /usr/bin/time -v, itself
# run inside the root, so that its maximum resident set size is the largest process's of the
# whole tree (report/LABEL.time); the root's processes in a memory cgroup of their own where this
# machine has one (its peak, page cache included, and its OOM count in report/LABEL.mem). With
# --limits also capped at 768 MB and half a CPU, Gradescope's defaults (--cpus: another share).
measured() {
  local label=$1 dir=$2 out=$scratch/measure
  shift 2
  rm -rf "$out"
  mkdir -p "$out"
  cp /usr/bin/time "$out/time"
  root_binds=(--bind "$out" /labgrade-measure "${work_binds[@]}")
  in_root "$dir" /labgrade-measure/time -v -o /labgrade-measure/time.txt "$@"
  root_binds=()
  in_groups "$label" "$out/time.txt" "${root_cmd[@]}"
}

# measured_here LABEL COMMAND...: COMMAND run on this machine (the replay of a Dockerfile, whose
# RUN steps enter the root themselves), measured as measured's.
measured_here() {
  local label=$1 out=$scratch/measure
  shift
  rm -rf "$out"
  mkdir -p "$out"
  in_groups "$label" "$out/time.txt" /usr/bin/time -v -o "$out/time.txt" "$@"
}

# in_groups LABEL TIME_FILE COMMAND...: COMMAND in the cgroups above; the time file it writes and
# the cgroup's peak kept as report/LABEL.time and report/LABEL.mem.
in_groups() {
  local label=$1 time_file=$2
  shift 2
  local groups=() mem="" cpu="" parent status=0
  parent=$(memory_parent || true)
  if [ -n "$parent" ]; then
    mem=$parent/labgrade-test-$$-$label
    mkdir -p "$mem"
    [ "$limits" -eq 1 ] && echo $((768 * 1024 * 1024)) > "$mem/memory.limit_in_bytes"
    groups+=("$mem/cgroup.procs")
  fi
  if [ "$limits" -eq 1 ] && [ -w /sys/fs/cgroup/cpu ]; then
    cpu=/sys/fs/cgroup/cpu/labgrade-test-$$
    mkdir -p "$cpu"
    echo 100000 > "$cpu/cpu.cfs_period_us"
    awk -v cpus="$cpus" 'BEGIN { printf "%d\n", cpus * 100000 }' > "$cpu/cpu.cfs_quota_us"
    groups+=("$cpu/cgroup.procs")
  fi
  GROUPS_TO_JOIN="${groups[*]}" \
    sh -c 'for g in $GROUPS_TO_JOIN; do echo $$ > "$g"; done; exec "$@"' sh "$@" || status=$?
  cp "$time_file" "$report/$label.time" 2>/dev/null || echo "no time report" > "$report/$label.time"
  if [ -n "$mem" ]; then
    echo "peak_bytes $(cat "$mem/memory.max_usage_in_bytes") oom_events $(cat "$mem/memory.failcnt")" \
      > "$report/$label.mem"
    rmdir "$mem" 2>/dev/null || true
  fi
  [ -n "$cpu" ] && { rmdir "$cpu" 2>/dev/null || true; }
  return $status
}

# The setup's measures, kept beside the root for a later --reuse-root run's report.
keep_setup_measures() {
  mkdir -p "$scratch/setup-measures"
  cp "$report"/setup*.time "$report"/setup*.mem "$scratch/setup-measures/" 2>/dev/null || true
}

# Gradescope: the zip extracted to /autograder/source, run_autograder copied to /autograder, and
# setup.sh run there with bash, as root.
install_gradescope_package() {
  "$labgrade" package gradescope "$lab" "$scratch/package.zip" > "$report/logs/package.log"
  mkdir -p "$root/autograder/source" "$root/autograder/results" "$root/autograder/submission"
  python3 "$repo/scripts/packaging/check-results.py" unzip "$scratch/package.zip" \
    "$root/autograder/source"
  cp -p "$root/autograder/source/run_autograder" "$root/autograder/run_autograder"
  echo "== setup.sh in the root (log: $report/logs/setup.log)"
  measured setup /autograder/source bash /autograder/source/setup.sh \
    > "$report/logs/setup.log" 2>&1 ||
    { tail -30 "$report/logs/setup.log"; exit 1; }
  keep_setup_measures
}

# PrairieLearn: the package's Dockerfile replayed in the root by containers/replay_dockerfile.py
# (the project's one replay: FROM is the minbase root; COPY copies from the build context; each RUN
# runs in the root as root, the first being the setup), measured as one step.
install_prairielearn_package() {
  local context=$scratch/package
  "$labgrade" package prairielearn "$lab" "$context" > "$report/logs/package.log"
  echo "== the Dockerfile's steps in the root (log: $report/logs/setup.log)"
  measured_here setup python3 "$repo/containers/replay_dockerfile.py" build \
    "$context/Dockerfile" "$context" "$root" > "$report/logs/setup.log" 2>&1 ||
    { tail -30 "$report/logs/setup.log"; exit 1; }
  keep_setup_measures
}

# A label safe for a file name.
label_of() { printf '%s' "$1" | tr -c 'A-Za-z0-9._-' '_'; }

# grade_one ENTRY NAME: the entry handed over as the platform does (a folder's files, or the
# uploaded file), the platform's command run, its results kept as report/results/NAME.json.
grade_one() {
  local entry=$1 name=$2 label incoming results dir command work
  label=submission-$(label_of "$name")
  # The grader's work folder, kept for a look at what the student's code printed: Gradescope's is
  # in the root; PrairieLearn's, under /tmp, is bound to one outside.
  work=$root/autograder/labgrade-work
  work_binds=()
  if [ "$platform" = prairielearn ]; then
    work=$scratch/prairielearn-work
    rm -rf "$work"
    mkdir -p "$work"
    work_binds=(--bind "$work" /tmp/labgrade-work)
  fi
  if [ "$platform" = gradescope ]; then
    incoming=$root/autograder/submission
    results=$root/autograder/results/results.json
    dir=/autograder
    command=/autograder/run_autograder
    rm -rf "$root/autograder/results"
    mkdir -p "$root/autograder/results"
  else
    incoming=$root/grade/student
    results=$root/grade/results/results.json
    dir=/
    command=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["externalGradingOptions"]["entrypoint"])' \
      "$scratch/package/example-question/info.json")
    rm -rf "$root/grade"  # PrairieLearn makes /grade/student; the grader must make /grade/results
  fi
  rm -rf "$incoming"
  mkdir -p "$incoming"
  if [ -d "$entry" ]; then cp -a "$entry/." "$incoming/"; else cp -a "$entry" "$incoming/"; fi
  printf '== %s: ' "$name"
  measured "$label" "$dir" "$command" > "$report/logs/$label.log" 2>&1 || true
  if [ -d "$work/out/students/student" ]; then
    cp -a "$work/out/students/student" "$report/students/$label"
  fi
  if [ -f "$results" ]; then
    cp "$results" "$report/results/$name.json"
    echo "results written ($(grep -E 'Elapsed' "$report/$label.time" | sed 's/.*: //'))"
  else
    echo "NO results.json (log: $report/logs/$label.log)"
  fi
}

# Files named ESCAPED-mallory anywhere in the root (mallory-write-outside's, outside its scratch).
escaped_files() {
  find "$root" -xdev -name 'ESCAPED-mallory*' -not -path "$root/proc/*" 2>/dev/null |
    grep -v "/labgrade-work/out/.labgrade/work/" || true
}

# What another user may read in the root once the setup is done: the kit, and not the reference
# solution nor the rest of the build (as nobody, the compile without bubblewrap, and as 200000, a
# launcher's uid). Writes report/permissions.txt; returns 1 on a breach.
check_permissions() {
  local solution kit build
  if [ "$platform" = gradescope ]; then
    solution=/autograder/source/project/solutions/lab6-tiled-matmul/kernel.cu
    build=/autograder/labgrade
  else
    solution=/opt/labgrade/src/solutions/lab6-tiled-matmul/kernel.cu
    build=/opt/labgrade/build
  fi
  kit=$build/grading-kit/$lab/include/$lab.h
  root_binds=()
  in_root / sh -c '
    for uid in 65534 200000; do
      setpriv --reuid=$uid --regid=$uid --clear-groups --no-new-privs sh -c "
        cat $1 >/dev/null 2>&1 && echo \"BREACH: uid $uid reads the reference solution\"
        ls $2 >/dev/null 2>&1 && echo \"BREACH: uid $uid lists the build\"
        cat $2/CMakeCache.txt >/dev/null 2>&1 && echo \"BREACH: uid $uid reads the build\"
        cat $3 >/dev/null 2>&1 || echo \"BROKEN: uid $uid cannot read the kit\"
        echo \"uid $uid: checked\""
    done' sh "$solution" "$build" "$kit"
  "${root_cmd[@]}" > "$report/permissions.txt" 2>&1
  cat "$report/permissions.txt"
  ! grep -qE "BREACH|BROKEN" "$report/permissions.txt"
}
