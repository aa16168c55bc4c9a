#include "batch/verdict_table.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "contract/exit_status.hpp"

namespace batch {
namespace {

using contract::CheckRecord;
using contract::Verdict;
namespace exit_status = contract::exit_status;

bool any_failed(const std::map<std::string, CheckRecord>& records) {
  return std::any_of(records.begin(), records.end(), [](const auto& entry) {
    return verdict_class(entry.second.verdict) == VerdictClass::failed;
  });
}

// What a lab program claims by ending with exit 77: nothing was judged.
bool nothing_judged(const CheckRecord& record) {
  return record.verdict == Verdict::skipped || record.verdict == Verdict::not_measured;
}

// Every record voided: the status and the records cannot both be true.
std::map<std::string, CheckRecord> void_all(std::map<std::string, CheckRecord> records,
                                            const std::string& claim, const std::string& how) {
  for (auto& [id, record] : records) {
    record.verdict = Verdict::error;
    record.fraction = 0;
    record.reason = fmt::format(
        "the results say {} but the program ended with {}: neither is believed", claim, how);
  }
  return records;
}

std::map<std::string, CheckRecord> judge_skipped_end(const contract::LabSpec& spec,
                                                     const std::vector<std::string>& checks,
                                                     std::map<std::string, CheckRecord> records,
                                                     const NormalEnd& end, bool gpu_expected) {
  const bool claims_hold = std::all_of(records.begin(), records.end(), [](const auto& entry) {
    return nothing_judged(entry.second);
  });
  if (!claims_hold) return void_all(std::move(records), "a check was judged", end.how);
  std::map<std::string, CheckRecord> decided;
  for (const auto& id : checks) {
    const auto kept = records.find(id);
    const bool skipped = kept == records.end() || kept->second.verdict == Verdict::skipped;
    if (gpu_expected && skipped) {
      // The solution found the GPU here; a student's program cannot wish it away.
      decided[id] = grader_record(
          spec, id, Verdict::fail,
          "the program said there is no usable GPU (exit status 77), but the reference solution "
          "ran on this GPU in the same sandbox: not believed");
    } else if (kept != records.end()) {
      decided[id] = std::move(kept->second);
    } else {
      decided[id] = grader_record(
          spec, id, Verdict::skipped,
          "no usable GPU: the lab program ended with exit status 77 before this check ran");
    }
  }
  return decided;
}

}  // namespace

int ctest_status(Verdict verdict) {
  switch (verdict_class(verdict)) {
    case VerdictClass::passed:
      return exit_status::pass;
    case VerdictClass::not_judged:
      return exit_status::skipped;
    case VerdictClass::failed:
      break;
  }
  return exit_status::fail;
}

std::optional<std::map<std::string, CheckRecord>> judge_normal_end(
    const contract::LabSpec& spec, const std::vector<std::string>& checks,
    const std::map<std::string, CheckRecord>& records, const NormalEnd& end, bool gpu_expected) {
  if (end.exit_code == exit_status::skipped) {
    return judge_skipped_end(spec, checks, records, end, gpu_expected);
  }
  if (end.exit_code == exit_status::bad_setup && records.empty()) {
    std::map<std::string, CheckRecord> decided;
    for (const auto& id : checks) {
      auto record =
          grader_record(spec, id, Verdict::error,
                        fmt::format("the lab program could not start its checks ({})", end.how));
      if (!end.tail.empty()) record.notes.push_back("last output: " + end.tail);
      decided[id] = std::move(record);
    }
    return decided;
  }
  const bool says_pass = end.exit_code == exit_status::pass;
  if ((says_pass || end.exit_code == exit_status::fail) && records.size() == checks.size()) {
    const bool failed = any_failed(records);
    if (failed == says_pass) {
      return void_all(records, failed ? "a check failed" : "no check failed", end.how);
    }
    return records;
  }
  return std::nullopt;
}

CheckRecord grader_record(const contract::LabSpec& spec, const std::string& check, Verdict verdict,
                          std::string reason) {
  CheckRecord record;
  record.lab = spec.lab;
  record.check = check;
  if (const auto* found = spec.find(check)) {
    record.kind = found->kind;
    record.title = found->title;
  }
  record.verdict = verdict;
  record.reason = std::move(reason);
  record.started_at = contract::utc_timestamp();
  record.backend.clear();  // the grader wrote it: no backend ran the check
  return record;
}

}  // namespace batch
