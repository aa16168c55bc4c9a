// Whether the GPU was fit to time on: NVML's clock-event (throttle) reasons and the processes on
// the GPU, read before and after the timed runs. NVML is loaded at run time (dlopen) and never
// linked, so the labs run where it is missing; then the health is "not checked". Host-only.
#pragma once

#include <optional>
#include <string>

#include "harness/contract.hpp"

namespace harness {

// One reading. Unset fields: NVML could not say.
struct HealthSample {
  bool available = false;
  std::string why_not;                   // when not available
  unsigned long long clock_reasons = 0;  // nvmlClocksEventReason* bits
  int processes = -1;                    // compute processes on the GPU, ours included
};

// The NVML bits that mean the clocks were held down by something other than the work itself:
// hardware slowdown (0x8), software thermal (0x20), hardware thermal (0x40), power brake (0x80).
// The software power cap (0x4) is left out: a GPU at full load meets it in normal running, and it
// slows the student's kernel and the reference alike.
constexpr unsigned long long kThrottleReasons = 0x8 | 0x20 | 0x40 | 0x80;

// Reads NVML for the GPU at `pci_bus_id` ("0000:3B:00.0"), loading `library` (normally
// "libnvidia-ml.so.1").
HealthSample sample_gpu_health(const std::string& pci_bus_id,
                               const std::string& library = "libnvidia-ml.so.1");

// What the samples before and after the timing say.
GpuHealth judge_gpu_health(const HealthSample& before, const HealthSample& after);

}  // namespace harness
