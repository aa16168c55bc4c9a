// The shared-memory structure check's verdict (judge_shared_memory, harness/matmul_checks.hpp)
// on recorded launches: no GPU needed, the launches are made up.
#include <string>

#include <gtest/gtest.h>

#include "harness/check.hpp"
#include "harness/matmul_checks.hpp"

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

std::size_t occurrences(const std::string& text, const std::string& word) {
  std::size_t count = 0;
  for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++count;
  return count;
}

TEST(SharedMemoryVerdict, NamesEachLaunchWithoutSharedMemoryOnce) {
  Check check(shared_memory_spec());
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
  Check check(shared_memory_spec());
  RecordedActivity activity;
  activity.kernels.push_back(launch_of("tiled(float const*, float const*, float*, int)", 2048));
  judge_shared_memory(check, activity, "Mds and Nds");
  const auto record = check.finish(0.0);
  EXPECT_EQ(record.verdict, Verdict::pass);
  EXPECT_EQ(record.reason, "1 kernel launch(es), each with shared memory (2048 bytes or more)");
}

}  // namespace
}  // namespace harness
