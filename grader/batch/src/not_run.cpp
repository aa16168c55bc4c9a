#include "batch/not_run.hpp"

#include <fmt/format.h>

namespace batch {

std::string not_run_reason(const GradedOutcome& outcome) {
  // A graded submission has a record for every check (run_checks decides the missing ones);
  // a check without one was not in the run at all.
  if (outcome.status == "graded" || outcome.status == "results rejected") {
    return "did not run: the lab program left no record of it";
  }
  if (outcome.status.empty()) return "did not run: the submission was not graded";
  if (outcome.message.empty() || outcome.message == outcome.status) {
    return fmt::format("did not run: {}", outcome.status);
  }
  return fmt::format("did not run: {} ({})", outcome.status, outcome.message);
}

}  // namespace batch
