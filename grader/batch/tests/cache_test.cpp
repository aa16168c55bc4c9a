#include "batch/cache.hpp"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace batch {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const auto dir = fs::temp_directory_path() / ("labgrade-cache-test-" + name);
  fs::remove_all(dir);
  return dir;
}

GradedOutcome sample() {
  GradedOutcome outcome;
  outcome.status = "graded";
  outcome.message = "note";
  contract::CheckRecord record;
  record.check = "Lab.First";
  record.verdict = contract::Verdict::pass;
  outcome.records.push_back(record);
  return outcome;
}

TEST(ResultCache, AFinishedSubmissionIsFoundAgain) {
  const auto dir = fresh_dir("found");
  ResultCache(dir, "grader-1").store("alice", "kernel text", sample());
  const auto found = ResultCache(dir, "grader-1").find("alice", "kernel text");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->status, "graded");
  ASSERT_EQ(found->records.size(), 1u);
  EXPECT_EQ(found->records[0].verdict, contract::Verdict::pass);
}

TEST(ResultCache, AnotherKernelOrAnotherGraderIsGradedAgain) {
  const auto dir = fresh_dir("miss");
  ResultCache(dir, "grader-1").store("alice", "kernel text", sample());
  EXPECT_FALSE(ResultCache(dir, "grader-1").find("alice", "kernel text, edited"));
  EXPECT_FALSE(ResultCache(dir, "grader-2").find("alice", "kernel text"));
  EXPECT_FALSE(ResultCache(dir, "grader-1").find("bob", "kernel text"));
}

TEST(ResultCache, ADamagedEntryIsGradedAgain) {
  const auto dir = fresh_dir("damaged");
  ResultCache cache(dir, "grader-1");
  cache.store("alice", "kernel text", sample());
  std::ofstream(dir / "alice.json", std::ios::trunc) << "{\"grader\": \"grader-1\", \"ker";
  EXPECT_FALSE(cache.find("alice", "kernel text"));
}

TEST(ResultCache, InvalidUtf8InStudentTextDoesNotStopTheCache) {
  const auto dir = fresh_dir("utf8");
  ResultCache cache(dir, "g");
  auto outcome = sample();
  outcome.build_output = "error near \xff\xfe";
  cache.store("mallory", "kernel \xc3", outcome);
  EXPECT_TRUE(fs::exists(dir / "mallory.json"));
}

}  // namespace
}  // namespace batch
