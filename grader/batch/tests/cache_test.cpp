#include "batch/cache.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>

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
  outcome.status = Status::graded;
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
  EXPECT_EQ(found->status, Status::graded);
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

TEST(ResultCache, AnEntryKeepsTheGradebooksWordsForItsStatus) {
  const auto dir = fresh_dir("words");
  auto outcome = sample();
  outcome.status = Status::compile_error;
  ResultCache(dir, "g").store("alice", "kernel text", outcome);
  std::ifstream in(dir / "alice.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("\"status\":\"compile error\""), std::string::npos) << text;
  EXPECT_EQ(ResultCache(dir, "g").find("alice", "kernel text")->status, Status::compile_error);
}

TEST(ResultCache, AnEntryWithAStatusNoLongerKnownIsGradedAgain) {
  const auto dir = fresh_dir("unknown-status");
  ResultCache(dir, "g").store("alice", "kernel text", sample());
  std::ifstream in(dir / "alice.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  text.replace(text.find("\"graded\""), 8, "\"gradd\"");
  std::ofstream(dir / "alice.json", std::ios::trunc) << text;
  EXPECT_FALSE(ResultCache(dir, "g").find("alice", "kernel text"));
}

}  // namespace
}  // namespace batch
