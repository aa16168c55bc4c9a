#!/bin/sh
# The grading images' entrypoint: gives the sandbox's per-run cgroups a place, then runs the
# command (labgrade batch ...).
#
# labgrade caps each run's memory and processes with a cgroup v2 group of its own, made beside the
# grader's group, under a parent that enables the memory controller for its children. In a
# container the grader's group is the top of its cgroup namespace and holds the container's
# processes, and cgroup v2 enables no controller for the children of a group with processes (the
# kernel's "no internal process" rule). So, as moby's dind script does for Docker in Docker: move
# this group's processes into a leaf group, then enable memory and pids here. Docker mounts the
# cgroup file system read-only in a container that is not --privileged; with CAP_SYS_ADMIN
# (--cap-add SYS_ADMIN, --security-opt apparmor=unconfined) it is remounted read-write first.
# The same works in a group delegated to a user (systemd-run --user --scope -p Delegate=yes).
#
# Changed: nothing in the host's own root group (no cgroup.type file: outside any namespace), nor
# when LABGRADE_CGROUP names the group to use, nor with LABGRADE_DELEGATE_CGROUP=0. What it tried
# and could not do is said in one line; labgrade batch then names the cause and the fix.
set -eu

say() { echo "labgrade-entrypoint: $*" >&2; }

delegate_cgroup() {
  # "id parent major:minor root mount-point options ... - cgroup2 source super-options"
  mount_line=$(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5, $6; break } }' \
    /proc/self/mountinfo | head -n 1)
  [ -n "$mount_line" ] || return 0
  mount_point=${mount_line% *}
  options=${mount_line#* }
  group=$(sed -n 's/^0:://p' /proc/self/cgroup)
  dir=$mount_point${group%/}
  [ -f "$dir/cgroup.type" ] || return 0
  case ",$options," in
    *,ro,*)
      if ! mount -o remount,rw "$mount_point" 2> /dev/null; then
        say "$mount_point is read-only and could not be made writable (needs --cap-add SYS_ADMIN and --security-opt apparmor=unconfined): memory is not capped per run"
        return 0
      fi
      ;;
  esac
  grep -qw memory "$dir/cgroup.controllers" || return 0
  grep -qw memory "$dir/cgroup.subtree_control" && return 0
  [ -w "$dir/cgroup.procs" ] || return 0
  mkdir -p "$dir/labgrade-leaf"
  # The list is read whole first (it changes as processes leave), then each process moved on its
  # own (a write moves one); one that has exited meanwhile is no matter.
  pids=$(cat "$dir/cgroup.procs")
  for pid in $pids; do
    echo "$pid" > "$dir/labgrade-leaf/cgroup.procs" 2> /dev/null || true
  done
  enable="+memory"
  grep -qw pids "$dir/cgroup.controllers" && enable="$enable +pids"
  echo "$enable" > "$dir/cgroup.subtree_control" 2> /dev/null ||
    say "could not enable '$enable' in $dir/cgroup.subtree_control: memory is not capped per run"
}

if [ "${LABGRADE_DELEGATE_CGROUP:-1}" != 0 ] && [ -z "${LABGRADE_CGROUP:-}" ]; then
  delegate_cgroup
fi
[ $# -gt 0 ] || set -- labgrade --help
exec "$@"
