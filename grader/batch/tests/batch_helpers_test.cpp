// The batch's small helpers: whole files (batch/files.hpp), the secret seed
// (batch/secret_seed.hpp), the reference's time limits (batch/time_limits.hpp) and the grading
// options a shard plan keeps (batch/grading_options.hpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "batch/files.hpp"
#include "batch/grading_options.hpp"
#include "batch/secret_seed.hpp"
#include "batch/time_limits.hpp"

namespace batch {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const auto dir = fs::temp_directory_path() / ("labgrade-helpers-test-" + name);
  fs::remove_all(dir);
  return dir;
}

TEST(Files, AWholeFileIsWrittenWithItsFolderAndReadBack) {
  const auto dir = fresh_dir("files");
  write_whole_file(dir / "a" / "b.txt", std::string("one\0two", 7));
  EXPECT_EQ(read_whole_file(dir / "a" / "b.txt"), std::string("one\0two", 7));
  write_whole_file(dir / "a" / "b.txt", "again");
  EXPECT_EQ(read_whole_file(dir / "a" / "b.txt"), "again");
  EXPECT_EQ(read_whole_file(dir / "missing.txt"), "");
  for (const auto& entry : fs::directory_iterator(dir / "a")) {
    EXPECT_EQ(entry.path().filename(), "b.txt") << "a temporary file was left";
  }
}

TEST(Files, InsideMeansTheFolderOrBelowIt) {
  const auto dir = fresh_dir("inside");
  fs::create_directories(dir / "submissions" / "alice");
  EXPECT_TRUE(is_inside(dir / "submissions" / "out", dir / "submissions"));
  EXPECT_TRUE(is_inside(dir / "submissions", dir / "submissions"));
  EXPECT_TRUE(is_inside(dir / "submissions" / "alice" / ".." / "out", dir / "submissions"));
  EXPECT_FALSE(is_inside(dir / "out", dir / "submissions"));
  EXPECT_FALSE(is_inside(dir / "submissions-out", dir / "submissions"));
}

TEST(SecretSeed, IsShortAndFresh) {
  std::set<std::uint64_t> seeds;
  for (int i = 0; i < 8; ++i) {
    const auto seed = fresh_secret_seed();
    EXPECT_LT(seed, 1000000000ULL);
    seeds.insert(seed);
  }
  EXPECT_GT(seeds.size(), 1u);
}

contract::CheckRecord timed(std::string check, contract::Verdict verdict, double seconds,
                            std::string backend = "cuda") {
  contract::CheckRecord record;
  record.check = std::move(check);
  record.verdict = verdict;
  record.duration_s = seconds;
  record.backend = std::move(backend);
  return record;
}

TEST(TimeLimits, TenTimesTheReferenceAndAtLeastTwentySeconds) {
  const auto limits = limits_from_reference({timed("A.Fast", contract::Verdict::pass, 0.5),
                                             timed("A.Slow", contract::Verdict::pass, 7),
                                             timed("A.Failed", contract::Verdict::fail, 3),
                                             timed("A.Untimed", contract::Verdict::pass, 0)});
  EXPECT_EQ(limits.over_reference, kLimitOverReference);
  EXPECT_EQ(limits.seconds.size(), 2u);
  EXPECT_EQ(limits.seconds.at("A.Fast"), kLeastCheckLimit);
  EXPECT_EQ(limits.seconds.at("A.Slow"), 70);
}

TEST(TimeLimits, UnderTheEmulationMoreRoomForBarriers) {
  const auto limits =
      limits_from_reference({timed("A.Slow", contract::Verdict::pass, 2, "emulation (cpu)")});
  EXPECT_EQ(limits.over_reference, kEmulatedLimitOverReference);
  EXPECT_EQ(limits.seconds.at("A.Slow"), 80);
}

TEST(GradingOptions, RoundTripThroughAPlan) {
  BatchOptions planned;
  planned.max_check_seconds = 12.5;
  planned.build_seconds = 99;
  planned.memory_bytes = 3ull << 30;
  planned.max_processes = 17;
  planned.shared_runs_per_gpu = 3;
  planned.unsandboxed = true;
  planned.root_in_sandbox = true;
  planned.verify_with_reference = false;
  planned.emulated_pass = "/kits/emu/lab6";
  planned.jobs = 5;  // a node's own choice: not in the plan
  const auto saved = grading_options_json(planned);
  EXPECT_EQ(saved.size(), 9u);
  EXPECT_FALSE(saved.contains("jobs"));
  EXPECT_EQ(saved.at("memory_bytes"), 3ull << 30);

  BatchOptions node;
  apply_grading_options(nlohmann::json::parse(saved.dump()), node);
  EXPECT_EQ(node.max_check_seconds, 12.5);
  EXPECT_EQ(node.build_seconds, 99);
  EXPECT_EQ(node.memory_bytes, 3ull << 30);
  EXPECT_EQ(node.max_processes, 17);
  EXPECT_EQ(node.shared_runs_per_gpu, 3);
  EXPECT_TRUE(node.unsandboxed);
  EXPECT_TRUE(node.root_in_sandbox);
  EXPECT_FALSE(node.verify_with_reference);
  EXPECT_EQ(node.emulated_pass, "/kits/emu/lab6");
  EXPECT_EQ(node.jobs, 0);
}

TEST(GradingOptions, AMissingOptionIsAnError) {
  auto saved = grading_options_json(BatchOptions{});
  saved.erase("build_seconds");
  BatchOptions node;
  EXPECT_THROW(apply_grading_options(saved, node), nlohmann::json::exception);
}

}  // namespace
}  // namespace batch
