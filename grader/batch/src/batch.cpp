// labgrade batch's orchestration: the checks before anything runs, the batch's shared state, the
// reference step, the worker pool that takes each submission through the submission step, and the
// student files at the end.
#include "batch/batch.hpp"

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <optional>
#include <thread>
#include <utility>

#include "batch/command_exit.hpp"
#include "batch/files.hpp"
#include "batch/progress.hpp"
#include "batch/run_step.hpp"
#include "batch/sanitizer_plan.hpp"
#include "batch/secret_seed.hpp"
#include "batch/submission_digest.hpp"
#include "batch_state.hpp"
#include "lms_step.hpp"
#include "reference_step.hpp"
#include "sandbox/sandbox.hpp"
#include "student_files.hpp"
#include "submission_step.hpp"

namespace batch {
namespace {

namespace fs = std::filesystem;

std::atomic<bool> g_interrupted{false};

extern "C" void on_interrupt(int) { g_interrupted = true; }

void catch_interrupts() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

// Correctness runs at once per GPU. The emulation's runs are CPU work that uses every core each:
// eight of them on two cores starve one another past their limits.
int shared_runs_per_gpu(const BatchOptions& options, const Kit& kit) {
  if (options.shared_runs_per_gpu > 0) return options.shared_runs_per_gpu;
  if (kit.backend != "emulation") return 8;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / 2);
}

int build_jobs(const BatchOptions& options) {
  return options.jobs > 0 ? options.jobs
                          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

// The emulated pass's slots: CPU work at nice 19 that uses idle cores, two emulator threads each.
void prepare_emulated_pass(BatchState& batch) {
  if (!batch.emulated) return;
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  batch.emulated->emulator_threads = std::min(2, cores);
  batch.emulated_slots =
      std::make_unique<std::counting_semaphore<1024>>(std::min(1024, std::max(1, cores / 2)));
  std::fprintf(stderr, "emulated memory and race pass: %s, %d at once at nice 19\n",
               batch.emulated->kit.dir.c_str(), std::max(1, cores / 2));
}

// Why the batch cannot start with these options (the folders, the sandbox), or nullopt.
std::optional<int> refuse_to_start(const BatchOptions& options, const Kit& kit) {
  if (!fs::is_directory(options.submissions)) {
    std::fprintf(stderr, "labgrade batch: %s is not a folder of submissions\n",
                 options.submissions.c_str());
    return command_exit::cannot_start;
  }
  if (is_inside(options.out, options.submissions)) {
    std::fprintf(stderr,
                 "labgrade batch: the output folder %s is inside the submissions folder: choose "
                 "another, or it would be graded as a student\n",
                 options.out.c_str());
    return command_exit::cannot_start;
  }
  const auto capabilities = sandbox::probe();
  if (!options.unsandboxed && !capabilities.bubblewrap) {
    if (const auto& known = capabilities.bubblewrap_diagnosis) {
      std::fprintf(stderr,
                   "labgrade batch: the sandbox cannot start: %s\nfix: %s\n(only if every "
                   "submission is trusted: --unsandboxed)\n",
                   known->cause.c_str(), known->fix.c_str());
      return command_exit::cannot_start;
    }
    std::fprintf(stderr,
                 "labgrade batch: bubblewrap is not available (%s), and student code must not "
                 "run outside a sandbox.\nInstall it (sudo apt-get install bubblewrap), or, only "
                 "if every submission is trusted, pass --unsandboxed.\n",
                 capabilities.why_not.c_str());
    return command_exit::cannot_start;
  }
  std::fprintf(stderr, "%s: sandbox %s; memory %s; processes %s\n", kit.lab.c_str(),
               options.unsandboxed ? "OFF (--unsandboxed)" : "bubblewrap",
               capabilities.memory_cap.c_str(), capabilities.process_cap.c_str());
  if (const auto& known = capabilities.memory_diagnosis) {
    std::fprintf(stderr, "memory not capped: %s\nfix: %s\n", known->cause.c_str(),
                 known->fix.c_str());
  }
  return std::nullopt;
}

// The state every step shares, once the kit is loaded.
void prepare(BatchState& batch) {
  const BatchOptions& options = batch.options;
  prepare_emulated_pass(batch);
  auto plan = sanitizer_plan_of(batch.kit, batch.emulated.has_value());
  batch.sanitizer = std::move(plan.in_runs);
  batch.sanitizer_fallback = std::move(plan.fallback);
  batch.state = options.state_dir.empty() ? options.out / ".labgrade" : options.state_dir;
  fs::create_directories(batch.state);
  batch.timeline = std::make_unique<Timeline>(batch.state / "timeline.csv");
  batch.base_policy.isolate = !options.unsandboxed;
  batch.base_policy.memory_bytes = options.memory_bytes;
  batch.base_policy.max_processes = options.max_processes;
  batch.base_policy.own_uid = !options.root_in_sandbox;
  batch.seed = options.seed ? *options.seed : fresh_secret_seed();
  // Results graded without the emulated pass, or with another emulation kit, are not reused.
  std::string fingerprint = grader_fingerprint(batch.kit, options.labgrade_executable);
  if (batch.emulated) fingerprint += "+" + grader_fingerprint(batch.emulated->kit, {});
  batch.cache = std::make_unique<ResultCache>(batch.state / "cache", fingerprint);
  batch.builds =
      std::make_unique<std::counting_semaphore<1024>>(std::min(build_jobs(options), 1024));
  batch.gpus = std::make_unique<GpuPool>(options.gpus, shared_runs_per_gpu(options, batch.kit));
}

// A shard grades only its part of the class (batch/shard.hpp).
void select_submissions(const BatchOptions& options, std::vector<intake::Submission>& all) {
  std::vector<intake::Submission> kept;
  for (auto& submission : all) {
    const Selection selection = options.select(submission.slug, submission_digest(submission));
    if (!selection.grade) continue;
    if (!selection.note.empty()) submission.notes.push_back(selection.note);
    kept.push_back(std::move(submission));
  }
  all = std::move(kept);
}

void say_what_grades(const BatchState& batch, std::size_t submissions) {
  const int jobs = build_jobs(batch.options);
  if (batch.kit.backend == "emulation") {
    std::fprintf(stderr,
                 "grading %zu submissions with %d build jobs on the CPU (emulation, %d runs at "
                 "once; speed is not measured)\n",
                 submissions, jobs, shared_runs_per_gpu(batch.options, batch.kit));
  } else {
    std::fprintf(stderr, "grading %zu submissions with %d build jobs on %zu GPU(s)\n", submissions,
                 jobs, batch.gpus->size());
  }
}

// One submission through the submission step; a grader failure is its outcome, not the batch's.
// An attempt the host's task limit ended is started again from the beginning (its records are
// dropped, so it is no second chance at any check), after a pause, at most kHostRefusalAttempts
// times.
GradedOutcome grade_one(BatchState& batch, const intake::Submission& submission, bool& cached) {
  GradedOutcome outcome;
  for (int attempt = 1; attempt <= kHostRefusalAttempts; ++attempt) {
    try {
      if (submission.accepted()) {
        cached = batch.cache->find(submission.slug, cache_text(sources_of(submission))).has_value();
      }
      return grade_submission(batch, submission);
    } catch (const std::exception& error) {
      outcome = GradedOutcome{};
      outcome.status = Status::grader_error;
      outcome.message = error.what();
      if (!refused_by_host_task_limit(error) || g_interrupted || attempt == kHostRefusalAttempts) {
        break;
      }
      std::fprintf(stderr, "labgrade batch: %s: %s (the host's limit on tasks): graded again\n",
                   submission.slug.c_str(), error.what());
      pause_before_attempt(attempt + 1);
    }
  }
  return outcome;
}

// The worker pool: every submission graded (nullopt: not reached before an interrupt).
std::vector<std::optional<GradedOutcome>> grade_all(
    BatchState& batch, const std::vector<intake::Submission>& submissions) {
  std::vector<std::optional<GradedOutcome>> outcomes(submissions.size());
  std::atomic<std::size_t> next{0};
  Progress progress(static_cast<int>(submissions.size()));
  const auto worker = [&] {
    while (!g_interrupted) {
      const std::size_t i = next++;
      if (i >= submissions.size()) return;
      progress.started();
      bool cached = false;
      GradedOutcome outcome = grade_one(batch, submissions[i], cached);
      const bool failed = outcome.status != Status::graded;
      outcomes[i] = std::move(outcome);
      progress.finished(failed, cached);
    }
  };
  // A worker takes one submission through build, correctness run and speed run, and most of its
  // time it waits (for a build slot, for the GPU). One per submission (up to a cap) lets every
  // correctness run be ready when the GPU is shared, before the speed runs take it alone
  // (gpu_gate.hpp): with fewer, the workers would all wait for speed runs while submissions
  // not yet built wait for a worker.
  constexpr std::size_t kMostWorkers = 512;
  const std::size_t enough =
      static_cast<std::size_t>(build_jobs(batch.options)) +
      batch.gpus->size() * static_cast<std::size_t>(shared_runs_per_gpu(batch.options, batch.kit));
  const int workers =
      static_cast<int>(std::min(std::max(submissions.size(), enough), kMostWorkers));
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w) threads.emplace_back(worker);
  for (auto& thread : threads) thread.join();
  progress.stop();
  return outcomes;
}

// Each student's files and the class's; returns how many submissions were not graded.
int write_outcomes(const BatchState& batch, const std::vector<intake::Submission>& submissions,
                   std::vector<std::optional<GradedOutcome>> outcomes) {
  std::vector<exports::StudentOutcome> students;
  int not_graded = 0;
  for (std::size_t i = 0; i < submissions.size(); ++i) {
    GradedOutcome outcome;
    if (outcomes[i]) {
      outcome = std::move(*outcomes[i]);
    } else {
      outcome.status = Status::interrupted;
      outcome.message = "not graded yet: the batch was interrupted; run it again to resume";
    }
    if (outcome.status != Status::graded) ++not_graded;
    try {
      students.push_back(write_student(batch, submissions[i], std::move(outcome)));
    } catch (const std::exception& error) {
      std::fprintf(stderr, "labgrade batch: %s: %s\n", submissions[i].student.c_str(),
                   error.what());
    }
  }
  write_class(batch, students);
  return not_graded;
}

// The class's submissions, those of this shard only when it is one; nullopt when intake fails.
std::optional<std::vector<intake::Submission>> collect_submissions(const BatchState& batch) {
  std::vector<intake::Submission> submissions;
  try {
    submissions = intake::collect(batch.options.submissions,
                                  {batch.kit.lab, batch.kit.folder, batch.kit.optional_sources},
                                  batch.state / "unpacked");
  } catch (const std::exception& error) {
    std::fprintf(stderr, "labgrade batch: %s\n", error.what());
    return std::nullopt;
  }
  // Matched first: a shard selects from the class its plan matched (its run says nothing more
  // of the matching: the plan did).
  if (batch.lms) {
    match_roster(*batch.lms, submissions, batch.kit.optional_sources, batch.kit.spec,
                 batch.options.out, batch.options.outcomes_dir.empty());
  }
  if (batch.options.select) select_submissions(batch.options, submissions);
  return submissions;
}

}  // namespace

int run_batch(const BatchOptions& options) {
  BatchState batch(options, g_interrupted);
  try {
    batch.kit = load_kit(options.kit_dir);
    batch.emulated = emulated_pass_of(options.emulated_pass, batch.kit);
    batch.lms = load_lms(options, batch.kit.spec);
  } catch (const KitError& error) {
    std::fprintf(stderr, "labgrade batch: %s\n", error.what());
    return command_exit::cannot_start;
  } catch (const lms::RosterError& error) {
    std::fprintf(stderr, "labgrade batch: %s\n", error.what());
    return command_exit::cannot_start;
  }
  if (const auto refused = refuse_to_start(options, batch.kit)) return *refused;
  prepare(batch);
  const auto submissions = collect_submissions(batch);
  if (!submissions) return command_exit::cannot_start;
  if (submissions->empty()) {
    std::fprintf(stderr,
                 "labgrade batch: no submissions in %s (expected one folder, archive or "
                 ".cu file per student)\n",
                 options.submissions.c_str());
    write_class(batch, {});
    return command_exit::some_not_graded;
  }
  catch_interrupts();
  if (!run_reference(batch)) {
    std::fprintf(stderr, "labgrade batch: stopped: the kit or the GPU is not fit to grade with\n");
    return command_exit::cannot_start;
  }
  say_what_grades(batch, submissions->size());
  const int not_graded = write_outcomes(batch, *submissions, grade_all(batch, *submissions));
  if (options.outcomes_dir.empty()) {
    std::fprintf(stderr, "gradebook: %s\n", (options.out / "gradebook.html").c_str());
  }
  if (g_interrupted) {
    std::fprintf(stderr,
                 "interrupted: finished submissions are kept; run the same command again to "
                 "grade the rest\n");
    return command_exit::interrupted;
  }
  return not_graded > 0 ? command_exit::some_not_graded : command_exit::ok;
}

}  // namespace batch
