#include "harness/check.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <system_error>

#include <fmt/format.h>

#include "contract/device_buffer_note.hpp"
#include "contract/exit_status.hpp"
#include "contract/sanitizer_run.hpp"
#include "harness/compare.hpp"
#include "harness/contract.hpp"
#include "harness/cuda_check.hpp"
#include "harness/diagnose.hpp"
#include "harness/host_refusal.hpp"
#include "harness/random.hpp"
#include "harness/sanitizer.hpp"
#include "harness/student_call.hpp"
#include "harness/trace.hpp"

namespace harness {

namespace {

std::string current_test_id() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return fmt::format("{}.{}", info->test_suite_name(), info->name());
}

// The full story for the terminal: the reason, then each failing case with its first mismatches.
std::string failure_message(const CheckRecord& record) {
  std::string text =
      fmt::format("{} [{}]: {}\n", record.check, to_string(record.verdict), record.reason);
  for (const auto& c : record.cases) {
    if (c.verdict == Verdict::pass) continue;
    text += fmt::format("  case {}: {}\n", c.name, c.reason);
    for (const auto& m : c.first_mismatches) {
      text += fmt::format("    (row {}, col {}): expected {}, got {}\n", m.row, m.col, m.expected,
                          m.got);
    }
    for (const auto& w : c.out_of_bounds) {
      text += fmt::format("    write outside {} at element offset {}: {}\n", w.buffer, w.offset,
                          w.value);
    }
  }
  text += fmt::format("  seed {}; replay: {}", record.seed, record.reproduce);
  return text;
}

// Single quotes for the shell: case names hold spaces and '*'.
std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (const char ch : text) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return quoted + "'";
}

}  // namespace

LabRun& lab_run() {
  static LabRun run;
  return run;
}

Check::Check(const CheckSpec& spec) : spec_(spec) {
  const auto& run = lab_run();
  record_.lab = run.spec.lab;
  record_.check = spec.id;
  record_.kind = spec.kind;
  record_.title = spec.title;
  record_.seed = run.seed;
  record_.started_at = utc_timestamp();
  record_.device = run.device;
  record_.backend = run.backend;
  record_.reproduce =
      fmt::format("LAB_SEED={} {} --gtest_filter={}", run.seed, run.executable, spec.id);
}

namespace {

// The mistake a failed call names: its own diagnosis (a launch refused as over CUDA's limits) or
// the one its message implies.
std::optional<Diagnosis> diagnosis_of(const CudaError& error) {
  if (const auto* student = dynamic_cast<const StudentError*>(&error);
      student && student->diagnosis) {
    return student->diagnosis;
  }
  return diagnose_launch_error(error.what());
}

}  // namespace

std::uint64_t Check::seed_for(std::string_view label) const {
  return derive_seed(lab_run().seed, spec_.id, label);
}

void Check::run_case(const std::string& name, const std::function<void(CaseResult&)>& body) {
  CaseResult result;
  result.name = name;
  if (lab_run().context_lost) {
    result.verdict = Verdict::not_run;
    result.reason = "not run: an earlier kernel fault left the GPU unusable in this process";
    record_.cases.push_back(std::move(result));
    return;
  }
  // LAB_CASE (from a replay command) runs one case of the check alone.
  if (const char* only = std::getenv("LAB_CASE"); only && *only && name != only) return;
  // The batch's compute-sanitizer pass: each check's first (smallest) case only.
  if (sanitizer_first_case_only() && !record_.cases.empty()) return;
  try {
    body(result);
  } catch (const CudaError& error) {
    if (error.sticky) lab_run().context_lost = true;
    fail_case(result, error.what());
    if (!result.diagnosis) result.diagnosis = diagnosis_of(error);
  }
  record_.cases.push_back(std::move(result));
}

void Check::set_verdict(Verdict verdict, std::string reason) {
  explicit_verdict_ = {verdict, std::move(reason)};
}

CheckRecord Check::finish(double duration_s) {
  record_.duration_s = duration_s;
  // The lab's buffers as the student's kernels saw them in this check, under compute-sanitizer.
  for (const auto& place : take_device_buffer_places()) {
    record_.notes.push_back(contract::device_buffer_note(place));
  }
  record_.max_points = spec_.points;
  decide_verdict();
  apply_memory_errors();
  // The emulator's evidence (harness/sanitizer.hpp, note_evidence): feedback beside the verdict.
  // A speed check under the emulation runs no kernel: it shows what its suite's checks measured
  // (the same function's kernels).
  record_.evidence = take_evidence(spec_.id);
  if (record_.evidence.empty() && spec_.kind == "speed") {
    record_.evidence = suite_evidence(spec_.id);
  }
  record_.points = points_for(spec_, record_.verdict, record_.fraction);
  if (record_.verdict != Verdict::fail) record_.diagnosis.reset();
  if (record_.verdict == Verdict::fail && !record_.diagnosis) {
    record_.diagnosis = choose_check_diagnosis(record_.cases);
    if (!record_.diagnosis && record_.timing) {
      record_.diagnosis = diagnose_speed(*record_.timing, record_.evidence);
    }
  }
  // The replay names the first failed case too, so it reruns that size alone.
  for (const auto& c : record_.cases) {
    if (c.verdict == Verdict::pass || c.verdict == Verdict::not_run) continue;
    record_.reproduce = fmt::format("LAB_SEED={} LAB_CASE={} {} --gtest_filter={}", lab_run().seed,
                                    shell_quote(c.name), lab_run().executable, spec_.id);
    break;
  }
  return record_;
}

// As the batch's memory pass on a GPU (grader/batch/src/sanitize_step.cpp): a correctness check
// that earned something fails with the first finding; one already failed keeps its own reason,
// the finding is a note. Other kinds of check are not judged by it, as on a GPU.
void Check::apply_memory_errors() {
  const std::vector<EmulatedFinding> errors = take_memory_errors();
  if (errors.empty() || spec_.kind != "correctness") return;
  const auto lead = [](const EmulatedFinding& finding) {
    return finding.kind == EmulatedFindingKind::shared_race ? kEmulatedRacecheckWords
                                                            : kEmulatedMemcheckWords;
  };
  const std::string words =
      fmt::format("{} in your kernel (the results can look right, but the code is wrong): {}",
                  lead(errors.front()), errors.front().words);
  if (record_.verdict == Verdict::pass ||
      (record_.verdict == Verdict::fail && record_.fraction > 0)) {
    record_.verdict = Verdict::fail;
    record_.fraction = 0;
    record_.diagnosis.reset();
    record_.reason = words;
  } else {
    record_.notes.push_back(words);
  }
  for (std::size_t i = 1; i < errors.size(); ++i) {
    record_.notes.push_back(fmt::format("{}: {}", lead(errors[i]), errors[i].words));
  }
}

void Check::decide_verdict() {
  if (explicit_verdict_) {
    record_.verdict = explicit_verdict_->first;
    record_.reason = explicit_verdict_->second;
    record_.fraction = record_.verdict == Verdict::pass ? 1.0 : 0.0;
    if (explicit_fraction_ &&
        (record_.verdict == Verdict::pass || record_.verdict == Verdict::fail))
      record_.fraction = *explicit_fraction_;
    return;
  }
  if (record_.cases.empty()) {
    record_.verdict = Verdict::error;
    record_.reason = "the check ran no cases (is the spec's size list empty?)";
    return;
  }
  std::size_t passed = 0;
  const CaseResult* first_failure = nullptr;
  for (const auto& c : record_.cases) {
    if (c.verdict == Verdict::pass) {
      ++passed;
    } else if (!first_failure) {
      first_failure = &c;
    }
  }
  record_.fraction = static_cast<double>(passed) / static_cast<double>(record_.cases.size());
  if (!first_failure) {
    record_.verdict = Verdict::pass;
    record_.reason = fmt::format("all {} cases right", record_.cases.size());
  } else {
    record_.verdict = Verdict::fail;
    record_.reason =
        fmt::format("{} of {} cases wrong; first: {}: {}", record_.cases.size() - passed,
                    record_.cases.size(), first_failure->name, first_failure->reason);
  }
}

namespace {

// The check's body, with what it throws turned into a verdict.
void run_body(Check& check, const std::function<void(Check&)>& body) {
  try {
    body(check);
  } catch (const SpecError& error) {
    check.set_verdict(Verdict::error, fmt::format("the lab spec is wrong: {}", error.what()));
  } catch (const CudaError& error) {
    if (error.sticky) lab_run().context_lost = true;
    check.set_verdict(Verdict::fail, error.what());
    if (auto diagnosis = diagnosis_of(error)) check.diagnose(*diagnosis);
  } catch (const std::system_error& error) {
    end_if_refused_by_host(error);
    check.set_verdict(Verdict::error, fmt::format("the check stopped: {}", error.what()));
  } catch (const std::exception& error) {
    check.set_verdict(Verdict::error, fmt::format("the check stopped: {}", error.what()));
  }
}

// Where gtest says a verdict comes from. Never the harness's own source (a file the student did
// not write): the student's kernel.cu or bonus.cu at the line the message names, or else the
// check itself ("TiledMatmul.Integers: Failure").
struct Location {
  std::string file;
  int line = -1;
};

Location student_location(const std::string& check, const std::string& message) {
  for (const std::string file : {"kernel.cu:", "bonus.cu:"}) {
    const auto at = message.find(file);
    if (at == std::string::npos) continue;
    const auto digits = at + file.size();
    int line = 0;
    std::size_t end = digits;
    while (end < message.size() && end - digits < 7 && message[end] >= '0' && message[end] <= '9') {
      line = line * 10 + (message[end] - '0');
      ++end;
    }
    if (end > digits) return {file.substr(0, file.size() - 1), line};
  }
  return {check, -1};
}

// Sends the record to the grader (or writes it, run alone) and tells GoogleTest its verdict:
// passed, skipped (not judged) or failed at the student's line.
void report_record(LabRun& run, const CheckRecord& record) {
  try {
    if (run.channel) {
      run.channel->send_record(record);
    } else {
      write_record(run.results_dir, record);
    }
  } catch (const std::exception& error) {
    ADD_FAILURE_AT(record.check.c_str(), -1)
        << "could not write the result record: " << error.what();
  }
  switch (record.verdict) {
    case Verdict::pass:
      std::printf("%s: pass: %s\n", record.check.c_str(), record.reason.c_str());
      break;
    case Verdict::not_attempted:
      // An optional check left alone: reported, neither failed nor skipped.
      std::printf("%s: not attempted: %s\n", record.check.c_str(), record.reason.c_str());
      break;
    case Verdict::skipped:
    case Verdict::not_measured:
      // GTEST_SKIP() without its __FILE__: gtest's own spelling of it, at the check's name.
      GTEST_MESSAGE_AT_(record.check.c_str(), -1, record.reason.c_str(),
                        ::testing::TestPartResult::kSkip);
      return;
    default: {
      const auto message = failure_message(record);
      const auto where = student_location(record.check, message);
      ADD_FAILURE_AT(where.file.c_str(), where.line) << message;
    }
  }
}

}  // namespace

void run_check(const std::function<void(Check&)>& body) {
  auto& run = lab_run();
  const auto id = current_test_id();
  const CheckSpec* spec = run.spec.find(id);
  if (!spec) {
    FAIL() << id << " has no entry in " << run.spec.source << " (the tests and the spec disagree)";
  }
  std::optional<Check> check(std::in_place, *spec);
  // The grader learns which check was running if the process dies in it.
  if (run.channel) run.channel->send_started(id);
  trace(id + " starts");
  const auto started = std::chrono::steady_clock::now();
  std::optional<CheckRecord> record;
  if (!run.gpu_unavailable.empty()) {
    check->set_verdict(Verdict::skipped, run.gpu_unavailable);
  } else if (run.emulated && spec->kind == "speed") {
    // Timings of the CPU emulation say nothing about a GPU: neither passed nor failed.
    check->set_verdict(Verdict::not_measured,
                       "not measured: emulation (the kernels ran on the CPU; speed checks need a "
                       "GPU)");
  } else {
    if (run.emulated && spec->has("emulation")) {
      // The sizes and limits only: the title the override gives is the record's title already.
      auto reduced = spec->params.at("emulation");
      reduced.erase("title");
      if (!reduced.empty()) check->note("sizes reduced for the CPU emulation: " + reduced.dump());
    }
    if (run.emulated && spec->kind == "structure") {
      // Under the emulation the student's own process runs the kernels: their shapes are its word.
      check->note(
          "launch shapes as the submission's process reported them (under the CPU emulation it "
          "runs the kernels itself; grading on a GPU observes them)");
    }
    run_body(*check, body);
    // A timing too noisy to judge (another process, a clock change for a moment) is measured
    // once more before it is reported inconclusive: both are in the record.
    if (spec->kind == "speed" && check->explicit_verdict() == Verdict::inconclusive) {
      const auto first = check->explicit_reason();
      check.emplace(*spec);
      check->note("measured twice: the first measurement was inconclusive (" + first + ")");
      run_body(*check, body);
    }
  }
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started;
  record = check->finish(elapsed.count());
  trace(id + " ends");
  report_record(run, *record);
}

bool sanitizer_first_case_only() {
  const char* cases = std::getenv("LAB_SANITIZER_CASES");
  return under_sanitizer() && cases && std::string_view(cases) == "first";
}

bool leave_out_under_sanitizer(Check& check, double multiply_adds, const std::string& label) {
  if (!under_sanitizer() || multiply_adds <= kSanitizerMaxWork) return false;
  check.note(fmt::format("{}: not run under compute-sanitizer (too slow there)", label));
  if (sanitizer_hosts_graded_run()) {
    // The graded run: the whole check runs again without the sanitizer (labgrade batch's speed
    // run), so that its verdict rests on every case.
    check.set_verdict(Verdict::skipped, fmt::format("{}: {} is too large to run under it",
                                                    contract::kLeftForPlainRun, label));
  }
  return true;
}

void skip_if_all_left_out(Check& check, int cases_run) {
  if (cases_run == 0 && !sanitizer_hosts_graded_run()) {
    check.set_verdict(Verdict::skipped,
                      "every case is too large to run under compute-sanitizer; they run in the "
                      "graded run");
  }
}

}  // namespace harness
