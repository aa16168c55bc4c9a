// The physical ceilings of speed figures (harness/ceiling.hpp): no GPU needed.
#include "harness/ceiling.hpp"

#include <gtest/gtest.h>

namespace harness {
namespace {

// An H100 SXM as its driver describes it.
DeviceRoofFacts h100() {
  DeviceRoofFacts facts;
  facts.sm_count = 132;
  facts.sm_clock_khz = 1980000;
  facts.compute_major = 9;
  facts.compute_minor = 0;
  facts.memory_clock_khz = 2619000;
  facts.memory_bus_bits = 5120;
  return facts;
}

TEST(Ceiling, Fp32PeakOfAnH100) {
  const auto peak = fp32_peak(h100());
  EXPECT_NEAR(peak.rate, 66908, 1);  // 132 x 1.98 GHz x 128 x 2
  EXPECT_NE(peak.name.find("FP32 peak"), std::string::npos) << peak.name;
}

TEST(Ceiling, LanesPerSmFollowTheArchitecture) {
  EXPECT_EQ(fp32_lanes_per_sm(8, 0), 64);   // A100
  EXPECT_EQ(fp32_lanes_per_sm(7, 0), 64);   // V100
  EXPECT_EQ(fp32_lanes_per_sm(8, 6), 128);  // consumer Ampere
  EXPECT_EQ(fp32_lanes_per_sm(9, 0), 128);  // H100
}

TEST(Ceiling, BandwidthIsTheDramsOrTheMeasuredCopysWhicheverIsHigher) {
  const auto dram = memory_bandwidth(h100(), 2900);
  EXPECT_NEAR(dram.rate, 3352, 1);  // 2 x 2619 MHz x 640 bytes
  DeviceRoofFacts unknown;
  const auto measured = memory_bandwidth(unknown, 2900);
  EXPECT_DOUBLE_EQ(measured.rate, 2900);
  EXPECT_NE(measured.name.find("cudaMemcpy"), std::string::npos) << measured.name;
  EXPECT_DOUBLE_EQ(memory_bandwidth(unknown, 0).rate, 0);  // nothing known: no ceiling
}

TEST(Ceiling, UnitsChooseTheirCeiling) {
  EXPECT_NEAR(ceiling_of("GFLOP/s", h100(), 0).rate, 66908, 1);
  EXPECT_NEAR(ceiling_of("GB/s", h100(), 0).rate, 3352, 1);
  EXPECT_DOUBLE_EQ(ceiling_of("elements/s", h100(), 0).rate, 0);
}

Timing timing_at(double rate, double ceiling) {
  Timing t;
  t.rate = rate;
  t.rate_unit = "GFLOP/s";
  t.reference_name = "cuBLAS SGEMM (FP32)";
  t.ratio = rate / 51500;
  t.ceiling = ceiling;
  t.ceiling_name = "this GPU's FP32 peak";
  return t;
}

TEST(Ceiling, TheIssuesFigureIsBeyondIt) {
  // Lab 8's kernel that skipped work on repeated calls: 2771841 GFLOP/s, 5382% of cuBLAS.
  const auto why = beyond_ceiling(timing_at(2771841, 66908));
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("implausible"), std::string::npos) << *why;
  EXPECT_NE(why->find("this GPU's FP32 peak"), std::string::npos) << *why;
  EXPECT_NE(why->find("5382%"), std::string::npos) << *why;
}

TEST(Ceiling, HonestFiguresAndTheMarginAreNot) {
  EXPECT_FALSE(beyond_ceiling(timing_at(51500, 66908)));  // cuBLAS itself
  EXPECT_FALSE(beyond_ceiling(timing_at(66908 * (1 + kCeilingMargin), 66908)));
  EXPECT_TRUE(beyond_ceiling(timing_at(66908 * (1 + kCeilingMargin) * 1.001, 66908)));
  EXPECT_FALSE(beyond_ceiling(timing_at(1e9, 0)));  // unknown ceiling: nothing to hold it to
}

}  // namespace
}  // namespace harness
