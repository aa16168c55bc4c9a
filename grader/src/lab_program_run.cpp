#include "lab_program_run.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>

#include "batch/verdict_table.hpp"
#include "contract/exit_status.hpp"
#include "contract/record.hpp"
#include "student_run.hpp"

namespace grader {
namespace {

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
  // The student's machine's request (student_run.hpp), as `labcheck run` and `sanitize` make it.
  auto run = student_run_request(request.command, request.checks, request.seed);
  run.max_check_seconds = request.max_check_seconds;
  run.policy.env.insert(run.policy.env.end(), request.env.begin(), request.env.end());
  const IsolationFile isolation;
  if (!isolation.path().empty())
    run.policy.env.emplace_back("LAB_ISOLATION_FILE", isolation.path());
  LabProgramRun result;
  run.on_output = [&result, show = request.show_output](std::string_view piece) {
    if (show) show_output(piece);
    result.output.append(piece);
  };
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

void fresh_results_folder(const std::filesystem::path& results_dir) {
  std::error_code ignored;
  std::filesystem::remove_all(results_dir, ignored);
  prepare_results_folder(results_dir);
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
