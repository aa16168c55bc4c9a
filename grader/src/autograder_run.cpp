#include "autograder_run.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "autograder_class.hpp"
#include "batch/batch.hpp"
#include "batch/command_exit.hpp"
#include "batch/files.hpp"
#include "batch/kit.hpp"
#include "batch/outcome_file.hpp"
#include "exports/gradescope.hpp"
#include "exports/prairielearn.hpp"
#include "sandbox/sandbox.hpp"

namespace grader {
namespace {

namespace fs = std::filesystem;

// Student text is cleaned by the exports; a byte that slipped through must not stop the write.
constexpr auto kReplace = nlohmann::json::error_handler_t::replace;

// How the submission was isolated, for the log and the results' extra data.
struct Isolation {
  bool bubblewrap = false;
  std::string words;
};

// Prints to stdout: the platforms keep it for the instructor (Gradescope's "Autograder Output"),
// never for the student.
template <class... Args>
void say(fmt::format_string<Args...> format, Args&&... args) {
  std::fputs((fmt::format(format, std::forward<Args>(args)...) + "\n").c_str(), stdout);
  std::fflush(stdout);
}

nlohmann::json platform_results(const AutograderOptions& options, const contract::LabSpec& spec,
                                const exports::StudentOutcome& outcome,
                                const Isolation& isolation) {
  const nlohmann::json grader{{"sandbox", isolation.words}};
  if (options.platform == "gradescope") {
    auto results = exports::gradescope_results(spec, outcome);
    results["extra_data"]["grader"] = grader;
    return results;
  }
  auto results = exports::prairielearn_results(spec, outcome);
  results["grader"] = grader;  // PrairieLearn keeps fields it does not know
  return results;
}

// Results that say the grader could not grade this submission (the student sees that much; the
// log says why). Without the kit's spec, a spec of no checks words them.
int grader_failure(const AutograderOptions& options, const contract::LabSpec* spec,
                   const std::string& why, const Isolation& isolation) {
  say("labgrade autograder: cannot grade this submission: {}", why);
  contract::LabSpec unknown;
  unknown.lab = unknown.title = options.lab;
  exports::StudentOutcome outcome;
  outcome.student = kAutograderStudent;
  outcome.status = std::string(exports::kGraderErrorStatus);
  outcome.message = "the autograder could not grade this submission; tell your instructor";
  batch::write_whole_file(options.results,
                          platform_results(options, spec ? *spec : unknown, outcome, isolation)
                              .dump(2, ' ', false, kReplace));
  return batch::command_exit::cannot_start;
}

// Bubblewrap where it runs; otherwise what --sandbox allows, in words.
std::optional<Isolation> choose_isolation(const AutograderOptions& options, std::string& why_not) {
  const auto capabilities = sandbox::probe();
  if (capabilities.bubblewrap) return Isolation{true, "bubblewrap"};
  why_not = capabilities.why_not;
  if (options.sandbox == "required") return std::nullopt;
  // As root the sources compile as nobody and the lab program gives the student's code a uid of
  // its own; as anyone else nothing separates the student's code from the grader's files.
  const std::string rest = ::geteuid() == 0
                               ? "sources compiled as nobody, the student's code run under an "
                                 "unprivileged uid of its own"
                               : "NOT ROOT: the student's code runs as the grader's own user";
  say("labgrade autograder: bubblewrap cannot run here ({}). Grading WITHOUT it, as --sandbox "
      "auto allows: {}; the container is the rest of the isolation. --sandbox required refuses "
      "instead.",
      why_not, rest);
  return Isolation{false, "without bubblewrap (" + why_not + "): " + rest};
}

batch::BatchOptions batch_options(const AutograderOptions& options, const Isolation& isolation,
                                  const fs::path& kit_dir) {
  batch::BatchOptions batch;
  batch.lab = options.lab;
  batch.submissions = options.work / "class";
  batch.out = options.work / "out";
  batch.outcomes_dir = options.work / "outcomes";
  batch.kit_dir = kit_dir;
  batch.labgrade_executable = options.labgrade_executable;
  batch.max_check_seconds = options.max_check_seconds;
  batch.unsandboxed = !isolation.bubblewrap;
  // The emulated pass compiles kernel.cu with its own kit's compiler, which compile-as-nobody
  // does not wrap: without bubblewrap it is off, and a GPU kit's compute-sanitizer looks alone.
  if (!isolation.bubblewrap) batch.emulated_pass = "off";
  return batch;
}

}  // namespace

int run_autograder(const AutograderOptions& options) {
  // The student's launcher runs under another uid and must reach its own build in `work`.
  ::umask(022);
  Isolation isolation{false, "not started"};
  batch::Kit kit;
  try {
    kit = batch::load_kit(options.kit_dir);
  } catch (const std::exception& error) {
    return grader_failure(options, nullptr, error.what(), isolation);
  }
  std::string why_not;
  const auto chosen = choose_isolation(options, why_not);
  if (!chosen) {
    return grader_failure(options, &kit.spec,
                          "bubblewrap cannot run here (" + why_not + ") and --sandbox required",
                          isolation);
  }
  isolation = *chosen;
  fs::path kit_dir = options.kit_dir;
  try {
    // A container may be reused: nothing of an earlier submission (the batch's cache) is kept.
    for (const char* part : {"out", "outcomes"}) fs::remove_all(options.work / part);
    fs::create_directories(options.work);
    fs::permissions(options.work,
                    fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
    make_class_of_one(options.submission, options.work / "class");
    if (!isolation.bubblewrap && ::geteuid() == 0) {
      kit_dir = unprivileged_compile_kit(kit, options.work / "kit");
    }
  } catch (const std::exception& error) {
    return grader_failure(options, &kit.spec, error.what(), isolation);
  }
  if (!isolation.bubblewrap && !kit.emulation_kit.empty()) {
    say("labgrade autograder: no emulated pass without bubblewrap (its compile would not run as "
        "nobody): compute-sanitizer looks for memory errors and races alone");
  }
  const int status = batch::run_batch(batch_options(options, isolation, kit_dir));
  const auto outcome =
      batch::read_outcome_file(options.work / "outcomes", kAutograderStudent, kit.spec);
  if (!outcome) {
    return grader_failure(
        options, &kit.spec,
        fmt::format("labgrade batch ended with status {} and graded nothing", status), isolation);
  }
  batch::write_whole_file(
      options.results,
      platform_results(options, kit.spec, *outcome, isolation).dump(2, ' ', false, kReplace));
  say("labgrade autograder: {}: {}; results in {}", kit.lab, outcome->status,
      options.results.string());
  return batch::command_exit::ok;
}

}  // namespace grader
