#include "batch/not_run.hpp"

#include <fmt/format.h>

namespace batch {

std::string not_run_reason(const GradedOutcome& outcome) {
  // A graded submission has a record for every check (run_checks decides the missing ones);
  // a check without one was not in the run at all.
  if (has_records_to_grade(outcome.status)) {
    return "did not run: the lab program left no record of it";
  }
  if (outcome.status == Status::not_graded) return "did not run: the submission was not graded";
  const auto status = status_words(outcome.status);
  if (outcome.message.empty() || outcome.message == status) {
    return fmt::format("did not run: {}", status);
  }
  return fmt::format("did not run: {} ({})", status, outcome.message);
}

}  // namespace batch
