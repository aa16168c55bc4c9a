// The shared-memory structure check's verdict (judge_shared_memory, harness/matmul_checks.hpp)
// on recorded launches: no GPU needed, the launches are made up.
#include <string>

#include <gtest/gtest.h>

#include "harness/check.hpp"
#include "harness/matmul_checks.hpp"
#include "harness/observe.hpp"

namespace harness {
namespace {

CheckSpec shared_memory_spec() {
  CheckSpec spec;
  spec.id = "TiledMatmul.SharedMemory";
  spec.kind = "structure";
  spec.title = "uses shared memory";
  spec.points = 10;
  return spec;
}

KernelLaunch launch_of(const std::string& name, long long shared_bytes) {
  KernelLaunch launch;
  launch.name = name;
  launch.grid[0] = launch.grid[1] = 4;
  launch.block[0] = launch.block[1] = 16;
  launch.static_shared_bytes = shared_bytes;
  return launch;
}

// A 1D launch of `blocks` x `threads`, for the rule on small helper kernels.
KernelLaunch sized_launch_of(const std::string& name, unsigned blocks, unsigned threads,
                             long long shared_bytes) {
  auto launch = launch_of(name, shared_bytes);
  launch.grid[0] = blocks;
  launch.grid[1] = 1;
  launch.block[0] = threads;
  launch.block[1] = 1;
  return launch;
}

std::size_t occurrences(const std::string& text, const std::string& word) {
  std::size_t count = 0;
  for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++count;
  return count;
}

TEST(SharedMemoryVerdict, NamesEachLaunchWithoutSharedMemoryOnce) {
  const auto spec = shared_memory_spec();  // Check keeps a reference to its spec
  Check check(spec);
  RecordedActivity activity;
  activity.kernels.push_back(
      launch_of("MatrixMulKernel(float const*, float const*, float*, int)", 0));
  activity.kernels.push_back(launch_of("tiled(float const*, float const*, float*, int)", 2048));
  activity.kernels.push_back(launch_of("fixup(float*, int)", 0));
  judge_shared_memory(check, activity, "Mds and Nds");
  const auto record = check.finish(0.0);
  EXPECT_EQ(record.verdict, Verdict::fail);
  EXPECT_EQ(record.reason,
            "launched with no shared memory: MatrixMulKernel(float const*, float const*, float*, "
            "int): grid (4, 4, 1) x block (16, 16, 1); fixup(float*, int): grid (4, 4, 1) x "
            "block (16, 16, 1). The tiles Mds and Nds must be __shared__ arrays, and the product "
            "must be computed from them");
  EXPECT_EQ(occurrences(record.reason, "MatrixMulKernel("), 1u);
  ASSERT_TRUE(record.diagnosis);
  EXPECT_EQ(record.diagnosis->id, "no_shared_memory");
}

TEST(SharedMemoryVerdict, PassesWhenEveryLaunchHasSharedMemory) {
  const auto spec = shared_memory_spec();  // Check keeps a reference to its spec
  Check check(spec);
  RecordedActivity activity;
  activity.kernels.push_back(launch_of("tiled(float const*, float const*, float*, int)", 2048));
  judge_shared_memory(check, activity, "Mds and Nds");
  const auto record = check.finish(0.0);
  EXPECT_EQ(record.verdict, Verdict::pass);
  EXPECT_EQ(record.reason, "1 kernel launch(es), each with shared memory (2048 bytes or more)");
}

// judge_shared_memory_use (harness/observe.hpp), which judge_shared_memory wraps, on a
// reduction's launches: the lab 10 kernels of issue 30.
TEST(SharedMemoryUse, AHelperKernelThatZeroesTheOutputIsNotTheReduction) {
  // Real students' lab 10: a one-thread kernel zeroes out[0], then the tree reduction.
  const auto spec = shared_memory_spec();  // Check keeps a reference to its spec
  Check check(spec);
  RecordedActivity activity;
  activity.kernels = {sized_launch_of("clear(float*)", 1, 1, 0),
                      sized_launch_of("reduce(const float*, float*, int)", 4096, 256, 1024)};
  judge_shared_memory_use(check, activity, "the tree belongs in shared memory");
  const auto r = check.finish(0.0);
  EXPECT_EQ(r.verdict, Verdict::pass) << r.reason;
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes.back().find("clear(float*)"), std::string::npos) << r.notes.back();
}

TEST(SharedMemoryUse, AKernelWithoutSharedMemoryLargerThanEveryOneWithItFails) {
  // A token kernel with a few bytes of shared memory does not excuse the one doing the work.
  const auto spec = shared_memory_spec();  // Check keeps a reference to its spec
  Check check(spec);
  RecordedActivity activity;
  activity.kernels = {
      sized_launch_of("token(float*)", 1, 32, 4),
      sized_launch_of("sum_without_shared(const float*, float*, int)", 4096, 256, 0)};
  judge_shared_memory_use(check, activity, "the tree belongs in shared memory");
  const auto r = check.finish(0.0);
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_NE(r.reason.find("sum_without_shared"), std::string::npos) << r.reason;
  EXPECT_EQ(r.reason.find("token"), std::string::npos) << r.reason;
}

TEST(SharedMemoryUse, NoSharedMemoryAnywhereFails) {
  const auto spec = shared_memory_spec();  // Check keeps a reference to its spec
  Check check(spec);
  RecordedActivity activity;
  activity.kernels = {sized_launch_of("clear(float*)", 1, 1, 0),
                      sized_launch_of("atomic_sum(const float*, float*, int)", 4096, 256, 0)};
  judge_shared_memory_use(check, activity, "");
  const auto r = check.finish(0.0);
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_NE(r.reason.find("clear(float*)"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("atomic_sum"), std::string::npos) << r.reason;
}

}  // namespace
}  // namespace harness
