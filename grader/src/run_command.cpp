#include "run_command.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "batch/run_step.hpp"
#include "batch/verdict_table.hpp"
#include "contract/exit_status.hpp"
#include "contract/record.hpp"
#include "contract/seed.hpp"
#include "contract/spec.hpp"

namespace grader {
namespace {

namespace exit_status = contract::exit_status;

// Time for the lab program to start (its CUDA context, the launcher) before the check says it
// started, and to end after its record: a hang there is stopped this soon. With the check's own
// limit it stays under ctest's TIMEOUT (the check's timeout_s + 30 s, cmake/AddLab.cmake), so the
// student reads labgrade's reason rather than ctest's bare "Timeout".
constexpr double kStartupSeconds = 20;
// labgrade's own status when Ctrl-C (or ctest) stopped it: 128 + SIGINT, as a shell reports it.
constexpr int kInterrupted = 130;

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

  // The note for every record when a launcher of the run was not isolated, else "".
  std::string not_isolated_note() const {
    std::ifstream in(path_);
    const std::string prefix = "not isolated: ";
    for (std::string line; std::getline(in, line);) {
      if (line.rfind(prefix, 0) == 0) {
        return fmt::format("{}: its verdicts are a self-check ({})", kNotIsolatedNote,
                           line.substr(prefix.size()));
      }
    }
    return "";
  }

 private:
  std::string path_;
};

// The results folder made before the lab program starts, and left writable by its owner alone:
// the student's launcher, isolated under another uid, must not be able to write records there.
void prepare_results_folder(const std::filesystem::path& results_dir) {
  const mode_t old = ::umask(022);
  if ((old | 022) != 022) ::umask(old | 022);
  std::error_code ignored;
  std::filesystem::create_directories(results_dir, ignored);
  std::filesystem::permissions(
      results_dir, std::filesystem::perms::group_write | std::filesystem::perms::others_write,
      std::filesystem::perm_options::remove, ignored);
}

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

// The checks to run: the one asked for, or every check of the spec; nullopt (and why, on stderr)
// when the spec has no such check.
std::optional<std::vector<std::string>> checks_to_run(const RunOptions& options,
                                                      const contract::LabSpec& spec) {
  std::vector<std::string> checks;
  if (options.check.empty()) {
    for (const auto& check : spec.checks) checks.push_back(check.id);
  } else if (spec.find(options.check)) {
    checks.push_back(options.check);
  } else {
    std::fprintf(stderr, "labgrade run: %s has no check '%s'\n", options.spec.c_str(),
                 options.check.c_str());
    return std::nullopt;
  }
  return checks;
}

// A record left from an earlier run must never stand for this one, whatever happens next.
void forget_earlier_records(const std::filesystem::path& results_dir,
                            const std::vector<std::string>& checks) {
  for (const auto& id : checks) {
    std::error_code ignored;
    std::filesystem::remove(contract::record_path(results_dir, id), ignored);
    std::filesystem::remove(output_path(results_dir, id), ignored);
  }
}

// Writes each record (with the run's problems and isolation note) and its part of the output to
// the results folder and prints its verdict; the last one's ctest status, or nothing when a
// record could not be written.
std::optional<int> keep_records(const std::filesystem::path& results_dir,
                                batch::RunOutcome& outcome, const std::string& output,
                                const std::string& not_isolated) {
  int status = exit_status::pass;
  for (auto& record : outcome.records) {
    for (const auto& problem : outcome.problems) record.notes.push_back("labgrade: " + problem);
    if (!not_isolated.empty()) record.notes.push_back(not_isolated);
    try {
      contract::write_record(results_dir, record);
      std::ofstream(output_path(results_dir, record.check)) << output_of(output, record.check);
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

}  // namespace

int run_check_command(const RunOptions& options) {
  contract::LabSpec spec;
  try {
    spec = contract::load_spec(options.spec);
  } catch (const contract::SpecError& error) {
    std::fprintf(stderr, "labgrade run: %s\n", error.what());
    return exit_status::bad_setup;
  }
  const auto checks = checks_to_run(options, spec);
  if (!checks) return exit_status::bad_setup;
  if (options.command.empty()) {
    std::fprintf(stderr, "labgrade run: no program to run (give it after --)\n");
    return exit_status::bad_setup;
  }
  batch::RunRequest request;
  try {
    // The student's replay (LAB_SEED=... ctest -R ...) works as with the program alone.
    request.seed = contract::choose_seed(std::nullopt);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "labgrade run: LAB_SEED: %s\n", error.what());
    return exit_status::bad_setup;
  }
  prepare_results_folder(options.results_dir);
  forget_earlier_records(options.results_dir, *checks);

  request.command = options.command;
  request.checks = *checks;
  // One check: the limit given; all of them: each its spec's own.
  request.max_check_seconds = options.check.empty() ? 0 : options.timeout_s;
  request.startup_seconds = kStartupSeconds;
  request.policy = student_machine_policy();
  const IsolationFile isolation;
  if (!isolation.path().empty()) {
    request.policy.env.emplace_back("LAB_ISOLATION_FILE", isolation.path());
  }
  request.interrupted = &g_interrupted;
  std::string output;
  request.on_output = [&output](std::string_view piece) {
    show_output(piece);
    output.append(piece);
  };
  std::signal(SIGINT, on_run_interrupted);
  std::signal(SIGTERM, on_run_interrupted);
  std::fflush(stdout);
  auto outcome = batch::run_checks(spec, request);
  if (outcome.interrupted || outcome.records.empty()) {
    std::fprintf(stderr, "labgrade run: interrupted\n");
    return kInterrupted;
  }
  const std::string not_isolated = isolation.not_isolated_note();
  if (!not_isolated.empty()) std::printf("labgrade run: %s\n", not_isolated.c_str());
  const auto status = keep_records(options.results_dir, outcome, output, not_isolated);
  if (!status) return exit_status::fail;
  for (const auto& problem : outcome.problems) {
    std::fprintf(stderr, "labgrade run: %s\n", problem.c_str());
  }
  // One check: its verdict, for ctest. All of them: the run itself went through; each check's
  // own test (labgrade verdict) says how it went.
  return options.check.empty() ? exit_status::pass : *status;
}

std::filesystem::path output_path(const std::filesystem::path& results_dir,
                                  const std::string& check) {
  return results_dir / (check + ".log");
}

int verdict_command(const VerdictOptions& options) {
  contract::CheckRecord record;
  try {
    record = contract::read_record(contract::record_path(options.results_dir, options.check));
  } catch (const std::exception&) {
    std::printf(
        "%s: no result: the lab program's run did not reach this check (see the test "
        "labN.run)\n",
        options.check.c_str());
    return exit_status::fail;
  }
  std::ifstream log(output_path(options.results_dir, options.check));
  std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::printf("%s: %s: %s\n", record.check.c_str(),
              std::string(contract::verdict_words(record.verdict)).c_str(), record.reason.c_str());
  return batch::ctest_status(record.verdict);
}

}  // namespace grader
