// What a batch report says of a check with no record (batch/not_run.hpp): why, never "run ctest".
#include "batch/not_run.hpp"

#include <gtest/gtest.h>

namespace batch {
namespace {

GradedOutcome outcome_of(std::string status, std::string message) {
  GradedOutcome outcome;
  outcome.status = std::move(status);
  outcome.message = std::move(message);
  return outcome;
}

TEST(NotRun, SaysWhyTheSubmissionWasNotGraded) {
  EXPECT_EQ(not_run_reason(outcome_of("link error",
                                      "kernel.cu calls cublasSgemm_v2 (cuBLAS), which this lab "
                                      "does not allow: the work must be done by your kernel")),
            "did not run: link error (kernel.cu calls cublasSgemm_v2 (cuBLAS), which this lab "
            "does not allow: the work must be done by your kernel)");
  EXPECT_EQ(not_run_reason(outcome_of("no kernel file", "no kernel file")),
            "did not run: no kernel file");
  EXPECT_EQ(not_run_reason(outcome_of("build timed out", "")), "did not run: build timed out");
}

TEST(NotRun, AGradedSubmissionWithoutARecordSaysSo) {
  EXPECT_EQ(not_run_reason(outcome_of("graded", "")),
            "did not run: the lab program left no record of it");
}

TEST(NotRun, NeverTellsTheStudentToRunCtest) {
  for (const auto* status : {"graded", "compile error", "interrupted", "grader error", ""}) {
    EXPECT_EQ(not_run_reason(outcome_of(status, "x")).find("ctest"), std::string::npos) << status;
  }
}

}  // namespace
}  // namespace batch
