// The launcher isolated by hand, where bubblewrap is missing (or cannot run) and the lab program
// is root: what bubblewrap would have given it, from the kernel directly. A PID namespace of its
// own whose init ends with it (so every process it leaves, a setsid()ed daemon included, dies
// with it), with a view of the machine of its own (launcher_view.hpp: read-only, its own /proc,
// a /dev without the GPU, private /tmp and /dev/shm), its own network and IPC, and an init whose
// command line is blank; an unprivileged uid of its own (200000 + slot, as labgrade's sandboxes:
// it can write no file of root's, read nothing of a non-dumpable root process, signal nothing of
// the lab program's) with at most 1024 processes; no supplementary groups, no capabilities, no
// new privileges; a session of its own (off the terminal) and / as its folder. Each step that
// fails is reported: without a PID namespace the uid alone still isolates it when the uid is its
// own (what it leaves is killed by uid); without the uid, without no-new-privileges, or with
// nobody's uid and no PID namespace (its leftovers could not be killed), it is not isolated.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace harness::student {

// How the launcher is kept from the lab program.
struct Isolation {
  bool isolated = false;
  // Isolated: how ("bubblewrap", "uid 200003 in a PID namespace of its own"); else why not.
  std::string how;
  // Steps refused that leave it isolated all the same ("no PID namespace of its own (...)").
  std::vector<std::string> notes;
};

// "" when this process may isolate the launcher by hand (it holds CAP_SETUID and CAP_SETGID, as
// root does), else why not.
std::string why_not_isolated_by_hand();

// The lab program's side, before it starts the launcher: its own files (records, the results
// folder) not writable by others, and itself not dumpable, so that another uid can neither
// write them nor read its memory, environment or descriptors.
void guard_lab_program_from_other_uids();

// In the forked child, its descriptors in place, `status` a close-on-exec pipe to the lab
// program: takes the steps and returns in the process that is to exec `launcher` (an absolute
// path): the child itself (uid only), or pid 2 of a new PID namespace, the child staying outside
// as the monitor the lab program waits for. Each step's outcome is a line on `status`
// (read_isolation_steps reads them); the exec closes the pipe.
void isolate_by_hand(const std::string& launcher, unsigned uid, int status);

// The lab program's side: the child's lines until the launcher's exec (end of file). `uid` is the
// one the child was given; `namespace_init` is set to the global pid of the PID namespace's init
// (or -1).
Isolation read_isolation_steps(int status, unsigned uid, pid_t& namespace_init);

// Kills every process of `uid`, a uid nothing else runs as: what the launcher left running when
// no PID namespace ends with it. Forks nothing (a fork bomb of the uid may have used up what the
// machine allows): it goes through /proc.
void kill_processes_of(unsigned uid);

// Tells how the launcher was isolated: a note on stderr when it is less than isolated, and a line
// ("isolated: how" or "not isolated: why") appended to the file LAB_ISOLATION_FILE names, when
// set (labcheck run and expect set it: they say what an unisolated run's verdicts are worth; the
// batch grader, whose own sandbox holds the lab program, does not).
void report_isolation(const Isolation& isolation);

}  // namespace harness::student
