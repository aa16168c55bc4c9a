#include "run_cgroup.hpp"
#include <sys/stat.h>

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>
#include <thread>

namespace sandbox {
namespace fs = std::filesystem;
namespace {

// "" on success, else why.
std::string write_file(const fs::path& path, const std::string& value) {
  std::ofstream out(path);
  out << value;
  out.flush();
  if (out) return "";
  return "cannot write " + value + " to " + path.string() + ": " + std::strerror(errno);
}

// The number after `key` in a "key value" per line file (memory.events, memory.oom_control).
long long read_counter(const fs::path& path, std::string_view key) {
  std::ifstream in(path);
  std::string name;
  long long value = 0;
  while (in >> name >> value) {
    if (name == key) return value;
  }
  return 0;
}

std::string unique_name() {
  static std::atomic<unsigned> counter{0};
  return "labgrade-sandbox-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

}  // namespace

RunCgroup::RunCgroup(CgroupKind kind, fs::path dir)
    : kind_(kind), dir_(std::move(dir)), procs_file_((dir_ / "cgroup.procs").string()) {}

std::unique_ptr<RunCgroup> RunCgroup::create(const CgroupParent& parent, std::uint64_t memory_bytes,
                                             int max_processes, std::string& error) {
  if (parent.kind == CgroupKind::none) {
    error = parent.why_not;
    return nullptr;
  }
  const fs::path dir = parent.dir / unique_name();
  if (::mkdir(dir.c_str(), 0755) != 0) {
    error = "cannot make the cgroup " + dir.string() + ": " + std::strerror(errno);
    return nullptr;
  }
  std::unique_ptr<RunCgroup> group(new RunCgroup(parent.kind, dir));
  const std::string memory = std::to_string(memory_bytes);
  std::error_code ec;
  if (parent.kind == CgroupKind::v2) {
    error = write_file(dir / "memory.max", memory);
    if (error.empty() && fs::exists(dir / "memory.swap.max", ec)) {
      error = write_file(dir / "memory.swap.max", "0");
    }
    // One OOM kill ends the whole run, not just its largest process.
    if (error.empty()) write_file(dir / "memory.oom.group", "1");
    if (error.empty() && parent.pids) {
      error = write_file(dir / "pids.max", std::to_string(max_processes));
      group->caps_processes_ = error.empty();
    }
  } else {
    error = write_file(dir / "memory.limit_in_bytes", memory);
    // memory+swap equal to memory: no swap. Absent when the kernel does not account swap.
    if (error.empty() && fs::exists(dir / "memory.memsw.limit_in_bytes", ec)) {
      error = write_file(dir / "memory.memsw.limit_in_bytes", memory);
    }
  }
  if (!error.empty()) return nullptr;  // the destructor removes the group
  return group;
}

bool RunCgroup::oom_killed() const {
  if (kind_ == CgroupKind::v2) return read_counter(dir_ / "memory.events", "oom_kill") > 0;
  return read_counter(dir_ / "memory.oom_control", "oom_kill") > 0;
}

void RunCgroup::kill_all() const {
  std::error_code ec;
  if (kind_ == CgroupKind::v2 && fs::exists(dir_ / "cgroup.kill", ec)) {
    if (write_file(dir_ / "cgroup.kill", "1").empty()) return;
  }
  std::ifstream in(procs_file_);
  pid_t pid = 0;
  while (in >> pid) ::kill(pid, SIGKILL);
}

RunCgroup::~RunCgroup() {
  // Killed processes leave the group once they are reaped; a process stuck in the GPU driver can
  // take a while. Give up after 5 s and leave the group behind rather than hang.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (::rmdir(dir_.c_str()) != 0 && errno == EBUSY) {
    if (std::chrono::steady_clock::now() > deadline) return;
    kill_all();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace sandbox
