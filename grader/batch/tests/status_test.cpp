// The statuses' words (batch/status.hpp): the gradebook, CSV, Gradescope and JUnit print them, and
// the cache and outcome files keep them, so they must not change with the enum.
#include "batch/status.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "exports/outcome.hpp"

namespace batch {
namespace {

TEST(Status, TheGradebooksWordsStayTheSame) {
  EXPECT_EQ(status_words(Status::graded), "graded");
  EXPECT_EQ(status_words(Status::results_rejected), "results rejected");
  EXPECT_EQ(status_words(Status::compile_error), "compile error");
  EXPECT_EQ(status_words(Status::link_error), "link error");
  EXPECT_EQ(status_words(Status::build_timed_out), "build timed out");
  EXPECT_EQ(status_words(Status::no_kernel_file), "no kernel file");
  EXPECT_EQ(status_words(Status::not_a_text_file), "not a text file");
  EXPECT_EQ(status_words(Status::bad_archive), "bad archive");
  EXPECT_EQ(status_words(Status::kernel_refused), "kernel refused");
  EXPECT_EQ(status_words(Status::interrupted), "interrupted");
  EXPECT_EQ(status_words(Status::grader_error), "grader error");
  EXPECT_EQ(status_words(Status::not_graded), "not graded");
}

TEST(Status, GradedIsWhatTheExportsCallGraded) {
  EXPECT_EQ(status_words(Status::graded), exports::kGradedStatus);
}

TEST(Status, EveryStatusIsReadBackFromItsWords) {
  std::set<std::string> seen;
  for (int value = 0; value <= static_cast<int>(Status::not_graded); ++value) {
    const auto status = static_cast<Status>(value);
    const std::string words(status_words(status));
    EXPECT_TRUE(seen.insert(words).second) << "two statuses say " << words;
    EXPECT_EQ(status_from_words(words), status) << words;
  }
  EXPECT_FALSE(status_from_words("Graded"));
  EXPECT_FALSE(status_from_words(""));
}

TEST(Status, OnlyARunSubmissionHasRecordsToGrade) {
  EXPECT_TRUE(has_records_to_grade(Status::graded));
  EXPECT_TRUE(has_records_to_grade(Status::results_rejected));
  EXPECT_FALSE(has_records_to_grade(Status::compile_error));
  EXPECT_FALSE(has_records_to_grade(Status::interrupted));
  EXPECT_FALSE(has_records_to_grade(Status::not_graded));
}

}  // namespace
}  // namespace batch
