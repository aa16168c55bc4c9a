#include "host_facts.hpp"

#include <charconv>
#include <cstdint>
#include <sstream>
#include <string_view>
#include <system_error>

#include "cgroup_layout.hpp"

namespace sandbox {
namespace fs = std::filesystem;
namespace {

constexpr int kCapSysAdmin = 21;  // linux/capability.h

// The value after "Name:" in /proc/self/status, "" when absent.
std::string status_field(const std::string& status, std::string_view name) {
  std::istringstream lines(status);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.starts_with(name) && line.size() > name.size() && line[name.size()] == ':') {
      const auto value = line.find_first_not_of(" \t", name.size() + 1);
      return value == std::string::npos ? "" : line.substr(value);
    }
  }
  return "";
}

template <typename Number>
std::optional<Number> number_in(const fs::path& file, int base = 10) {
  const std::string text = read_text_file(file);
  Number value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  return value;
}

std::string first_line_of(const fs::path& file) {
  const std::string text = read_text_file(file);
  return text.substr(0, text.find('\n'));
}

bool path_exists(const fs::path& path) {
  std::error_code ignored;
  return fs::exists(path, ignored);
}

}  // namespace

HostFacts read_host_facts(const fs::path& root, unsigned euid) {
  HostFacts facts;
  facts.root = euid == 0;
  facts.uid = euid;
  const std::string status = read_text_file(root / "proc/self/status");
  const std::string seccomp = status_field(status, "Seccomp");
  if (!seccomp.empty()) facts.seccomp_mode = seccomp[0] - '0';
  const std::string caps = status_field(status, "CapEff");
  std::uint64_t effective = 0;
  std::from_chars(caps.data(), caps.data() + caps.size(), effective, 16);
  facts.cap_sys_admin = (effective >> kCapSysAdmin) & 1u;
  // The LSM-specific file first: /proc/self/attr/current is another LSM's where several stack.
  facts.apparmor_label = first_line_of(root / "proc/self/attr/apparmor/current");
  if (facts.apparmor_label.empty())
    facts.apparmor_label = first_line_of(root / "proc/self/attr/current");
  facts.restrict_unprivileged_userns =
      number_in<int>(root / "proc/sys/kernel/apparmor_restrict_unprivileged_userns");
  facts.unprivileged_userns_clone =
      number_in<int>(root / "proc/sys/kernel/unprivileged_userns_clone");
  facts.max_user_namespaces = number_in<long>(root / "proc/sys/user/max_user_namespaces");
  facts.docker =
      path_exists(root / ".dockerenv") || facts.apparmor_label.starts_with("docker-default");
  facts.podman = path_exists(root / "run/.containerenv");
  facts.apptainer = path_exists(root / ".singularity.d");
  return facts;
}

}  // namespace sandbox
