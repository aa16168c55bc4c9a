#include "expectation.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "contract/exit_status.hpp"
#include "expectation_parts.hpp"
#include "isolation_lines.hpp"

namespace grader {
namespace {

using contract::CheckRecord;
using contract::Verdict;
namespace exit_status = contract::exit_status;

constexpr const char* kNoneJudgeable = "skipped: none of the named checks can be judged here";

// A check this run cannot judge: a speed check under the emulation, or one skipped (no GPU).
// "not attempted" is not among them: a kernel named for a check must attempt it (a right one
// that does not has lost its points; a wrong one is not caught by it).
bool left_out(const contract::CheckRecord& record) {
  return record.verdict == contract::Verdict::not_measured ||
         record.verdict == contract::Verdict::skipped;
}

// The decision over a kernel that must fail, in the order its lines are printed: each named check,
// the diagnosis, the output's file names, the isolation, the evidence, then the verdict.
class FailureJudge {
 public:
  FailureJudge(const FailureExpectation& expected, const RunSeen& run,
               const FailureContext& context)
      : expected_(expected), run_(run), context_(context) {}

  Judgement decide() {
    const bool judged_by_evidence =
        !expected_.evidence.empty() && contract::ran_under_emulation(run_.records);
    if (nothing_judged(run_.records) && !judged_by_evidence) {
      return {{not_judged_skip_line(run_.records)}, exit_status::skipped};
    }
    for (const auto& check : run_.checks) judge_check(check);
    judge_primary_diagnosis();
    bad_ |= expectation_parts::grader_paths_shown(run_.output, lines_);
    if (judged_ > 0) judge_isolation();
    if (judged_by_evidence) {
      bad_ |= expectation_parts::evidence_missing(expected_.evidence, expected_.evidence_checks,
                                                  run_.records, context_.evidence_rerun, lines_);
      ++judged_;
      evidence_judged_ = true;
    }
    return conclude();
  }

 private:
  void say(std::string line) { lines_.push_back(std::move(line)); }

  void judge_check(const std::string& check) {
    const CheckRecord* record = expectation_parts::find_record(run_.records, check);
    if (!record) {
      say(fmt::format("NOT CAUGHT: {} left no result record", check));
      bad_ = true;
      return;
    }
    if (left_out(*record)) {
      say(expectation_parts::not_judged_line(*record));
      return;
    }
    ++judged_;
    const bool failed = record->verdict == Verdict::fail;
    if (failed && !expected_.reason.empty() &&
        !expectation_parts::holds_words(*record, expected_.reason)) {
      say(fmt::format("NOT CAUGHT: {} failed, but its reason is not \"{}...\": {}", check,
                      expected_.reason, record->reason));
      missed_ = true;
    } else if (failed) {
      say(fmt::format("caught: {} failed, as it must", check));
      ++caught_;
    } else if (record->verdict == Verdict::implausible) {
      // No points, but not caught as it must be: every timed call is verified, so a kernel that
      // skips work fails at that call; a figure beyond the GPU's ceiling means the verification
      // missed it (the ceiling is the last line of defence, not the test's).
      say(
          fmt::format("NOT CAUGHT: {} was only implausible (beyond the GPU's ceiling), not failed "
                      "by the verification of its timed calls: {}",
                      check, record->reason));
      missed_ = true;
    } else {
      say(fmt::format("NOT CAUGHT: {} was not failed: {}: {}", check,
                      contract::verdict_words(record->verdict), record->reason));
      missed_ = true;
    }
    // The emulation's schedules are not the GPU's: its diagnoses are shown, not judged.
    if (contract::ran_under_emulation(*record)) enforce_diagnosis_ = false;
    judge_diagnosis(check, *record);
  }

  void judge_diagnosis(const std::string& check, const CheckRecord& record) {
    const auto& allowed = expected_.diagnoses;
    if (allowed.empty()) return;
    if (!record.diagnosis || record.diagnosis->id.empty()) {
      say(fmt::format("  diagnosis: none given for {}", check));
      return;
    }
    const std::string& given = record.diagnosis->id;
    const std::string expected = fmt::format("{}", fmt::join(allowed, " "));
    if (std::find(allowed.begin(), allowed.end(), given) != allowed.end()) {
      say(fmt::format("  diagnosis: {} names {}, as expected", check, given));
      primary_seen_ = primary_seen_ || given == allowed.front();
    } else if (enforce_diagnosis_) {
      say(fmt::format("WRONG DIAGNOSIS: {} names {}; expected {}", check, given, expected));
      bad_ = true;
    } else {
      say(fmt::format("  diagnosis (emulation, not held to it): {} names {}; the GPU's is {}",
                      check, given, expected));
    }
  }

  void judge_primary_diagnosis() {
    if (expected_.diagnoses.empty() || primary_seen_ || judged_ == 0) return;
    const std::string& primary = expected_.diagnoses.front();
    if (enforce_diagnosis_) {
      say(fmt::format("WRONG DIAGNOSIS: no check named {}", primary));
      bad_ = true;
    } else {
      say(fmt::format("  diagnosis (emulation, not held to it): no check named {}", primary));
    }
  }

  void judge_isolation() {
    if (expected_.isolation == IsolationExpectation::by_hand) {
      bad_ |= expectation_parts::not_isolated_by_hand(run_.isolation_lines, lines_);
    } else if (expected_.isolation == IsolationExpectation::bubblewrap) {
      bad_ |=
          expectation_parts::out_of_sandbox(run_.isolation_lines, context_.bubblewrap_here, lines_);
    }
  }

  Judgement conclude() {
    if (judged_ == 0 && !bad_) return {{kNoneJudgeable}, exit_status::skipped};
    if (expected_.any) {
      if (caught_ > 0) {
        say(fmt::format("caught by {} of the checks, as it must be by at least one", caught_));
      } else if (judged_ > (evidence_judged_ ? 1 : 0)) {
        bad_ = true;
      }
    } else if (missed_) {
      bad_ = true;
    }
    const std::string why = why_not_isolated(run_.isolation_lines);
    if (expected_.isolation == IsolationExpectation::or_skip && !why.empty()) {
      if (bad_) {
        say(fmt::format(
            "skipped: this run was not isolated: its verdicts are a self-check ({}); a red-team "
            "case is stopped only by an isolated launcher (bubblewrap, or a lab program run as "
            "root)",
            why));
        return {std::move(lines_), exit_status::skipped};
      }
      say(fmt::format("note: caught, although this run was not isolated ({})", why));
    }
    return {std::move(lines_), bad_ ? exit_status::fail : exit_status::pass};
  }

  const FailureExpectation& expected_;
  const RunSeen& run_;
  const FailureContext& context_;
  std::vector<std::string> lines_;
  bool bad_ = false;
  bool missed_ = false;
  bool primary_seen_ = false;
  bool enforce_diagnosis_ = true;
  bool evidence_judged_ = false;
  int caught_ = 0;
  int judged_ = 0;
};

}  // namespace

bool nothing_judged(const std::vector<CheckRecord>& records) {
  return !records.empty() && std::all_of(records.begin(), records.end(), [](const auto& record) {
    return record.verdict == Verdict::skipped || record.verdict == Verdict::not_measured;
  });
}

std::string not_judged_skip_line(const std::vector<CheckRecord>& records) {
  const auto not_measured = std::find_if(records.begin(), records.end(), [](const auto& record) {
    return record.verdict == Verdict::not_measured;
  });
  if (not_measured != records.end()) {
    return "skipped: every named check is a speed check, not measured under the CPU emulation "
           "(docs/emulation-verdicts.md)";
  }
  const std::string why = records.empty() ? "" : records.front().reason;
  return why.empty() ? "skipped: no GPU to run the kernel on"
                     : fmt::format("skipped: no GPU to run the kernel on ({})", why);
}

Judgement judge_failure(const FailureExpectation& expected, const RunSeen& run,
                        const FailureContext& context) {
  return FailureJudge(expected, run, context).decide();
}

Judgement judge_pass(const RunSeen& run) {
  if (nothing_judged(run.records)) {
    return {{not_judged_skip_line(run.records)}, exit_status::skipped};
  }
  Judgement judgement;
  bool bad = false;
  int judged = 0;
  for (const auto& check : run.checks) {
    const CheckRecord* record = expectation_parts::find_record(run.records, check);
    if (!record) {
      judgement.lines.push_back(
          fmt::format("INNOCENT LOST POINTS: {} left no result record", check));
      bad = true;
    } else if (left_out(*record)) {
      judgement.lines.push_back(expectation_parts::not_judged_line(*record));
    } else if (record->verdict == Verdict::pass) {
      judgement.lines.push_back(fmt::format("passed: {}, as it must", check));
      ++judged;
    } else {
      judgement.lines.push_back(fmt::format("INNOCENT LOST POINTS: {}: {}: {}", check,
                                            contract::verdict_words(record->verdict),
                                            record->reason));
      bad = true;
      ++judged;
    }
  }
  if (judged == 0 && !bad) return {{kNoneJudgeable}, exit_status::skipped};
  judgement.status = bad ? exit_status::fail : exit_status::pass;
  return judgement;
}

}  // namespace grader
