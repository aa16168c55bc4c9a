// What a batch report says of a check with no record (batch/not_run.hpp): why, never "run ctest".
#include "batch/not_run.hpp"

#include <gtest/gtest.h>

namespace batch {
namespace {

GradedOutcome outcome_of(Status status, std::string message) {
  GradedOutcome outcome;
  outcome.status = status;
  outcome.message = std::move(message);
  return outcome;
}

TEST(NotRun, SaysWhyTheSubmissionWasNotGraded) {
  EXPECT_EQ(not_run_reason(outcome_of(Status::link_error,
                                      "kernel.cu calls cublasSgemm_v2 (cuBLAS), which this lab "
                                      "does not allow: the work must be done by your kernel")),
            "did not run: link error (kernel.cu calls cublasSgemm_v2 (cuBLAS), which this lab "
            "does not allow: the work must be done by your kernel)");
  EXPECT_EQ(not_run_reason(outcome_of(Status::no_kernel_file, "no kernel file")),
            "did not run: no kernel file");
  EXPECT_EQ(not_run_reason(outcome_of(Status::build_timed_out, "")),
            "did not run: build timed out");
}

TEST(NotRun, AGradedSubmissionWithoutARecordSaysSo) {
  EXPECT_EQ(not_run_reason(outcome_of(Status::graded, "")),
            "did not run: the lab program left no record of it");
}

TEST(NotRun, NeverTellsTheStudentToRunCtest) {
  for (const auto status : {Status::graded, Status::compile_error, Status::interrupted,
                            Status::grader_error, Status::not_graded}) {
    EXPECT_EQ(not_run_reason(outcome_of(status, "x")).find("ctest"), std::string::npos)
        << status_words(status);
  }
}

}  // namespace
}  // namespace batch
