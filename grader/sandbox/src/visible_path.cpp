#include <algorithm>

#include "sandbox/core.hpp"

namespace sandbox {
namespace {

// "/a/b/" -> "/a/b", so that paths compare by their components.
std::filesystem::path normal(const std::filesystem::path& path) {
  std::filesystem::path out = path.lexically_normal();
  if (!out.has_filename() && out != out.root_path()) out = out.parent_path();
  return out;
}

}  // namespace

std::filesystem::path visible_path(const Policy& policy, const std::filesystem::path& inside) {
  if (policy.isolate) return inside;
  const std::filesystem::path wanted = normal(inside);
  for (const auto& bind : policy.binds) {
    const std::filesystem::path root = normal(bind.inside);
    // Whole components only: /sandbox2 is not under /sandbox.
    const auto [end_root, end_wanted] =
        std::mismatch(root.begin(), root.end(), wanted.begin(), wanted.end());
    if (end_root != root.end()) continue;
    std::filesystem::path host = bind.host;
    for (auto it = end_wanted; it != wanted.end(); ++it) {
      if (!it->empty()) host /= *it;
    }
    return host;
  }
  return inside;
}

}  // namespace sandbox
