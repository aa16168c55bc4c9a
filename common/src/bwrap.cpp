#include "common/bwrap.hpp"

#include <csignal>
#include <cstdlib>

#include <fmt/format.h>

#include "common/spawn.hpp"

namespace common {

BwrapFound find_bwrap_in(const char* chosen, std::string_view path,
                         const std::vector<std::string>& fixed_paths) {
  if (chosen != nullptr && *chosen != '\0') {
    if (is_executable_file(chosen)) return {chosen, "", true};
    return {"", fmt::format("LABGRADE_BWRAP names no program ({})", chosen), true};
  }
  if (std::string found = find_in_path("bwrap", path); !found.empty()) return {found, "", false};
  for (const auto& fixed : fixed_paths) {
    if (is_executable_file(fixed)) return {fixed, "", false};
  }
  return {"", "no bubblewrap on this machine", false};
}

BwrapFound find_bwrap() {
  const char* path = std::getenv("PATH");
  return find_bwrap_in(std::getenv("LABGRADE_BWRAP"), path ? path : "",
                       {std::begin(kBwrapFixedPaths), std::end(kBwrapFixedPaths)});
}

std::vector<std::string> bwrap_start(const BwrapStart& start) {
  std::vector<std::string> command{start.bwrap};
  const auto add = [&command](std::initializer_list<std::string> more) {
    command.insert(command.end(), more.begin(), more.end());
  };
  switch (start.namespaces) {
    case BwrapNamespaces::all:
      add({"--unshare-all"});
      break;
    case BwrapNamespaces::all_and_user:
      add({"--unshare-all", "--unshare-user"});
      if (start.uid) {
        const std::string id = std::to_string(*start.uid);
        add({"--uid", id, "--gid", id});
      }
      break;
    case BwrapNamespaces::all_but_user:
      // --unshare-all would make a user namespace in which uid 0 maps to root outside, and
      // setpriv could not switch to another uid in it; root needs none to set up the mounts.
      add({"--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
           "--unshare-cgroup-try"});
      break;
  }
  add({"--die-with-parent", "--new-session"});
  if (start.status_fd >= 0) add({"--json-status-fd", std::to_string(start.status_fd)});
  return command;
}

void add_own_proc_and_dev(std::vector<std::string>& command) {
  command.insert(command.end(), {"--proc", "/proc", "--dev", "/dev"});
}

void finish_bwrap_command(std::vector<std::string>& command, const std::vector<std::string>& argv) {
  command.emplace_back("--");
  command.insert(command.end(), argv.begin(), argv.end());
}

bool bwrap_started(std::string_view status_json) {
  return status_json.find("\"child-pid\"") != std::string_view::npos;
}

bool bwrap_ran_program(std::string_view status_json) {
  return status_json.find("\"exit-code\"") != std::string_view::npos;
}

ExitMeaning decode_bwrap_exit(int code) {
  if (code > 128 && code < 128 + NSIG) return {-1, code - 128};
  return {code, 0};
}

}  // namespace common
