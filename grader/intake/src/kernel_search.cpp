#include "kernel_search.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "wording.hpp"

namespace fs = std::filesystem;

namespace intake {
namespace {

constexpr std::string_view kKernelName = "kernel.cu";
constexpr int kMaxDepth = 6;
// A submission is a few files; this many means build outputs or worse, and bounds the walk.
constexpr std::size_t kMaxVisited = 100'000;

// The lab number in a folder name: 6 for "lab6", "Lab6-tiled-matmul" and "lab6_alice"; nullopt
// when the name does not start with "lab" and a number.
std::optional<int> lab_number(std::string_view name) {
  if (name.size() < 4) return std::nullopt;
  for (std::size_t i = 0; i < 3; ++i) {
    if (std::tolower(static_cast<unsigned char>(name[i])) != "lab"[i]) return std::nullopt;
  }
  int number = 0;
  std::size_t i = 3;
  for (; i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])) && i < 9; ++i) {
    number = number * 10 + (name[i] - '0');
  }
  if (i == 3) return std::nullopt;
  return number;
}

struct Walk {
  std::optional<int> own_lab;
  std::string folder;
  // Candidates by preference: [0] labs/<folder>/kernel.cu, [1] <folder>/kernel.cu, [2] lone.
  std::array<std::vector<fs::path>, 3> found;
  std::vector<fs::path> other_labs;
  std::size_t visited = 0;
  bool too_many = false;

  void add(const fs::path& relative) {
    const std::vector<fs::path> parts(relative.begin(), relative.end());
    const std::size_t n = parts.size();
    if (n >= 3 && parts[n - 2] == folder && parts[n - 3] == "labs") {
      found[0].push_back(relative);
    } else if (n >= 2 && parts[n - 2] == folder) {
      found[1].push_back(relative);
    } else if (in_other_lab(parts)) {
      other_labs.push_back(relative);
    } else {
      found[2].push_back(relative);
    }
  }

  bool in_other_lab(const std::vector<fs::path>& parts) const {
    if (!own_lab) return false;
    return std::any_of(parts.begin(), parts.end() - 1, [&](const fs::path& part) {
      const auto number = lab_number(part.string());
      return number && *number != *own_lab;
    });
  }

  void visit(const fs::path& root, const fs::path& relative, int depth) {
    std::error_code error;
    fs::directory_iterator it(root / relative, error);
    for (; !error && it != fs::directory_iterator(); it.increment(error)) {
      if (++visited > kMaxVisited) {
        too_many = true;
        return;
      }
      const fs::path name = it->path().filename();
      const std::string text = name.string();
      if (text.starts_with('.') || text == "__MACOSX") continue;
      const fs::file_status status = it->symlink_status(error);
      if (error) return;
      if (fs::is_directory(status)) {
        if (depth < kMaxDepth) visit(root, relative / name, depth + 1);
        if (too_many) return;
      } else if (text == kKernelName) {
        add(relative / name);  // links and odd file types too: the reader says what is wrong
      }
    }
  }
};

std::string listed(std::vector<fs::path> paths) {
  std::sort(paths.begin(), paths.end());
  constexpr std::size_t kShown = 3;
  std::string out;
  for (std::size_t i = 0; i < paths.size() && i < kShown; ++i) {
    if (i > 0) out += i + 1 == paths.size() ? " and " : ", ";
    out += wording::quoted(paths[i].generic_string());
  }
  if (paths.size() > kShown) out += fmt::format(" and {} more", paths.size() - kShown);
  return out;
}

}  // namespace

KernelSearch find_kernel(const fs::path& root, const LabRef& lab) {
  Walk walk;
  walk.own_lab = lab_number(lab.id);
  if (!walk.own_lab) walk.own_lab = lab_number(lab.folder);
  walk.folder = lab.folder;
  walk.visit(root, fs::path(), 0);

  if (walk.too_many) {
    return {std::nullopt, fmt::format("the submission holds more than {} files and folders: "
                                      "submit the lab's sources only",
                                      kMaxVisited)};
  }
  for (const std::vector<fs::path>& candidates : walk.found) {
    if (candidates.size() == 1) return {candidates.front(), ""};
    if (candidates.size() > 1) {
      return {std::nullopt,
              fmt::format("several kernel files: {}; keep only one", listed(candidates))};
    }
  }
  std::string problem = fmt::format("no kernel file: expected labs/{}/{}", lab.folder, kKernelName);
  if (!walk.other_labs.empty()) {
    problem += fmt::format(" (found only other labs' kernels: {})", listed(walk.other_labs));
  }
  return {std::nullopt, problem};
}

}  // namespace intake
