// What the report prints about the machine: GPU, compute capability, driver and CUDA versions.
#pragma once

#include <string>

#include "harness/contract.hpp"

namespace harness {

// Empty string when a GPU is usable; otherwise why not (no device, no driver, ...).
std::string gpu_unavailable_reason();

// The current device. Only call when gpu_unavailable_reason() is empty.
DeviceInfo query_device();

}  // namespace harness
