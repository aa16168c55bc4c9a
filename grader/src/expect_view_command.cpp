#include "expect_view_command.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "contract/exit_status.hpp"
#include "contract/spec.hpp"
#include "expectation.hpp"
#include "lab_program_run.hpp"

namespace grader {
namespace {

namespace exit_status = contract::exit_status;

// The seed on the lab program's command line, which the launcher must not see in /proc/1/cmdline.
constexpr std::uint64_t kVisibleSeed = 4242;

// What the launcher, a shell script, says it sees; `marker` is a file in the machine's /tmp and
// `left` one it tries to leave there.
std::string launcher_script(const std::string& marker, const std::string& left) {
  return fmt::format(R"sh(#!/bin/sh
echo "view uid: $(id -u)"
echo "view dev: $(ls /dev | tr '\n' ' ')"
echo "view init: $(tr '\0' ' ' < /proc/1/cmdline)"
echo "view nproc: $(sed -n 's/^Max processes *\([0-9a-z]*\).*/\1/p' /proc/self/limits)"
[ -e "{}" ] && echo "view marker: seen"
touch "{}" && echo "view tmp: writable"
touch /dev/shm/launcher-view && echo "view shm: writable"
exit 3
)sh",
                     marker, left);
}

// The files of one test under the machine's /tmp (not TMPDIR: the launcher's /tmp is what is
// looked at), removed with this object.
class ViewFiles {
 public:
  ViewFiles() {
    std::string folder = "/tmp/launcher-view.XXXXXX";
    std::string marker = "/tmp/launcher-view-marker.XXXXXX";
    if (::mkdtemp(folder.data())) folder_ = folder;
    const int fd = ::mkstemp(marker.data());
    if (fd >= 0) {
      ::close(fd);
      marker_ = marker;
    }
    left_ = fmt::format("/tmp/launcher-view-left-{}", ::getpid());
  }
  ~ViewFiles() {
    std::error_code ignored;
    if (!folder_.empty()) std::filesystem::remove_all(folder_, ignored);
    if (!marker_.empty()) std::filesystem::remove(marker_, ignored);
    std::filesystem::remove(left_, ignored);
  }
  ViewFiles(const ViewFiles&) = delete;
  ViewFiles& operator=(const ViewFiles&) = delete;

  // Writes the launcher, readable and runnable by its uid (the marker readable by anyone); its
  // path, or "" when the files could not be made.
  std::string write_launcher() const {
    if (folder_.empty() || marker_.empty()) return "";
    const std::string launcher = folder_ + "/launcher";
    std::ofstream(launcher) << launcher_script(marker_, left_);
    ::chmod(folder_.c_str(), 0755);
    ::chmod(marker_.c_str(), 0644);
    ::chmod(launcher.c_str(), 0755);
    return launcher;
  }
  bool left_file_exists() const { return std::filesystem::exists(left_); }

 private:
  std::string folder_;
  std::string marker_;
  std::string left_;
};

}  // namespace

int expect_launcher_view_command(const LauncherViewOptions& options) {
  if (::geteuid() != 0) {
    std::printf("skipped: without bubblewrap only root can isolate the launcher\n");
    return exit_status::skipped;
  }
  contract::LabSpec spec;
  try {
    spec = contract::load_spec(options.spec);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "labcheck expect launcher-view: %s\n", error.what());
    return exit_status::bad_setup;
  }
  const ViewFiles files;
  const std::string launcher = files.write_launcher();
  if (launcher.empty()) {
    std::fprintf(stderr, "labcheck expect launcher-view: cannot make its files under /tmp\n");
    return exit_status::bad_setup;
  }
  LabProgramRequest request;
  request.command = options.command;
  request.command.insert(request.command.begin() + 1, {"--seed", std::to_string(kVisibleSeed)});
  request.checks = {options.check};
  request.seed = kVisibleSeed;
  request.env = {{"LABGRADE_BWRAP", "/nonexistent/bwrap"}, {"LAB_LAUNCHER", launcher}};
  fresh_results_folder(options.results_dir);
  auto run = run_lab_program(spec, request);
  if (!run) return kInterrupted;
  keep_records(options.results_dir, *run, "");
  if (nothing_judged(run->outcome.records) && run->output.find("view uid") == std::string::npos) {
    std::printf("skipped: the lab program judged nothing here (no GPU?)\n");
    return exit_status::skipped;
  }
  const auto judgement =
      judge_launcher_view({run->output, run->isolation_lines, files.left_file_exists()});
  for (const auto& line : judgement.lines) std::printf("%s\n", line.c_str());
  return judgement.status;
}

}  // namespace grader
