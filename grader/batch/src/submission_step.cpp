#include "submission_step.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "batch/build_step.hpp"
#include "batch/evidence_share.hpp"
#include "batch/files.hpp"
#include "batch/run_step.hpp"
#include "batch/sanitize_step.hpp"
#include "emulated_step.hpp"
#include "program_runs.hpp"
#include "reference_step.hpp"
#include "sandbox/sandbox.hpp"

namespace batch {
namespace {

namespace fs = std::filesystem;
using contract::Verdict;

void append_problem(std::string& message, const std::string& problem) {
  message += (message.empty() ? "" : "; ") + problem;
}

// The build, in one of the batch's build slots.
BuildResult build_in_a_slot(BatchState& batch, const std::string& slug, const fs::path& scratch) {
  batch.timeline->mark(slug, "build", "wait");
  batch.builds->acquire();
  batch.timeline->mark(slug, "build", "start");
  BuildResult build =
      build_submission(batch.kit, scratch, batch.base_policy, batch.options.build_seconds);
  batch.builds->release();
  batch.timeline->mark(slug, "build", "end");
  return build;
}

GradedOutcome build_failure(const BuildResult& build) {
  GradedOutcome outcome;
  outcome.status = build.status;
  if (build.status == Status::compile_error) {
    outcome.message = "kernel.cu does not compile: see the compiler's messages";
  } else {
    outcome.message =
        build.problem.empty() ? std::string(status_words(build.status)) : build.problem;
  }
  outcome.build_output = build.output;
  return outcome;
}

// The run of the built lab program in the sandbox, with the batch's seed and limits.
RunRequest run_request(const BatchState& batch, const fs::path& scratch) {
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
  request.run_program = sandbox::run;
  if (batch.kit.backend == "emulation") {
    // The lab program shares the call's buffers with the launcher through it (sparse: it costs
    // what the buffers do); as large as the launcher's arena (launcher/protocol.hpp).
    request.policy.shared_memory_bytes = 4ull << 30;
  }
  request.interrupted = &batch.interrupted;
  return request;
}

void in_spec_order(const contract::LabSpec& spec, std::vector<contract::CheckRecord>& records) {
  const auto position = [&spec](const contract::CheckRecord& record) {
    for (std::size_t i = 0; i < spec.checks.size(); ++i) {
      if (spec.checks[i].id == record.check) return i;
    }
    return spec.checks.size();
  };
  std::stable_sort(records.begin(), records.end(),
                   [&](const auto& a, const auto& b) { return position(a) < position(b); });
}

// A speed check only counts for a right product, so a kernel with no right case at all would
// spend its speed budget (minutes for a hang) to earn nothing.
bool any_case_right(const std::vector<contract::CheckRecord>& records) {
  return std::any_of(records.begin(), records.end(), [](const auto& record) {
    return record.verdict == Verdict::pass || record.verdict == Verdict::skipped ||
           record.fraction > 0;
  });
}

// The runs of a built program: correctness, then speed when a case came out right, with the
// checks the hosted memcheck run left over (in a run of their own when the correctness run had no
// right case: a right case there earns the speed run); the emulated pass runs beside them from
// the end of the correctness run on (emulated_step.hpp).
void run_program(BatchState& batch, const std::string& slug, const Sources& sources,
                 RunRequest request, std::vector<std::string> kernels, GradedOutcome& outcome,
                 std::vector<std::string>& problems) {
  std::optional<EmulatedPassInFlight> emulated;
  ProgramRuns runs(batch, slug, std::move(request), std::move(kernels), outcome, problems);
  runs.after_correctness = [&](const auto& records, const auto& left) {
    emulated.emplace(batch, slug, sources, records, left);
  };
  runs.run_correctness();
  if (batch.interrupted) return;
  if (!any_case_right(outcome.records)) runs.run_leftover();
  if (batch.interrupted) return;
  if (any_case_right(outcome.records)) {
    runs.run_speed();
  } else {
    for (const auto& id : checks_of_kind(batch.kit.spec, true)) {
      outcome.records.push_back(grader_record(
          batch.kit.spec, id, Verdict::fail,
          "not run: no correctness case passed, and the speed of a wrong product earns nothing"));
    }
  }
  in_spec_order(batch.kit.spec, outcome.records);  // the leftover checks come back in place
  // The speed run measured no access (its own run, or a GPU's): the other runs' facts.
  share_evidence(evidence_of(outcome.records), outcome.records);
  // The reference's pass shows whether compute-sanitizer runs under the runs' own uid at all
  // (run_reference goes back to root if not).
  const bool proves_the_uid = slug == kReferenceSlug && !batch.sanitizer_fallback.as_root;
  if (emulated && (!emulated->finish(outcome.records, problems) || proves_the_uid)) {
    runs.fallback_sanitizer_pass(outcome.records);
  }
}

// The status intake's problem gives a submission it refused.
Status intake_status(const std::string& problem) {
  if (problem.find("no kernel") != std::string::npos) return Status::no_kernel_file;
  if (problem.find("not a text") != std::string::npos) return Status::not_a_text_file;
  if (problem.find("archive") != std::string::npos) return Status::bad_archive;
  return Status::kernel_refused;  // a symbolic link, empty, too large
}

// A graded outcome whose records do not match the reference's outputs is rejected.
void verify_outcome(const BatchState& batch, GradedOutcome& outcome) {
  if (outcome.status != Status::graded || batch.attestation.empty()) return;
  const auto verification = verify_records(batch.attestation, outcome.records);
  if (verification.problems.empty()) return;
  reject_records(outcome.records,
                 "results rejected: the program's records do not match the grader's own "
                 "check of the outputs (" +
                     verification.problems.front() + ")");
  outcome.status = Status::results_rejected;
  outcome.message = verification.problems.front();
}

}  // namespace

void prepare_scratch(const fs::path& scratch, const Sources& sources) {
  std::error_code ignored;
  fs::remove_all(scratch, ignored);
  fs::create_directories(scratch);
  write_whole_file(scratch / "kernel.cu", sources.kernel);
  for (const auto& [name, content] : sources.optional) write_whole_file(scratch / name, content);
}

Sources sources_of(const intake::Submission& submission) {
  return {submission.kernel_text, submission.optional_texts};
}

std::string cache_text(const Sources& sources) {
  std::string text = sources.kernel;
  for (const auto& [name, content] : sources.optional) {
    text += std::string("\0", 1) + name + std::string("\0", 1) + content;
  }
  return text;
}

GradedOutcome build_and_run(BatchState& batch, const std::string& slug, const Sources& sources) {
  const fs::path scratch = batch.state / "work" / slug;
  prepare_scratch(scratch, sources);
  std::error_code ignored;
  const BuildResult build = build_in_a_slot(batch, slug, scratch);
  if (!build.ok) {
    fs::remove_all(scratch, ignored);
    return build_failure(build);
  }
  GradedOutcome outcome;
  std::vector<std::string> problems = build.notes;
  if (!build.notes.empty()) outcome.build_output = build.output;  // the messages behind the notes
  run_program(batch, slug, sources, run_request(batch, scratch), build.kernels, outcome, problems);
  fs::remove_all(scratch, ignored);
  if (batch.interrupted) {
    outcome.status = Status::interrupted;
    outcome.message = "the batch was interrupted before this submission finished";
    return outcome;
  }
  outcome.status = Status::graded;
  for (const auto& problem : problems) append_problem(outcome.message, problem);
  return outcome;
}

GradedOutcome grade_submission(BatchState& batch, const intake::Submission& submission) {
  if (!submission.accepted()) {
    GradedOutcome outcome;
    outcome.status = intake_status(submission.problem);
    outcome.message = submission.problem.empty() ? "no kernel file" : submission.problem;
    return outcome;
  }
  const Sources sources = sources_of(submission);
  if (auto cached = batch.cache->find(submission.slug, cache_text(sources))) return *cached;

  auto outcome = build_and_run(batch, submission.slug, sources);
  for (const auto& note : submission.notes) append_problem(outcome.message, note);
  verify_outcome(batch, outcome);
  if (outcome.status != Status::interrupted) {
    batch.cache->store(submission.slug, cache_text(sources), outcome);
  }
  return outcome;
}

}  // namespace batch
