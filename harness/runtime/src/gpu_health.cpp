#include "harness/gpu_health.hpp"

#include <dlfcn.h>

#include <string>
#include <vector>

#include <fmt/format.h>

namespace harness {
namespace {

// NVML's C interface, declared here so that no NVML header is needed to build.
using Device = void*;
using InitFn = int (*)();
using HandleByPciFn = int (*)(const char*, Device*);
using ReasonsFn = int (*)(Device, unsigned long long*);
struct ProcessInfo {  // nvmlProcessInfo_t (v2 and later share this layout's first fields)
  unsigned int pid;
  unsigned long long used_gpu_memory;
  unsigned int gpu_instance_id;
  unsigned int compute_instance_id;
};
using ProcessesFn = int (*)(Device, unsigned int*, ProcessInfo*);

constexpr int kNvmlSuccess = 0;
constexpr int kNvmlInsufficientSize = 7;

std::string reasons_text(unsigned long long bits) {
  std::vector<std::string> names;
  if (bits & 0x8) names.push_back("hardware slowdown");
  if (bits & 0x20) names.push_back("software thermal limit");
  if (bits & 0x40) names.push_back("hardware thermal limit");
  if (bits & 0x80) names.push_back("power brake");
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

HealthSample sample_gpu_health(const std::string& pci_bus_id, const std::string& library) {
  HealthSample sample;
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    sample.why_not = "NVML (" + library + ") is not available";
    return sample;
  }
  auto init = reinterpret_cast<InitFn>(dlsym(handle, "nvmlInit_v2"));
  auto shutdown = reinterpret_cast<InitFn>(dlsym(handle, "nvmlShutdown"));
  auto by_pci = reinterpret_cast<HandleByPciFn>(dlsym(handle, "nvmlDeviceGetHandleByPciBusId_v2"));
  // The newer name first (NVML 12.2 renamed throttle reasons to clock event reasons).
  auto reasons =
      reinterpret_cast<ReasonsFn>(dlsym(handle, "nvmlDeviceGetCurrentClocksEventReasons"));
  if (!reasons) {
    reasons =
        reinterpret_cast<ReasonsFn>(dlsym(handle, "nvmlDeviceGetCurrentClocksThrottleReasons"));
  }
  auto processes =
      reinterpret_cast<ProcessesFn>(dlsym(handle, "nvmlDeviceGetComputeRunningProcesses_v3"));
  if (!init || !by_pci || !reasons) {
    sample.why_not = "NVML lacks the functions needed";
  } else if (init() != kNvmlSuccess) {
    sample.why_not = "NVML did not start";
  } else {
    Device device = nullptr;
    unsigned long long bits = 0;
    if (by_pci(pci_bus_id.c_str(), &device) != kNvmlSuccess) {
      sample.why_not = "NVML does not know the GPU at " + pci_bus_id;
    } else if (reasons(device, &bits) != kNvmlSuccess) {
      sample.why_not = "NVML gave no clock reasons";
    } else {
      sample.available = true;
      sample.clock_reasons = bits;
      if (processes) {
        std::vector<ProcessInfo> list(64);
        unsigned int count = static_cast<unsigned int>(list.size());
        const int status = processes(device, &count, list.data());
        if (status == kNvmlSuccess || status == kNvmlInsufficientSize) {
          sample.processes = static_cast<int>(count);
        }
      }
    }
    if (shutdown) shutdown();
  }
  dlclose(handle);
  return sample;
}

GpuHealth judge_gpu_health(const HealthSample& before, const HealthSample& after) {
  GpuHealth health;
  if (!before.available || !after.available) {
    const auto& why = !before.available ? before.why_not : after.why_not;
    health.text = "GPU health not checked" + (why.empty() ? std::string() : " (" + why + ")");
    return health;
  }
  health.checked = true;
  const unsigned long long bad = (before.clock_reasons | after.clock_reasons) & kThrottleReasons;
  health.throttled = bad != 0;
  // Our own process is one of them (NVML may list it under another pid in a container).
  const int most = std::max(before.processes, after.processes);
  health.busy = most >= 2;
  std::vector<std::string> parts;
  if (health.throttled) parts.push_back("clocks held down (" + reasons_text(bad) + ")");
  if (health.busy) parts.push_back(fmt::format("{} processes computing on the GPU", most));
  if (parts.empty()) {
    health.text = "GPU health checked with NVML: not throttled, no other process";
  } else {
    health.text = "during timing: ";
    for (std::size_t i = 0; i < parts.size(); ++i) health.text += (i ? "; " : "") + parts[i];
  }
  return health;
}

}  // namespace harness
