#include "batch/visible_devices.hpp"

#include <string_view>

namespace batch {

std::string visible_device(int gpu, const char* parent) {
  if (parent == nullptr || *parent == '\0') return std::to_string(gpu);
  std::string_view list(parent);
  for (int i = 0; gpu >= 0; ++i) {
    const auto comma = list.find(',');
    if (i == gpu) return std::string(list.substr(0, comma));
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return "-1";
}

std::vector<std::pair<std::string, std::string>> gpu_environment(int gpu, const char* parent) {
  return {{"CUDA_VISIBLE_DEVICES", visible_device(gpu, parent)},
          {"CUDA_DEVICE_MAX_CONNECTIONS", "1"}};
}

}  // namespace batch
