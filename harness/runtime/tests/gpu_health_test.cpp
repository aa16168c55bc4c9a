// The GPU health verdict from NVML samples, and the path where NVML is missing.
#include "harness/gpu_health.hpp"

#include <gtest/gtest.h>

namespace harness {
namespace {

HealthSample sample(unsigned long long reasons, int processes) {
  HealthSample s;
  s.available = true;
  s.clock_reasons = reasons;
  s.processes = processes;
  return s;
}

TEST(GpuHealth, WithoutNvmlNothingIsChecked) {
  const auto missing = sample_gpu_health("0000:00:00.0", "/nonexistent/libnvidia-ml.so.1");
  EXPECT_FALSE(missing.available);
  const auto health = judge_gpu_health(missing, missing);
  EXPECT_FALSE(health.checked);
  EXPECT_FALSE(health.throttled);
  EXPECT_NE(health.text.find("GPU health not checked"), std::string::npos) << health.text;
}

TEST(GpuHealth, QuietGpu) {
  const auto health = judge_gpu_health(sample(0x1, 1), sample(0x4, 1));  // idle, power cap
  EXPECT_TRUE(health.checked);
  EXPECT_FALSE(health.throttled);
  EXPECT_FALSE(health.busy);
}

TEST(GpuHealth, ThermalThrottleAfterTiming) {
  const auto health = judge_gpu_health(sample(0, 1), sample(0x40, 1));
  EXPECT_TRUE(health.throttled);
  EXPECT_NE(health.text.find("hardware thermal limit"), std::string::npos) << health.text;
}

TEST(GpuHealth, AnotherProcessMakesItBusy) {
  const auto health = judge_gpu_health(sample(0, 2), sample(0, 1));
  EXPECT_TRUE(health.busy);
  EXPECT_FALSE(judge_gpu_health(sample(0, -1), sample(0, 0)).busy);  // NVML could not say
}

}  // namespace
}  // namespace harness
