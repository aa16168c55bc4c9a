#include "host_layout.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace sandbox {
namespace fs = std::filesystem;
namespace {

// /usr holds /usr/local too, hence CUDA (/usr/local/cuda).
constexpr const char* kSystemFolders[] = {"/usr",   "/bin",   "/sbin",  "/lib",
                                          "/lib32", "/lib64", "/libx32"};

// The dynamic loader's configuration, and the alternatives that /usr/local/cuda and the compiler
// links resolve through (Ubuntu: /usr/local/cuda -> /etc/alternatives/cuda). Nothing else of /etc:
// no passwd, no host names, no credentials.
constexpr const char* kEtcEntries[] = {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
                                       "/etc/alternatives"};

void add_char_devices(const fs::path& folder, bool only_nvidia_names,
                      std::vector<std::string>& out) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    const std::string name = entry.path().filename().string();
    if (only_nvidia_names && !name.starts_with("nvidia")) continue;
    if (entry.is_character_file(ec)) out.push_back(entry.path().string());
  }
}

}  // namespace

HostLayout scan_host() {
  HostLayout layout;
  std::error_code ec;
  for (const char* folder : kSystemFolders) {
    const auto status = fs::symlink_status(folder, ec);
    if (ec) continue;
    if (fs::is_symlink(status)) {
      layout.system.push_back({folder, fs::read_symlink(folder, ec).string()});
    } else if (fs::is_directory(status)) {
      layout.system.push_back({folder, ""});
    }
  }
  for (const char* entry : kEtcEntries) {
    if (fs::exists(fs::symlink_status(entry, ec))) layout.etc.push_back(entry);
  }
  add_char_devices("/dev", true, layout.gpu_nodes);
  add_char_devices("/dev/nvidia-caps", false, layout.gpu_nodes);
  std::sort(layout.gpu_nodes.begin(), layout.gpu_nodes.end());
  return layout;
}

}  // namespace sandbox
