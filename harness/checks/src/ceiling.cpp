#include "harness/ceiling.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace harness {

int fp32_lanes_per_sm(int major, int minor) {
  // 64 lanes: Pascal's GP100 (6.0), Volta and Turing (7.x), the A100 (8.0). Every other
  // architecture since Maxwell has 128 (Hopper 9.0, Ada 8.9, consumer Ampere 8.6, Blackwell).
  if (major == 7 || (major == 6 && minor == 0) || (major == 8 && minor == 0)) return 64;
  return 128;
}

Ceiling fp32_peak(const DeviceRoofFacts& facts) {
  if (facts.sm_count <= 0 || facts.sm_clock_khz <= 0) return {};
  const int lanes = fp32_lanes_per_sm(facts.compute_major, facts.compute_minor);
  const double gflops = facts.sm_count * (facts.sm_clock_khz * 1e3) * lanes * 2.0 / 1e9;
  return {gflops, fmt::format("this GPU's FP32 peak ({} SMs x {} MHz x {} lanes x 2 = {:.1f} "
                              "TFLOP/s)",
                              facts.sm_count, facts.sm_clock_khz / 1000, lanes, gflops / 1e3)};
}

Ceiling memory_bandwidth(const DeviceRoofFacts& facts, double measured_gbps) {
  const double dram = facts.memory_clock_khz > 0 && facts.memory_bus_bits > 0
                          ? 2.0 * facts.memory_clock_khz * 1e3 * facts.memory_bus_bits / 8 / 1e9
                          : 0.0;
  if (dram <= 0 && measured_gbps <= 0) return {};
  if (dram >= measured_gbps) {
    return {dram, fmt::format("this GPU's memory bandwidth ({} MHz x 2 x {} bits = {:.0f} GB/s)",
                              facts.memory_clock_khz / 1000, facts.memory_bus_bits, dram)};
  }
  return {measured_gbps,
          fmt::format("this GPU's memory bandwidth (cudaMemcpy measured {:.0f} GB/s in this run)",
                      measured_gbps)};
}

Ceiling ceiling_of(const std::string& rate_unit, const DeviceRoofFacts& facts,
                   double measured_gbps) {
  if (rate_unit == "GFLOP/s") return fp32_peak(facts);
  if (rate_unit == "GB/s") return memory_bandwidth(facts, measured_gbps);
  return {};
}

std::optional<std::string> beyond_ceiling(const Timing& timing) {
  if (timing.ceiling <= 0 || !(timing.rate > timing.ceiling * (1 + kCeilingMargin))) {
    return std::nullopt;
  }
  return fmt::format(
      "implausible: measured {:.0f} {} ({:.0f}% of {}), beyond {}: no kernel can do that, so "
      "the timing did not see all the work the kernel did (state kept between calls, work "
      "left to another time); its speed earns nothing",
      timing.rate, timing.rate_unit, timing.ratio * 100, timing.reference_name,
      timing.ceiling_name.empty() ? fmt::format("{:.0f} {}", timing.ceiling, timing.rate_unit)
                                  : timing.ceiling_name);
}

}  // namespace harness
