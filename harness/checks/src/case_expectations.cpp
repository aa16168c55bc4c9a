// The expectations a check's case states about a GPU buffer: its values, its guard zones, an
// input left unchanged. Each failed one adds its words to the case's reason.
#include <fmt/format.h>

#include "harness/check.hpp"
#include "harness/compare.hpp"

namespace harness {

void fail_case(CaseResult& result, const std::string& reason) {
  result.verdict = Verdict::fail;
  result.reason = result.reason.empty() ? reason : result.reason + "; " + reason;
}

void expect_matrix(CaseResult& result, const std::vector<float>& expected, const DeviceBuffer& got,
                   long long rows, long long cols, const std::vector<float>& tolerance) {
  const auto values = got.download();
  CaseResult comparison = compare_matrices(expected, values, rows, cols, tolerance);
  result.total = comparison.total;
  result.mismatches = comparison.mismatches;
  result.nan_count = comparison.nan_count;
  result.max_abs_error = comparison.max_abs_error;
  result.tolerance = comparison.tolerance;
  result.first_mismatches = std::move(comparison.first_mismatches);
  result.error_map = std::move(comparison.error_map);
  // An exact output's digest is what the batch attests a submission's outputs by (verify.hpp).
  result.output_digest = std::move(comparison.output_digest);
  if (comparison.verdict != Verdict::pass) fail_case(result, comparison.reason);
}

void expect_guards_intact(CaseResult& result, const DeviceBuffer& buffer, long long cols) {
  auto writes = buffer.check_guards();
  if (writes.empty()) return;
  const auto& first = writes.front();
  const long long size = static_cast<long long>(buffer.size());
  std::string where;
  if (first.offset < 0) {
    where = fmt::format("{} elements before its start", -first.offset);
  } else {
    const long long past = first.offset - size;
    where = fmt::format("{} elements past its end (as if row {}, col {})", past + 1,
                        first.offset / cols, first.offset % cols);
  }
  fail_case(result,
            fmt::format("wrote outside {}: {} (check the bounds guard)", buffer.name(), where));
  result.out_of_bounds.insert(result.out_of_bounds.end(), writes.begin(), writes.end());
}

void expect_unchanged(CaseResult& result, const DeviceBuffer& input, const HostView& original) {
  const auto changed = [&](std::size_t i, const std::string& was, const std::string& now) {
    fail_case(result, fmt::format("the input {} was changed (first at element {}: was {}, now "
                                  "{}); are the arguments swapped?",
                                  input.name(), i, was, now));
  };
  if (original.element() == Element::int32) {
    const auto now = input.download_ints();
    const auto* was = original.as<std::int32_t>();
    for (std::size_t i = 0; i < now.size(); ++i) {
      if (now[i] != was[i]) return changed(i, std::to_string(was[i]), std::to_string(now[i]));
    }
    return;
  }
  const auto now = input.download();
  const auto* was = original.as<float>();
  for (std::size_t i = 0; i < now.size(); ++i) {
    if (!(now[i] == was[i])) return changed(i, format_value(was[i]), format_value(now[i]));
  }
}

}  // namespace harness
