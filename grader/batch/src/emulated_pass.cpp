#include "batch/emulated_pass.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "batch/build_step.hpp"
#include "batch/evidence_share.hpp"
#include "batch/run_step.hpp"
#include "sandbox/sandbox.hpp"

namespace batch {
namespace {

using contract::CheckRecord;
using contract::Verdict;

// The pass runs at nice 19 beside a busy machine: generous limits, a multiple of the emulation
// spec's own (which already allow for the emulation's slowness, at every size; the pass runs
// the first case only).
constexpr double kLimitFactor = 3;
constexpr double kBuildFactor = 3;
constexpr int kLowestPriority = 19;

bool earns_something(const CheckRecord& record) {
  return record.verdict == Verdict::pass ||
         (record.verdict == Verdict::fail && record.fraction > 0);
}

// A check whose kernel faulted on the GPU (an illegal address): it has nothing to lose, but the
// emulator can name the line the GPU did not (the hosted memcheck run used to).
bool faulted(const CheckRecord& record) {
  return record.verdict == Verdict::fail &&
         (record.reason.find("CUDA_ERROR_ILLEGAL_ADDRESS") != std::string::npos ||
          record.reason.find("cudaErrorIllegalAddress") != std::string::npos);
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

// "kernel.cu:19 (MatMulAnyKernel), thread ...": a further report of the emulator's.
bool names_a_student_file(const std::string& note, const std::vector<std::string>& files) {
  return std::any_of(files.begin(), files.end(),
                     [&](const std::string& file) { return starts_with(note, file + ":"); });
}

// The emulation lab program's run of the checks, first cases only, at the lowest priority.
RunRequest emulated_request(const EmulatedPass& pass, const EmulatedRun& run) {
  RunRequest request;
  request.run_program = sandbox::run;  // the batch's sandbox, as for the GPU's runs
  request.policy = submission_policy(pass.kit, run.scratch, run.base_policy);
  request.command = {sandbox_program(pass.kit, request.policy), "--spec",
                     pass.kit.spec_path.string(),
                     "--launcher=" + sandbox_launcher(pass.kit, request.policy)};
  request.checks = run.checks;
  request.seed = run.seed;
  double longest = 0;
  for (const auto& id : run.checks) {
    if (const auto* check = pass.kit.spec.find(id)) longest = std::max(longest, check->timeout_s);
  }
  request.max_check_seconds =
      kLimitFactor * (longest > 0 ? longest : contract::kDefaultCheckSeconds);
  request.startup_seconds = 120;
  request.policy.gpu = false;
  request.policy.nice = kLowestPriority;
  // The lab program shares the call's buffers with the launcher through it (as in an emulation
  // kit's batch, submission_step.cpp).
  request.policy.shared_memory_bytes = 4ull << 30;
  request.policy.env.emplace_back("LAB_SANITIZER", "emulation");
  request.policy.env.emplace_back("LAB_SANITIZER_CASES", "first");
  request.policy.env.emplace_back("LABS_EMU_THREADS", std::to_string(pass.emulator_threads));
  request.interrupted = run.interrupted;
  return request;
}

}  // namespace

std::optional<EmulatedPass> emulated_pass_of(const std::string& given, const Kit& kit) {
  if (given == "off") return std::nullopt;
  const std::filesystem::path dir =
      given.empty() ? kit.emulation_kit : std::filesystem::path(given);
  if (dir.empty()) return std::nullopt;
  EmulatedPass pass{load_kit(dir), {"kernel.cu"}, 2};
  if (pass.kit.backend != "emulation") {
    throw KitError(
        fmt::format("the emulated pass needs an emulation build's kit, and {} is a {} "
                    "kit (configure one with -DLABS_BACKEND=emulation)",
                    dir.string(), pass.kit.backend));
  }
  if (pass.kit.lab != kit.lab) {
    throw KitError(fmt::format("the emulated pass's kit {} is for {}, not {}", dir.string(),
                               pass.kit.lab, kit.lab));
  }
  for (const auto& name : kit.optional_sources) pass.student_files.push_back(name);
  return pass;
}

std::vector<std::string> checks_for_emulated_pass(const contract::LabSpec& emulation_spec,
                                                  const std::vector<CheckRecord>& records,
                                                  const std::vector<std::string>& pending) {
  std::vector<std::string> checks;
  const auto take = [&](const std::string& id) {
    const auto* check = emulation_spec.find(id);
    if (check && check->kind == "correctness") checks.push_back(id);
  };
  for (const auto& record : records) {
    if (earns_something(record) || faulted(record)) take(record.check);
  }
  for (const auto& id : pending) take(id);
  return checks;
}

EmulatedFindings read_emulated_findings(const std::vector<CheckRecord>& emulated,
                                        const std::vector<std::string>& asked,
                                        const std::vector<std::string>& student_files) {
  EmulatedFindings findings;
  for (const auto& id : asked) {
    const auto record = std::find_if(emulated.begin(), emulated.end(),
                                     [&](const CheckRecord& r) { return r.check == id; });
    // The grader's own records (no backend ran them) say how the program ended, not what the
    // emulator found.
    if (record == emulated.end() || record->backend.empty()) {
      findings.unfinished.push_back(id);
      continue;
    }
    std::vector<std::string> words;
    if (starts_with(record->reason, kEmulatedFindingWords)) words.push_back(record->reason);
    for (const auto& note : record->notes) {
      if (starts_with(note, kEmulatedFindingWords)) {
        words.push_back(note);  // the check failed in the emulation too: its finding is a note
      } else if (!words.empty() && names_a_student_file(note, student_files)) {
        words.push_back(note);
      }
    }
    if (!words.empty()) findings.words[id] = std::move(words);
  }
  findings.evidence = evidence_of(emulated);
  return findings;
}

int apply_emulated_findings(const EmulatedFindings& findings, std::vector<CheckRecord>& records) {
  int failed = 0;
  for (auto& record : records) {
    const auto found = findings.words.find(record.check);
    if (found == findings.words.end()) continue;
    const auto& words = found->second;
    if (!earns_something(record)) {
      // Its own reason stays; the line is still news, first among the notes.
      record.notes.insert(record.notes.begin(), words.front());
      continue;
    }
    record.verdict = Verdict::fail;
    record.fraction = 0;
    record.diagnosis.reset();
    record.reason = words.front();
    record.notes.insert(record.notes.end(), words.begin() + 1, words.end());
    record.notes.push_back(
        "the CPU emulation ran this check's first case again after the GPU's run, to look for "
        "memory errors and races; the line is your file's");
    ++failed;
  }
  return failed;
}

EmulatedOutcome run_emulated_pass(const EmulatedPass& pass, const EmulatedRun& run) {
  EmulatedOutcome outcome;
  sandbox::Policy build_policy = run.base_policy;
  build_policy.nice = kLowestPriority;
  const BuildResult build =
      build_submission(pass.kit, run.scratch, build_policy, kBuildFactor * run.build_seconds);
  if (!build.ok) {
    // nvcc took it: what the emulation cannot build is the emulation's limit, not a mistake.
    outcome.problems.push_back(
        "the CPU emulation's memory and race pass could not build kernel.cu; its findings are "
        "not known");
    const auto tail =
        build.output.size() > 600 ? build.output.substr(build.output.size() - 600) : build.output;
    outcome.log.push_back(
        fmt::format("emulated pass: the build failed ({}): {}", status_words(build.status), tail));
    return outcome;
  }
  const RunOutcome ran = run_checks(pass.kit.spec, emulated_request(pass, run));
  outcome.findings = read_emulated_findings(ran.records, run.checks, pass.student_files);
  if (!outcome.findings.unfinished.empty() && !ran.interrupted) {
    std::string checks;
    for (const auto& id : outcome.findings.unfinished) checks += (checks.empty() ? "" : ", ") + id;
    outcome.problems.push_back(fmt::format(
        "the CPU emulation's memory and race pass did not finish {}; its findings there are not "
        "known",
        checks));
    for (const auto& record : ran.records) {
      if (record.backend.empty()) {
        outcome.log.push_back(fmt::format("emulated pass: {}: {}", record.check, record.reason));
      }
    }
  }
  return outcome;
}

}  // namespace batch
