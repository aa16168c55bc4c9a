#include "submission_step.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "batch/build_step.hpp"
#include "batch/files.hpp"
#include "batch/run_step.hpp"
#include "batch/sanitize_step.hpp"
#include "emulated_step.hpp"
#include "sandbox/sandbox.hpp"

namespace batch {
namespace {

namespace fs = std::filesystem;
using contract::Verdict;

std::vector<std::string> checks_of_kind(const contract::LabSpec& spec, bool speed) {
  std::vector<std::string> ids;
  for (const auto& check : spec.checks) {
    if ((check.kind == "speed") == speed) ids.push_back(check.id);
  }
  return ids;
}

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
    outcome.message = "kernel.cu does not compile (the compiler's messages are in the report)";
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

// The built program's runs: correctness (GPU shared, then the sanitizer pass), then speed (GPU
// alone), each on the least busy GPU, gathering records and problems.
class ProgramRuns {
 public:
  ProgramRuns(BatchState& batch, const std::string& slug, RunRequest request,
              std::vector<std::string> kernels, GradedOutcome& outcome,
              std::vector<std::string>& problems)
      : batch_(batch),
        slug_(slug),
        request_(std::move(request)),
        kernels_(std::move(kernels)),
        outcome_(outcome),
        problems_(problems) {}

  // Called as soon as the correctness run ends (before the sanitizer pass) with its records and
  // the correctness checks it left to the speed run.
  std::function<void(const std::vector<contract::CheckRecord>&, const std::vector<std::string>&)>
      after_correctness;

  // The speed run also runs the correctness checks the hosted memcheck run left to it.
  void run_phase(bool speed, bool with_speed_checks = true) {
    request_.checks = speed ? left_for_plain_run_ : std::vector<std::string>{};
    if (!speed || with_speed_checks) {
      const auto checks = checks_of_kind(batch_.kit.spec, speed);
      request_.checks.insert(request_.checks.end(), checks.begin(), checks.end());
    }
    if (request_.checks.empty()) return;
    auto [device, gate] = batch_.gpus->least_busy();
    request_.gpu = device;
    const auto phase = fmt::format("{}@{}", speed ? "speed" : "correctness", device);
    batch_.timeline->mark(slug_, phase, "wait");
    RunOutcome ran = speed ? run_alone(*gate, phase) : run_shared(*gate, phase, device);
    for (auto& record : ran.records) outcome_.records.push_back(std::move(record));
    problems_.insert(problems_.end(), ran.problems.begin(), ran.problems.end());
  }

 private:
  // The program starts now, while others may still use the GPU, and runs its checks once the GPU
  // is its alone (gpu_gate.hpp, HeadStart); it gives the GPU back when its last check is
  // recorded. The GPU's time alone is spent timing, not starting or exiting.
  //
  // Checks the hosted memcheck run left over (correctness checks too large for memcheck) run
  // first, with the GPU shared as in a correctness run; the program asks for its turn before its
  // first speed check (contract::GraderMessage::turn_at_first_speed_check).
  RunOutcome run_alone(GpuGate& gate, const std::string& phase) {
    const bool shared_first = !left_for_plain_run_.empty();
    std::optional<HeadStart> head_start;
    std::optional<SharedUse> shared;
    const auto shared_phase = "leftover" + phase.substr(phase.find('@'));
    if (shared_first) {
      batch_.timeline->mark(slug_, shared_phase, "wait");
      shared.emplace(gate);
      batch_.timeline->mark(slug_, shared_phase, "start");
    } else {
      head_start.emplace(gate);
    }
    request_.turn_at_first_speed_check = shared_first;
    std::optional<ExclusiveUse> alone;
    bool started = false;
    bool ended = false;
    request_.run_alone = nullptr;  // alone from its first check on
    request_.take_turn = [&] {
      if (shared) {
        shared.reset();
        batch_.timeline->mark(slug_, shared_phase, "end");
      }
      alone.emplace(gate);
      if (!std::exchange(started, true)) batch_.timeline->mark(slug_, phase, "start");
    };
    request_.end_turn = [&] {
      alone.reset();
      batch_.timeline->mark(slug_, phase, "end");
      ended = true;
    };
    RunOutcome ran = run_checks(batch_.kit.spec, request_);
    if (shared) {  // no speed check ran
      shared.reset();
      batch_.timeline->mark(slug_, shared_phase, "end");
    }
    if (!started) batch_.timeline->mark(slug_, phase, "start");  // it ended before its turn
    alone.reset();
    if (!ended) batch_.timeline->mark(slug_, phase, "end");
    return ran;
  }

  RunOutcome run_shared(GpuGate& gate, const std::string& phase, int device) {
    SharedUse shared(gate);
    request_.take_turn = nullptr;  // shared from the start
    request_.end_turn = nullptr;
    // A check that runs out of time among shared runs gets a run with the GPU (and, under the
    // emulation, the CPU) to itself before it fails.
    request_.run_alone = [gate = &gate](const std::function<void()>& work) {
      gate->unlock_shared();
      {
        ExclusiveUse alone(*gate);
        work();
      }
      gate->lock_shared();
    };
    batch_.timeline->mark(slug_, phase, "start");
    RunOutcome ran =
        hosts_memcheck() ? run_hosted_memcheck() : run_checks(batch_.kit.spec, request_);
    batch_.timeline->mark(slug_, phase, "end");
    if (after_correctness) after_correctness(ran.records, left_for_plain_run_);
    sanitizer_pass(device, ran.records);
    return ran;
  }

  bool hosts_memcheck() const {
    return batch_.sanitizer.hosted_memcheck && !batch_.sanitizer.sanitizer.empty();
  }

  // The correctness checks run under memcheck (batch/sanitize_step.hpp); structure checks and the
  // checks too large for memcheck wait for the speed run, which runs without it. memcheck ends a
  // kernel at its bad access, and its reports slow the run: the records of a run with findings
  // are kept only for the checks the findings fail, and the other checks run again, under memcheck
  // again, until a run finds nothing new. So every record without a finding comes from a run that
  // found nothing, and an error in one check costs no other check.
  RunOutcome run_hosted_memcheck() {
    std::vector<std::string> remaining;
    for (const auto& id : request_.checks) {
      const auto* check = batch_.kit.spec.find(id);
      (check && check->kind == "correctness" ? remaining : left_for_plain_run_).push_back(id);
    }
    RunOutcome all;
    while (!remaining.empty() && !batch_.interrupted) {
      RunRequest hosted = hosted_memcheck_request(request_, batch_.sanitizer, kernels_);
      hosted.checks = remaining;
      std::string output;
      hosted.on_output = [&output](std::string_view text) {
        if (output.size() < (8u << 20)) output.append(text);
      };
      RunOutcome ran = run_checks(batch_.kit.spec, hosted);
      const auto charged =
          charge_hosted_findings(batch_.kit.spec, batch_.sanitizer, output, ran.records);
      report_sanitizer_outcome(charged);
      const auto left = take_checks_left_for_plain_run(ran.records);
      left_for_plain_run_.insert(left_for_plain_run_.end(), left.begin(), left.end());
      all.processes += ran.processes;
      all.problems.insert(all.problems.end(), ran.problems.begin(), ran.problems.end());
      remaining.clear();
      for (auto& record : ran.records) {
        if (charged.failed_checks.empty() || charged.failed_checks.count(record.check)) {
          all.records.push_back(std::move(record));
        } else {
          remaining.push_back(record.check);
        }
      }
    }
    return all;
  }

  void report_sanitizer_outcome(const SanitizerOutcome& outcome) {
    problems_.insert(problems_.end(), outcome.problems.begin(), outcome.problems.end());
    for (const auto& line : outcome.log) {
      std::fprintf(stderr, "labgrade batch: %s: %s\n", slug_.c_str(), line.c_str());
    }
  }

  // ---- The sanitizer pass (batch/sanitize_step.hpp), after the correctness run ----
  void sanitizer_pass(int device, std::vector<contract::CheckRecord>& records) {
    if (batch_.sanitizer.sanitizer.empty() || pass_tools(batch_.sanitizer).empty() ||
        batch_.interrupted) {
      return;
    }
    // Still sharing the GPU: the pass looks for errors, it times nothing.
    const auto sanitizer_phase = fmt::format("sanitizer@{}", device);
    batch_.timeline->mark(slug_, sanitizer_phase, "start");
    const auto sanitized = sanitize_checks(batch_.kit.spec, batch_.sanitizer, request_, records);
    batch_.timeline->mark(slug_, sanitizer_phase, "end");
    report_sanitizer_outcome(sanitized);
  }
  // ---- end of the sanitizer pass ----

  BatchState& batch_;
  const std::string& slug_;
  RunRequest request_;
  std::vector<std::string> kernels_;             // the student's, for the hosted memcheck run
  std::vector<std::string> left_for_plain_run_;  // correctness checks the speed run runs
  GradedOutcome& outcome_;
  std::vector<std::string>& problems_;
};

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

// The runs of a built program: correctness, then speed when a case came out right (and the checks
// the hosted memcheck run left to the speed run, whatever came out right); the emulated pass runs
// beside them from the end of the correctness run on (emulated_step.hpp).
void run_program(BatchState& batch, const std::string& slug, const Sources& sources,
                 RunRequest request, std::vector<std::string> kernels, GradedOutcome& outcome,
                 std::vector<std::string>& problems) {
  std::optional<EmulatedPassInFlight> emulated;
  ProgramRuns runs(batch, slug, std::move(request), std::move(kernels), outcome, problems);
  runs.after_correctness = [&](const auto& records, const auto& left) {
    emulated.emplace(batch, slug, sources, records, left);
  };
  runs.run_phase(false);
  if (batch.interrupted) return;
  const bool speed_counts = any_case_right(outcome.records);
  runs.run_phase(true, speed_counts);
  if (!speed_counts) {
    for (const auto& id : checks_of_kind(batch.kit.spec, true)) {
      outcome.records.push_back(grader_record(
          batch.kit.spec, id, Verdict::fail,
          "not run: no correctness case passed, and the speed of a wrong product earns nothing"));
    }
  }
  in_spec_order(batch.kit.spec, outcome.records);  // checks left to the speed run come back
  if (emulated) emulated->finish(outcome.records, problems);
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
