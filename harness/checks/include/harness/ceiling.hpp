// The physical ceilings of a speed figure: no kernel does more floating-point work than the GPU's
// FP32 units can, nor moves memory faster than its DRAM. A figure beyond its ceiling (by more than
// kCeilingMargin) is not a fast kernel but work the trusted side did not see done: the check's
// verdict is implausible, whatever its cause, and it earns nothing.
#pragma once

#include <optional>
#include <string>

#include "harness/contract.hpp"

namespace harness {

// Clocks vary a little above what the driver reports; no honest kernel comes near either roof.
inline constexpr double kCeilingMargin = 0.05;

struct Ceiling {
  double rate = 0;   // GFLOP/s or GB/s; 0: unknown
  std::string name;  // how it was found, for the words of a figure beyond it
};

// What the device says of itself (cudaDeviceGetAttribute), for the ceilings below.
struct DeviceRoofFacts {
  int sm_count = 0;
  int sm_clock_khz = 0;
  int compute_major = 0;
  int compute_minor = 0;
  int memory_clock_khz = 0;
  int memory_bus_bits = 0;
};

// FP32 lanes per SM of a compute capability (a fused multiply-add each per clock); the larger
// count where unsure, so an honest kernel is never held to too low a roof.
int fp32_lanes_per_sm(int major, int minor);

// SMs x clock x FP32 lanes x 2 (an FMA is two operations), in GFLOP/s.
Ceiling fp32_peak(const DeviceRoofFacts& facts);

// The DRAM's bandwidth (2 transfers per memory clock x bus width), or `measured_gbps` (a copy
// timed in the same run) where that is higher or the device does not say; in GB/s.
Ceiling memory_bandwidth(const DeviceRoofFacts& facts, double measured_gbps);

// The ceiling of a figure in `rate_unit` ("GFLOP/s" or "GB/s"; other units have none).
Ceiling ceiling_of(const std::string& rate_unit, const DeviceRoofFacts& facts,
                   double measured_gbps);

// Why a timing's figure cannot be (its rate beyond ceiling x (1 + margin)); nothing when it can.
std::optional<std::string> beyond_ceiling(const Timing& timing);

// The current device's facts (on the GPU; zeros under the CPU emulation).
DeviceRoofFacts current_device_roof_facts();

}  // namespace harness
