#include "batch/batch.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <semaphore>
#include <thread>
#include <utility>

#include <fmt/format.h>

#include "batch/build_step.hpp"
#include "batch/cache.hpp"
#include "batch/class_files.hpp"
#include "batch/command_exit.hpp"
#include "batch/gpu_gate.hpp"
#include "batch/kit.hpp"
#include "batch/not_run.hpp"
#include "batch/outcome_file.hpp"
#include "batch/progress.hpp"
#include "batch/run_step.hpp"
#include "batch/sanitize_step.hpp"
#include "batch/submission_digest.hpp"
#include "batch/timeline.hpp"
#include "batch/verify.hpp"
#include "contract/grade.hpp"
#include "exports/exports.hpp"
#include "intake/intake.hpp"
#include "reports/render.hpp"
#include "sandbox/sandbox.hpp"

namespace batch {
namespace {

namespace fs = std::filesystem;
using contract::CheckRecord;
using contract::Verdict;

std::atomic<bool> g_interrupted{false};

extern "C" void on_interrupt(int) { g_interrupted = true; }

void write_text(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  auto temporary = file;
  temporary += ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) throw std::runtime_error(fmt::format("cannot write {}", temporary.string()));
  }
  fs::rename(temporary, file);
}

std::uint64_t secret_seed() {
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 16 ^ device()) % 1000000000ULL;
}

// Everything the workers share.
struct Batch {
  const BatchOptions& options;
  Kit kit;
  fs::path state;  // out/.labgrade
  sandbox::Policy base_policy;
  std::uint64_t seed = 0;
  Attestation attestation;
  std::unique_ptr<ResultCache> cache;
  std::unique_ptr<GpuPool> gpus;
  std::unique_ptr<std::counting_semaphore<1024>> builds;
  std::map<std::string, double> check_limits;  // from the reference solution's durations
  bool gpu_expected = false;  // the reference's checks were not skipped for want of a GPU
  std::unique_ptr<Timeline> timeline;
  SanitizerPass sanitizer;  // no sanitizer: no memory and race pass
};

// A check's time limit from the reference's duration: generous (ten times, and at least 20 s, for
// a busy machine and a slower but honest kernel), but a hang no longer holds the GPU for the
// spec's whole limit. Never above the spec's or the instructor's limit (run_checks takes the
// smaller).
constexpr double kLimitOverReference = 10;
constexpr double kLeastCheckLimit = 20;
// Under the CPU emulation a barrier switches every thread of the block in turn, so a kernel with
// many more barriers than the reference (a correct but slow one: sample erin) runs far more than
// ten times longer there than on a GPU.
constexpr double kEmulatedLimitOverReference = 40;

std::vector<std::string> checks_of_kind(const contract::LabSpec& spec, bool speed) {
  std::vector<std::string> ids;
  for (const auto& check : spec.checks) {
    if ((check.kind == "speed") == speed) ids.push_back(check.id);
  }
  return ids;
}

// What is built: kernel.cu and the optional files present (bonus.cu), by file name.
struct Sources {
  std::string kernel;
  std::map<std::string, std::string> optional;
};

Sources sources_of(const intake::Submission& submission) {
  return {submission.kernel_text, submission.optional_texts};
}

// The text the result cache keys on: the kernel alone when there is nothing else, so results
// cached before optional files existed stay valid.
std::string cache_text(const Sources& sources) {
  std::string text = sources.kernel;
  for (const auto& [name, content] : sources.optional) {
    text += std::string("\0", 1) + name + std::string("\0", 1) + content;
  }
  return text;
}

// Builds and runs one kernel; no verification (the reference run uses it as is).
GradedOutcome build_and_run(Batch& batch, const std::string& slug, const Sources& sources) {
  GradedOutcome outcome;
  const fs::path scratch = batch.state / "work" / slug;
  std::error_code ignored;
  fs::remove_all(scratch, ignored);
  fs::create_directories(scratch);
  write_text(scratch / "kernel.cu", sources.kernel);
  for (const auto& [name, content] : sources.optional) write_text(scratch / name, content);

  BuildResult build;
  {
    batch.timeline->mark(slug, "build", "wait");
    batch.builds->acquire();
    batch.timeline->mark(slug, "build", "start");
    build = build_submission(batch.kit, scratch, batch.base_policy, batch.options.build_seconds);
    batch.builds->release();
    batch.timeline->mark(slug, "build", "end");
  }
  if (!build.ok) {
    outcome.status = build.status;
    if (build.status == "compile error") {
      outcome.message = "kernel.cu does not compile (the compiler's messages are in the report)";
    } else {
      outcome.message = build.problem.empty() ? build.status : build.problem;
    }
    outcome.build_output = build.output;
    fs::remove_all(scratch, ignored);
    return outcome;
  }

  RunRequest request;
  const auto policy = submission_policy(batch.kit, scratch, batch.base_policy);
  request.command = {sandbox_program(batch.kit, policy), "--spec", batch.kit.spec_path.string()};
  if (const auto launcher = sandbox_launcher(batch.kit, policy); !launcher.empty()) {
    request.command.push_back("--launcher=" + launcher);
  }
  request.seed = batch.seed;
  request.max_check_seconds = batch.options.max_check_seconds;
  request.check_limits = batch.check_limits;
  request.gpu_expected = batch.gpu_expected;
  request.policy = policy;
  request.policy.gpu = true;
  if (batch.kit.backend == "emulation") {
    // The lab program shares the call's buffers with the launcher through it (sparse: it costs
    // what the buffers do); as large as the launcher's arena (launcher/protocol.hpp).
    request.policy.shared_memory_bytes = 4ull << 30;
  }
  request.interrupted = &g_interrupted;

  std::vector<std::string> problems = build.notes;
  if (!build.notes.empty()) outcome.build_output = build.output;  // the messages behind the notes
  const auto run_phase = [&](bool speed) {
    request.checks = checks_of_kind(batch.kit.spec, speed);
    if (request.checks.empty()) return;
    auto [device, gate] = batch.gpus->least_busy();
    request.gpu = device;
    const auto phase = fmt::format("{}@{}", speed ? "speed" : "correctness", device);
    batch.timeline->mark(slug, phase, "wait");
    RunOutcome ran;
    if (speed) {
      // The program starts now, while others may still use the GPU, and runs its checks once
      // the GPU is its alone (gpu_gate.hpp, HeadStart); it gives the GPU back when its last
      // check is recorded. The GPU's time alone is spent timing, not starting or exiting.
      HeadStart head_start(*gate);
      std::optional<ExclusiveUse> alone;
      bool started = false;
      bool ended = false;
      request.run_alone = nullptr;  // alone from its first check on
      request.take_turn = [&, gate = gate] {
        alone.emplace(*gate);
        if (!std::exchange(started, true)) batch.timeline->mark(slug, phase, "start");
      };
      request.end_turn = [&] {
        alone.reset();
        batch.timeline->mark(slug, phase, "end");
        ended = true;
      };
      ran = run_checks(batch.kit.spec, request);
      if (!started) batch.timeline->mark(slug, phase, "start");  // it ended before its turn
      alone.reset();
      if (!ended) batch.timeline->mark(slug, phase, "end");
    } else {
      SharedUse shared(*gate);
      request.take_turn = nullptr;  // shared from the start
      request.end_turn = nullptr;
      // A check that runs out of time among shared runs gets a run with the GPU (and, under the
      // emulation, the CPU) to itself before it fails.
      request.run_alone = [gate = gate](const std::function<void()>& work) {
        gate->unlock_shared();
        {
          ExclusiveUse alone(*gate);
          work();
        }
        gate->lock_shared();
      };
      batch.timeline->mark(slug, phase, "start");
      ran = run_checks(batch.kit.spec, request);
      batch.timeline->mark(slug, phase, "end");
      if (!batch.sanitizer.sanitizer.empty() && !g_interrupted) {
        // Still sharing the GPU: the pass looks for errors, it times nothing.
        const auto sanitizer_phase = fmt::format("sanitizer@{}", device);
        batch.timeline->mark(slug, sanitizer_phase, "start");
        const auto sanitized =
            sanitize_checks(batch.kit.spec, batch.sanitizer, request, ran.records);
        batch.timeline->mark(slug, sanitizer_phase, "end");
        problems.insert(problems.end(), sanitized.problems.begin(), sanitized.problems.end());
        for (const auto& line : sanitized.log) {
          std::fprintf(stderr, "labgrade batch: %s: %s\n", slug.c_str(), line.c_str());
        }
      }
    }
    for (auto& record : ran.records) outcome.records.push_back(std::move(record));
    problems.insert(problems.end(), ran.problems.begin(), ran.problems.end());
  };
  run_phase(false);
  // A speed check only counts for a right product, so a kernel with no right case at all would
  // spend its speed budget (minutes for a hang) to earn nothing: record that instead.
  const bool any_case_right =
      std::any_of(outcome.records.begin(), outcome.records.end(), [](const auto& record) {
        return record.verdict == Verdict::pass || record.verdict == Verdict::skipped ||
               record.fraction > 0;
      });
  if (!g_interrupted && any_case_right) {
    run_phase(true);
  } else if (!g_interrupted) {
    for (const auto& id : checks_of_kind(batch.kit.spec, true)) {
      outcome.records.push_back(grader_record(
          batch.kit.spec, id, Verdict::fail,
          "not run: no correctness case passed, and the speed of a wrong product earns nothing"));
    }
  }
  fs::remove_all(scratch, ignored);
  if (g_interrupted) {
    outcome.status = "interrupted";
    outcome.message = "the batch was interrupted before this submission finished";
    return outcome;
  }
  outcome.status = "graded";
  for (const auto& problem : problems) {
    outcome.message += (outcome.message.empty() ? "" : "; ") + problem;
  }
  return outcome;
}

// The statuses the gradebook shows for a submission intake refused.
std::string intake_status(const std::string& problem) {
  if (problem.find("no kernel") != std::string::npos) return "no kernel file";
  if (problem.find("not a text") != std::string::npos) return "not a text file";
  if (problem.find("archive") != std::string::npos) return "bad archive";
  return "kernel refused";  // a symbolic link, empty, too large
}

GradedOutcome grade_submission(Batch& batch, const intake::Submission& submission) {
  if (!submission.accepted()) {
    GradedOutcome outcome;
    outcome.status = intake_status(submission.problem);
    outcome.message = submission.problem.empty() ? "no kernel file" : submission.problem;
    return outcome;
  }
  const Sources sources = sources_of(submission);
  if (auto cached = batch.cache->find(submission.slug, cache_text(sources))) return *cached;

  auto outcome = build_and_run(batch, submission.slug, sources);
  for (const auto& note : submission.notes) {
    outcome.message += (outcome.message.empty() ? "" : "; ") + note;
  }
  if (outcome.status == "graded" && !batch.attestation.empty()) {
    const auto verification = verify_records(batch.attestation, outcome.records);
    if (!verification.problems.empty()) {
      reject_records(outcome.records,
                     "results rejected: the program's records do not match the grader's own "
                     "check of the outputs (" +
                         verification.problems.front() + ")");
      outcome.status = "results rejected";
      outcome.message = verification.problems.front();
    }
  }
  if (outcome.status != "interrupted") {
    batch.cache->store(submission.slug, cache_text(sources), outcome);
  }
  return outcome;
}

// The instructor's solution, built and run like a submission: it must pass, or the kit or the
// GPU is broken; its exact outputs' digests are what every passing record must carry.
bool run_reference(Batch& batch) {
  if (!batch.options.verify_with_reference) return true;
  if (batch.kit.reference_kernel.empty() || !fs::exists(batch.kit.reference_kernel)) {
    std::fprintf(stderr,
                 "warning: no reference solution in the kit: outputs are not verified by the "
                 "grader, only the records the programs send\n");
    return true;
  }
  std::ifstream in(batch.kit.reference_kernel, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::fprintf(stderr, "grading the reference solution %s first...\n",
               batch.kit.reference_kernel.c_str());
  Sources sources{text, {}};
  for (const auto& name : batch.kit.optional_sources) {
    const fs::path beside = batch.kit.reference_kernel.parent_path() / name;
    if (!fs::exists(beside)) continue;
    std::ifstream extra(beside, std::ios::binary);
    sources.optional[name] =
        std::string((std::istreambuf_iterator<char>(extra)), std::istreambuf_iterator<char>());
  }
  const auto outcome = build_and_run(batch, ".reference", sources);
  if (outcome.status != "graded") {
    std::fprintf(stderr, "error: the reference solution did not build or run (%s):\n%s\n",
                 outcome.status.c_str(), outcome.build_output.c_str());
    return false;
  }
  bool usable = true;
  int skipped = 0;
  for (const auto& record : outcome.records) {
    if (record.verdict == Verdict::skipped) {
      ++skipped;
    } else if (record.verdict != Verdict::pass && record.kind != "speed") {
      std::fprintf(stderr, "error: the reference solution fails %s: %s\n", record.check.c_str(),
                   record.reason.c_str());
      usable = false;
    } else if (record.verdict != Verdict::pass) {
      // A reason may open with its verdict's words already ("not measured: emulation ...").
      const std::string words(contract::verdict_words(record.verdict));
      const bool worded = record.reason.rfind(words + ":", 0) == 0;
      std::fprintf(stderr, "warning: the reference solution's %s: %s%s\n", record.check.c_str(),
                   worded ? "" : (words + ": ").c_str(), record.reason.c_str());
    }
  }
  batch.gpu_expected = skipped == 0 && !outcome.records.empty();
  if (skipped > 0) {
    std::fprintf(stderr,
                 "warning: %d check(s) were skipped for the reference solution (%s): no usable "
                 "GPU, so every submission's checks will be skipped too\n",
                 skipped, outcome.records.front().reason.c_str());
  }
  std::string limits;
  const bool emulated =
      std::any_of(outcome.records.begin(), outcome.records.end(),
                  [](const auto& r) { return r.backend.starts_with("emulation"); });
  const double over_reference = emulated ? kEmulatedLimitOverReference : kLimitOverReference;
  for (const auto& record : outcome.records) {
    if (record.verdict != Verdict::pass || record.duration_s <= 0) continue;
    const double limit = std::max(kLeastCheckLimit, over_reference * record.duration_s);
    batch.check_limits[record.check] = limit;
    limits += fmt::format("{}{} {:.0f} s", limits.empty() ? "" : ", ", record.check, limit);
  }
  if (!limits.empty()) {
    std::fprintf(stderr,
                 "time limits from the reference's durations (x%.0f, at least %.0f s): %s\n",
                 over_reference, kLeastCheckLimit, limits.c_str());
  }
  batch.attestation = attestation_of(outcome.records);
  std::fprintf(stderr, "reference solution: %zu exact outputs to check submissions against\n",
               batch.attestation.size());
  return usable;
}

exports::StudentOutcome write_student(const Batch& batch, const intake::Submission& submission,
                                      GradedOutcome outcome) {
  const fs::path dir = batch.options.out / "students" / submission.slug;
  std::error_code ignored;
  fs::remove_all(dir / "results", ignored);
  for (const auto& record : outcome.records) contract::write_record(dir / "results", record);
  if (!outcome.build_output.empty()) write_text(dir / "build.log", outcome.build_output);

  exports::StudentOutcome student;
  student.student = submission.student;
  student.status = outcome.status;
  student.message = outcome.message;
  if (outcome.status == "graded" || outcome.status == "results rejected") {
    student.grade = contract::grade_lab(batch.kit.spec, outcome.records);
  }
  reports::ReportContext context;
  context.generated_at = contract::utc_timestamp();
  context.student = submission.student;
  context.handout = batch.kit.handout.string();
  context.kernel_source =
      submission.kernel ? fmt::format("{} (submitted by {})",
                                      submission.kernel->filename().string(), submission.student)
                        : std::string("none");
  if (!student.grade) {
    context.submission_problem = outcome.message.empty() || outcome.message == outcome.status
                                     ? outcome.status
                                     : outcome.status + ": " + outcome.message;
    context.submission_output = outcome.build_output;
  }
  // The student cannot run the grader's checks: a check without a record says why it did not run.
  context.no_record_reason = not_run_reason(outcome);
  const auto grade = student.grade ? *student.grade : contract::grade_lab(batch.kit.spec, {});
  write_text(dir / "report.html", reports::render_lab_report(grade, context));
  write_text(dir / "results.json",
             exports::gradescope_results(batch.kit.spec, student)
                 .dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  student.report_path = "students/" + submission.slug + "/report.html";
  if (!batch.options.outcomes_dir.empty()) {
    write_outcome_file(batch.options.outcomes_dir, submission.slug, student);
  }
  return student;
}

void write_class(const Batch& batch, const std::vector<exports::StudentOutcome>& students) {
  // A shard's students are part of a class: `labgrade shard merge` writes its files.
  if (!batch.options.outcomes_dir.empty()) return;
  write_class_files(batch.options.out, batch.kit.spec, students);
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

bool inside(const fs::path& path, const fs::path& folder) {
  const auto relative = fs::weakly_canonical(path).lexically_relative(fs::weakly_canonical(folder));
  return !relative.empty() && *relative.begin() != "..";
}

}  // namespace

namespace {

// Correctness runs at once per GPU. The emulation's runs are CPU work that uses every core each:
// eight of them on two cores starve one another past their limits.
int shared_runs_per_gpu(const BatchOptions& options, const Kit& kit) {
  if (options.shared_runs_per_gpu > 0) return options.shared_runs_per_gpu;
  if (kit.backend != "emulation") return 8;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / 2);
}

}  // namespace

int run_batch(const BatchOptions& options) {
  Batch batch{options, {}, {}, {}, 0, {}, {}, {}, {}, {}, false, {}, {}};
  try {
    batch.kit = load_kit(options.kit_dir);
  } catch (const KitError& error) {
    std::fprintf(stderr, "labgrade batch: %s\n", error.what());
    return command_exit::cannot_start;
  }
  if (batch.kit.backend == "cuda" && !batch.kit.sanitizer.empty()) {
    batch.sanitizer = {batch.kit.sanitizer, batch.kit.spec.sanitizer_tools, {"kernel.cu"}};
    for (const auto& name : batch.kit.optional_sources) {
      batch.sanitizer.student_files.push_back(name);
    }
    if (batch.sanitizer.tools.empty()) batch.sanitizer.sanitizer.clear();
  }
  if (!fs::is_directory(options.submissions)) {
    std::fprintf(stderr, "labgrade batch: %s is not a folder of submissions\n",
                 options.submissions.c_str());
    return command_exit::cannot_start;
  }
  if (inside(options.out, options.submissions)) {
    std::fprintf(stderr,
                 "labgrade batch: the output folder %s is inside the submissions folder: choose "
                 "another, or it would be graded as a student\n",
                 options.out.c_str());
    return command_exit::cannot_start;
  }

  const auto capabilities = sandbox::probe();
  if (!options.unsandboxed && !capabilities.bubblewrap) {
    std::fprintf(stderr,
                 "labgrade batch: bubblewrap is not available (%s), and student code must not "
                 "run outside a sandbox.\nInstall it (sudo apt-get install bubblewrap), or, only "
                 "if every submission is trusted, pass --unsandboxed.\n",
                 capabilities.why_not.c_str());
    return command_exit::cannot_start;
  }
  std::fprintf(stderr, "%s: sandbox %s; memory %s; processes %s\n", batch.kit.lab.c_str(),
               options.unsandboxed ? "OFF (--unsandboxed)" : "bubblewrap",
               capabilities.memory_cap.c_str(), capabilities.process_cap.c_str());

  batch.state = options.state_dir.empty() ? options.out / ".labgrade" : options.state_dir;
  fs::create_directories(batch.state);
  batch.timeline = std::make_unique<Timeline>(batch.state / "timeline.csv");
  batch.base_policy.isolate = !options.unsandboxed;
  batch.base_policy.memory_bytes = options.memory_bytes;
  batch.base_policy.max_processes = options.max_processes;
  batch.base_policy.own_uid = !options.root_in_sandbox;
  batch.seed = options.seed ? *options.seed : secret_seed();
  batch.cache = std::make_unique<ResultCache>(
      batch.state / "cache", grader_fingerprint(batch.kit, options.labgrade_executable));
  const int jobs = options.jobs > 0
                       ? options.jobs
                       : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  batch.builds = std::make_unique<std::counting_semaphore<1024>>(std::min(jobs, 1024));
  const int shared_runs = shared_runs_per_gpu(options, batch.kit);
  batch.gpus = std::make_unique<GpuPool>(options.gpus, shared_runs);

  std::vector<intake::Submission> submissions;
  try {
    submissions = intake::collect(options.submissions,
                                  {batch.kit.lab, batch.kit.folder, batch.kit.optional_sources},
                                  batch.state / "unpacked");
  } catch (const std::exception& error) {
    std::fprintf(stderr, "labgrade batch: %s\n", error.what());
    return command_exit::cannot_start;
  }
  if (options.select) select_submissions(options, submissions);
  if (submissions.empty()) {
    std::fprintf(stderr,
                 "labgrade batch: no submissions in %s (expected one folder, archive or "
                 ".cu file per student)\n",
                 options.submissions.c_str());
    write_class(batch, {});
    return command_exit::some_not_graded;
  }

  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);

  if (!run_reference(batch)) {
    std::fprintf(stderr, "labgrade batch: stopped: the kit or the GPU is not fit to grade with\n");
    return command_exit::cannot_start;
  }

  if (batch.kit.backend == "emulation") {
    std::fprintf(stderr,
                 "grading %zu submissions with %d build jobs on the CPU (emulation, %d runs at "
                 "once; speed is not measured)\n",
                 submissions.size(), jobs, shared_runs);
  } else {
    std::fprintf(stderr, "grading %zu submissions with %d build jobs on %zu GPU(s)\n",
                 submissions.size(), jobs, batch.gpus->size());
  }
  std::vector<std::optional<GradedOutcome>> outcomes(submissions.size());
  std::atomic<std::size_t> next{0};
  Progress progress(static_cast<int>(submissions.size()));
  const auto worker = [&] {
    while (!g_interrupted) {
      const std::size_t i = next++;
      if (i >= submissions.size()) return;
      progress.started();
      GradedOutcome outcome;
      bool cached = false;
      try {
        if (submissions[i].accepted()) {
          cached = batch.cache->find(submissions[i].slug, cache_text(sources_of(submissions[i])))
                       .has_value();
        }
        outcome = grade_submission(batch, submissions[i]);
      } catch (const std::exception& error) {
        outcome.status = "grader error";
        outcome.message = error.what();
      }
      const bool failed = outcome.status != "graded";
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
  const int workers =
      static_cast<int>(std::min(std::max(submissions.size(), static_cast<std::size_t>(jobs) +
                                                                 batch.gpus->size() * shared_runs),
                                kMostWorkers));
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w) threads.emplace_back(worker);
  for (auto& thread : threads) thread.join();
  progress.stop();

  std::vector<exports::StudentOutcome> students;
  int not_graded = 0;
  for (std::size_t i = 0; i < submissions.size(); ++i) {
    GradedOutcome outcome;
    if (outcomes[i]) {
      outcome = std::move(*outcomes[i]);
    } else {
      outcome.status = "interrupted";
      outcome.message = "not graded yet: the batch was interrupted; run it again to resume";
    }
    if (outcome.status != "graded") ++not_graded;
    try {
      students.push_back(write_student(batch, submissions[i], std::move(outcome)));
    } catch (const std::exception& error) {
      std::fprintf(stderr, "labgrade batch: %s: %s\n", submissions[i].student.c_str(),
                   error.what());
    }
  }
  write_class(batch, students);
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
