#include "cgroup_layout.hpp"

#include <fstream>
#include <sstream>

namespace sandbox {

bool list_has(std::string_view list, std::string_view word, char separator) {
  while (!list.empty()) {
    const auto end = list.find(separator);
    std::string_view item = list.substr(0, end);
    while (!item.empty() && (item.back() == '\n' || item.back() == ' ')) item.remove_suffix(1);
    if (!item.empty() && item == word) return true;
    if (end == std::string_view::npos) break;
    list.remove_prefix(end + 1);
  }
  return false;
}

std::optional<CgroupMount> find_cgroup_mount(std::string_view mountinfo,
                                             std::string_view v1_controller) {
  std::istringstream lines{std::string(mountinfo)};
  std::string line;
  while (std::getline(lines, line)) {
    // id parent major:minor root mount-point options [optional...] - fstype source super-options
    std::istringstream fields(line);
    std::string id, parent, device, root, mount_point, options, word;
    fields >> id >> parent >> device >> root >> mount_point >> options;
    while (fields >> word && word != "-") {
    }
    std::string fstype, source, super_options;
    fields >> fstype >> source >> super_options;
    const bool read_only = list_has(options, "ro", ',');
    if (v1_controller.empty() && fstype == "cgroup2") {
      return CgroupMount{mount_point, root, read_only};
    }
    if (!v1_controller.empty() && fstype == "cgroup" &&
        list_has(super_options, v1_controller, ',')) {
      return CgroupMount{mount_point, root, read_only};
    }
  }
  return std::nullopt;
}

std::optional<std::string> own_cgroup(std::string_view proc_self_cgroup,
                                      std::string_view controller) {
  std::istringstream lines{std::string(proc_self_cgroup)};
  std::string line;
  while (std::getline(lines, line)) {
    const auto first = line.find(':');
    const auto second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (controller.empty() ? (line.substr(0, first) == "0" && controllers.empty())
                           : list_has(controllers, controller, ',')) {
      return path;
    }
  }
  return std::nullopt;
}

std::filesystem::path cgroup_folder(const CgroupMount& mount, std::string group) {
  if (mount.root != "/" && group.starts_with(mount.root)) group = group.substr(mount.root.size());
  const auto below = std::filesystem::path(group).relative_path();
  // The top of the mount is the mount point itself, without a trailing separator.
  return below.empty() ? mount.mount_point : mount.mount_point / below;
}

std::string read_text_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace sandbox
