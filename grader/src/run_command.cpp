#include "run_command.hpp"

#include <sys/stat.h>
#include <unistd.h>

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
#include "student_run.hpp"

namespace grader {
namespace {

namespace exit_status = contract::exit_status;

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
  std::uint64_t seed = 0;
  try {
    // The student's replay (LAB_SEED=... ctest -R ...) works as with the program alone.
    seed = contract::choose_seed(std::nullopt);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "labgrade run: LAB_SEED: %s\n", error.what());
    return exit_status::bad_setup;
  }
  prepare_results_folder(options.results_dir);
  forget_earlier_records(options.results_dir, *checks);

  auto request = student_run_request(options.command, *checks, seed);
  // One check: the limit given; all of them: each its spec's own.
  request.max_check_seconds = options.check.empty() ? 0 : options.timeout_s;
  const IsolationFile isolation;
  if (!isolation.path().empty()) {
    request.policy.env.emplace_back("LAB_ISOLATION_FILE", isolation.path());
  }
  std::string output;
  request.on_output = [&output](std::string_view piece) {
    show_output(piece);
    output.append(piece);
  };
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
