// The "device" of the CPU emulation (LABS_BACKEND=emulation): always available, and named so that
// no report mistakes it for a GPU.
#include <cuda_runtime.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>

#include "harness/device_info.hpp"

namespace harness {
namespace {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown CPU";
}

}  // namespace

std::string gpu_unavailable_reason() { return {}; }

DeviceInfo query_device() {
  DeviceInfo info;
  info.name = "none: " + emu::describe() + " on " + cpu_model();
  info.compute_capability = "emulated";
  info.driver_version = "none";
  info.runtime_version = "emulation";
  info.sm_count = emu::settings().threads;
  info.memory_gib = static_cast<double>(sysconf(_SC_PHYS_PAGES)) *
                    static_cast<double>(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0 * 1024.0);
  return info;
}

}  // namespace harness
