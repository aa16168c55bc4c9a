// One check as the report shows it: the spec's words, the record's outcome, and what to say when
// there is no record. Resolved once so every section tells the same story.
#pragma once

#include <string>
#include <vector>

#include "contract/grade.hpp"

namespace reports::detail {

struct CheckView {
  std::string anchor;  // id of the check's details section, e.g. "check-2"
  std::string id;      // "CopyMatrix.Correctness"
  std::string title;
  std::string kind;
  contract::Verdict verdict = contract::Verdict::not_run;
  std::string reason;
  double points = 0;
  double max_points = 0;
  const contract::CheckRecord* record = nullptr;  // null: the check did not run
};

// One view per check of the grade, in spec order. The views point into `grade`. A check without
// a record says `no_record_reason`, or, when that is empty, to run the lab's checks with ctest.
std::vector<CheckView> make_check_views(const contract::LabGrade& grade,
                                        const std::string& no_record_reason = {});

}  // namespace reports::detail
