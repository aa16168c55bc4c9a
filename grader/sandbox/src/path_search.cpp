#include "path_search.hpp"

#include <unistd.h>

#include <system_error>

namespace sandbox {
namespace fs = std::filesystem;

bool is_executable_file(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

std::string find_in_path(std::string_view name, std::string_view folders) {
  while (true) {
    const auto colon = folders.find(':');
    const std::string_view folder = folders.substr(0, colon);
    if (!folder.empty()) {
      const fs::path candidate = fs::path(folder) / name;
      if (is_executable_file(candidate)) return candidate.string();
    }
    if (colon == std::string_view::npos) return "";
    folders.remove_prefix(colon + 1);
  }
}

}  // namespace sandbox
