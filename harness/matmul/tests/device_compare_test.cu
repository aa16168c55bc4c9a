// The checks done on the GPU (device_compare.hpp, check_large_matmul) must agree with the host's:
// the same digest, the same verdicts, and a wrong large product still explained element by
// element. Needs a GPU (exit 77, skipped, without one); under the CPU emulation it runs on
// smaller sizes.
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "harness/compare.hpp"
#include "harness/cuda_check.hpp"
#include "harness/device_buffer.hpp"
#include "harness/device_compare.hpp"
#include "harness/device_info.hpp"
#include "harness/matmul.hpp"

namespace harness {
namespace {

#ifdef LABS_EMULATION
constexpr int kWidth = 64;  // the emulated cuBLAS stand-in is a plain CPU loop
#else
constexpr int kWidth = 1024;  // large enough to be checked on the GPU in the labs
#endif

std::vector<float> random_values(std::size_t count, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<float> uniform(-8, 8);
  std::vector<float> values(count);
  for (auto& v : values) v = uniform(engine);
  return values;
}

// A payload-only device copy of host values.
struct OnDevice {
  explicit OnDevice(const std::vector<float>& values) : buffer("values", values.size(), 0) {
    buffer.upload(values);
  }
  DeviceBuffer buffer;
  float* data() { return buffer.data(); }
};

TEST(DeviceCompare, DigestIsTheHostDigest) {
  auto values = random_values(100003, 1);
  values[5] = -0.0f;
  values[6] = std::numeric_limits<float>::quiet_NaN();
  OnDevice device(values);
  EXPECT_EQ(output_digest_on_device(device.data(), values.size()),
            output_digest(values.data(), values.size()));
  std::swap(values[0], values[1]);  // the same values elsewhere: another output
  EXPECT_NE(output_digest_on_device(device.data(), values.size()),
            output_digest(values.data(), values.size()));
}

TEST(DeviceCompare, ExactComparisonAgreesWithTheHost) {
  const auto expected = random_values(4096, 2);
  auto got = expected;
  got[10] += 1;
  got[20] = std::numeric_limits<float>::quiet_NaN();
  got[30] = std::numeric_limits<float>::infinity();
  OnDevice e(expected);
  OnDevice g(got);
  const auto device = compare_on_device(e.data(), g.data(), nullptr, 1.0, got.size());
  const auto host = compare_matrices(expected, got, 64, 64);
  EXPECT_EQ(device.mismatches, 3);
  EXPECT_EQ(device.mismatches, host.mismatches);
  EXPECT_EQ(device.digest, host.output_digest);
  EXPECT_FLOAT_EQ(device.max_abs_error, host.max_abs_error);
  EXPECT_EQ(device.max_tolerance, 0.0);
}

TEST(DeviceCompare, ToleranceIsScaledPerElement) {
  const auto expected = random_values(4096, 3);
  std::vector<float> magnitude(expected.size(), 1.0f);
  auto got = expected;
  got[1] += 1.5f;  // within the bound, 2 x 1
  got[2] += 2.5f;  // beyond it
  got[3] += 100;   // far beyond
  std::vector<float> tolerance(expected.size());
  for (std::size_t i = 0; i < tolerance.size(); ++i) tolerance[i] = 2.0f * magnitude[i];
  OnDevice e(expected);
  OnDevice g(got);
  OnDevice m(magnitude);
  const auto device = compare_on_device(e.data(), g.data(), m.data(), 2.0, got.size());
  const auto host = compare_matrices(expected, got, 64, 64, tolerance);
  EXPECT_EQ(device.mismatches, 2);
  EXPECT_EQ(device.mismatches, host.mismatches);
  EXPECT_FLOAT_EQ(device.max_tolerance, 2.0f);
}

// Launchers a student could write, on device pointers (A is m x k, B is k x n).
void right_product(const float* a, const float* b, float* c, const MatmulShape& shape) {
  naive_reference(a, b, c, shape).run();
  CUDA_CHECK(cudaDeviceSynchronize());
}

CaseResult run_large(Values values, const MatmulLauncher& launch) {
  CaseResult result;
  const auto shape = MatmulShape::square(kWidth);
  try {
    check_large_matmul(result, shape, values, 42, launch, "test launcher");
  } catch (const std::exception& error) {
    result.verdict = Verdict::error;
    result.reason = error.what();
  }
  return result;
}

TEST(CheckLargeMatmul, RightProductPassesWithItsDigest) {
  const auto shape = MatmulShape::square(kWidth);
  const auto launch = [&](const float* a, const float* b, float* c) {
    right_product(a, b, c, shape);
  };
  const auto integers = run_large(Values::integers, launch);
  EXPECT_EQ(integers.verdict, Verdict::pass) << integers.reason;
  EXPECT_EQ(integers.total, 1LL * kWidth * kWidth);
  EXPECT_EQ(integers.output_digest.size(), 16u);
  EXPECT_EQ(integers.output_digest, run_large(Values::integers, launch).output_digest)
      << "the same seed must give the same digest";
  const auto reals = run_large(Values::reals, launch);
  EXPECT_EQ(reals.verdict, Verdict::pass) << reals.reason;
  EXPECT_GT(reals.tolerance, 0.0);
  EXPECT_TRUE(reals.output_digest.empty());
}

TEST(CheckLargeMatmul, OneWrongElementIsFoundWithItsPosition) {
  const auto shape = MatmulShape::square(kWidth);
  const auto launch = [&](const float* a, const float* b, float* c) {
    right_product(a, b, c, shape);
    const float wrong = 12345.0f;
    CUDA_CHECK(cudaMemcpy(c + 3 * kWidth + 7, &wrong, sizeof wrong, cudaMemcpyHostToDevice));
  };
  const auto result = run_large(Values::integers, launch);
  EXPECT_EQ(result.verdict, Verdict::fail);
  EXPECT_EQ(result.mismatches, 1);
  ASSERT_FALSE(result.first_mismatches.empty()) << result.reason;
  EXPECT_EQ(result.first_mismatches.front().row, 3);
  EXPECT_EQ(result.first_mismatches.front().col, 7);
}

TEST(CheckLargeMatmul, ChangedInputFails) {
  const auto shape = MatmulShape::square(kWidth);
  const auto launch = [&](const float* a, const float* b, float* c) {
    right_product(a, b, c, shape);
    CUDA_CHECK(cudaMemset(const_cast<float*>(b), 0, sizeof(float)));
  };
  const auto result = run_large(Values::reals, launch);
  EXPECT_EQ(result.verdict, Verdict::fail);
  EXPECT_NE(result.reason.find("B was changed"), std::string::npos) << result.reason;
}

TEST(CheckLargeMatmul, WrongOnlyInTheFirstRunStillFails) {
  const auto shape = MatmulShape::square(kWidth);
  int runs = 0;
  const auto launch = [&](const float* a, const float* b, float* c) {
    right_product(a, b, c, shape);
    if (runs++ == 0) CUDA_CHECK(cudaMemset(c, 0, 4 * sizeof(float)));
  };
  const auto result = run_large(Values::integers, launch);
  EXPECT_EQ(result.verdict, Verdict::fail);
  EXPECT_NE(result.reason.find("wrong in the first run"), std::string::npos) << result.reason;
}

}  // namespace
}  // namespace harness

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const auto why = harness::gpu_unavailable_reason();
  if (!why.empty()) {
    std::printf("SKIPPED: %s; these tests need an NVIDIA GPU\n", why.c_str());
    return 77;
  }
  return RUN_ALL_TESTS();
}
