#include "batch/run_plan.hpp"

#include <algorithm>

namespace batch {
namespace {

bool listed(const std::vector<std::string>& ids, const std::string& id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

bool failed(const contract::CheckRecord& record) {
  return contract::verdict_class(record.verdict) == contract::VerdictClass::failed;
}

}  // namespace

std::vector<std::string> checks_of_kind(const contract::LabSpec& spec, bool speed) {
  std::vector<std::string> ids;
  for (const auto& check : spec.checks) {
    if ((check.kind == "speed") == speed) ids.push_back(check.id);
  }
  return ids;
}

std::vector<std::string> speed_run_checks(const contract::LabSpec& spec,
                                          const std::vector<std::string>& left) {
  if (checks_of_kind(spec, true).empty()) return {};
  std::vector<std::string> ids;
  for (const auto& check : spec.checks) {
    if (check.kind == "speed" || listed(left, check.id)) ids.push_back(check.id);
  }
  return ids;
}

std::vector<std::string> speed_checks_to_run_again(
    const contract::LabSpec& spec, const std::vector<std::string>& left,
    const std::vector<contract::CheckRecord>& records) {
  const auto speed = checks_of_kind(spec, true);
  bool left_failed = false;
  std::vector<std::string> again;
  for (const auto& record : records) {
    if (listed(left, record.check) && failed(record)) left_failed = true;
    if (left_failed && listed(speed, record.check) && failed(record) && !record.timing) {
      again.push_back(record.check);
    }
  }
  return again;
}

}  // namespace batch
