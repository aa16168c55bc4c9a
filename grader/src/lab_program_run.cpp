#include "lab_program_run.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>

#include "batch/verdict_table.hpp"
#include "contract/exit_status.hpp"
#include "contract/record.hpp"

namespace grader {
namespace {

// Time for the lab program to start (its CUDA context, the launcher) before the check says it
// started, and to end after its record: a hang there is stopped this soon. With the check's own
// limit it stays under ctest's TIMEOUT (the check's timeout_s + 30 s, cmake/AddLab.cmake), so the
// student reads labcheck's reason rather than ctest's bare "Timeout".
constexpr double kStartupSeconds = 20;

std::atomic<bool> g_interrupted{false};
// C linkage ignores the anonymous namespace: the name must differ from labgrade batch's handler.
extern "C" void on_run_interrupted(int) { g_interrupted = true; }

// Nothing to contain on a student's machine: the program is their own build of the kit's lab
// program (the student's code runs in its launcher, apart). No isolation, the student's own
// environment (CUDA_VISIBLE_DEVICES from ctest's GPU resources, LAB_SEED, LABS_EMU_SCHEDULE) and
// no resource limits, so it works without bubblewrap and without root; only time is watched.
sandbox::Policy student_machine_policy() {
  sandbox::Policy policy;
  policy.isolate = false;
  policy.inherit_environment = true;
  policy.resource_limits = false;
  return policy;
}

// A file the lab program appends "isolated: how" or "not isolated: why" to, once per launcher it
// starts (harness/runtime/src/student/launcher_isolation.hpp); removed with this object. Made
// here, root's (or the student's) and 0600, so that an isolated launcher cannot write it.
class IsolationFile {
 public:
  IsolationFile() {
    const char* tmp = std::getenv("TMPDIR");
    std::string name =
        (tmp && *tmp ? std::string(tmp) : std::string("/tmp")) + "/labgrade-isolation-XXXXXX";
    const int fd = ::mkstemp(name.data());
    if (fd >= 0) {
      ::close(fd);
      path_ = name;
    }
  }
  ~IsolationFile() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  IsolationFile(const IsolationFile&) = delete;
  IsolationFile& operator=(const IsolationFile&) = delete;
  const std::string& path() const { return path_; }

  std::vector<std::string> lines() const {
    std::vector<std::string> lines;
    std::ifstream in(path_);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }

 private:
  std::string path_;
};

void show_output(std::string_view piece) {
  std::fwrite(piece.data(), 1, piece.size(), stdout);
  std::fflush(stdout);
}

// The lines of `output` from the start of `check` ("[ RUN      ] Suite.Name") up to the start of
// the next check: what the student reads under that check's test.
std::string output_of(const std::string& output, const std::string& check) {
  const std::string marker = "[ RUN      ] ";
  const auto begin = output.find(marker + check + "\n");
  if (begin == std::string::npos) return "";
  const auto next = output.find("\n" + marker, begin + marker.size());
  return output.substr(begin, next == std::string::npos ? std::string::npos : next + 1 - begin);
}

}  // namespace

std::optional<LabProgramRun> run_lab_program(const contract::LabSpec& spec,
                                             const LabProgramRequest& request) {
  batch::RunRequest run;
  run.command = request.command;
  run.checks = request.checks;
  run.seed = request.seed;
  run.max_check_seconds = request.max_check_seconds;
  run.startup_seconds = kStartupSeconds;
  run.policy = student_machine_policy();
  run.policy.env = request.env;
  const IsolationFile isolation;
  if (!isolation.path().empty())
    run.policy.env.emplace_back("LAB_ISOLATION_FILE", isolation.path());
  run.interrupted = &g_interrupted;
  LabProgramRun result;
  run.on_output = [&result, show = request.show_output](std::string_view piece) {
    if (show) show_output(piece);
    result.output.append(piece);
  };
  std::signal(SIGINT, on_run_interrupted);
  std::signal(SIGTERM, on_run_interrupted);
  std::fflush(stdout);
  result.outcome = batch::run_checks(spec, run);
  if (result.outcome.interrupted || result.outcome.records.empty()) return std::nullopt;
  result.isolation_lines = isolation.lines();
  return result;
}

void prepare_results_folder(const std::filesystem::path& results_dir) {
  const mode_t old = ::umask(022);
  if ((old | 022) != 022) ::umask(old | 022);
  std::error_code ignored;
  std::filesystem::create_directories(results_dir, ignored);
  std::filesystem::permissions(
      results_dir, std::filesystem::perms::group_write | std::filesystem::perms::others_write,
      std::filesystem::perm_options::remove, ignored);
}

void forget_earlier_records(const std::filesystem::path& results_dir,
                            const std::vector<std::string>& checks) {
  for (const auto& id : checks) {
    std::error_code ignored;
    std::filesystem::remove(contract::record_path(results_dir, id), ignored);
    std::filesystem::remove(output_path(results_dir, id), ignored);
  }
}

std::optional<int> keep_records(const std::filesystem::path& results_dir, LabProgramRun& run,
                                const std::string& extra_note) {
  int status = contract::exit_status::pass;
  for (auto& record : run.outcome.records) {
    for (const auto& problem : run.outcome.problems) record.notes.push_back("labgrade: " + problem);
    if (!extra_note.empty()) record.notes.push_back(extra_note);
    try {
      contract::write_record(results_dir, record);
      std::ofstream(output_path(results_dir, record.check)) << output_of(run.output, record.check);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "labgrade run: cannot write the record: %s\n", error.what());
      return std::nullopt;
    }
    std::printf("%s: %s: %s\n", record.check.c_str(),
                std::string(contract::verdict_words(record.verdict)).c_str(),
                record.reason.c_str());
    status = batch::ctest_status(record.verdict);
  }
  return status;
}

std::filesystem::path output_path(const std::filesystem::path& results_dir,
                                  const std::string& check) {
  return results_dir / (check + ".log");
}

}  // namespace grader
