#include "package_files.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <regex>
#include <vector>

#include <fmt/format.h>

#include "batch/files.hpp"
#include "contract/spec.hpp"

namespace grader {
namespace {

namespace fs = std::filesystem;

// What configures and builds labgrade and a kit (CMakeLists.txt's add_subdirectory calls, the
// scripts it runs at configure time, install-deps.sh and scripts/packaging/install-grader.sh).
constexpr const char* kProjectFolders[] = {"cmake",  "common",  "contract", "emulation",
                                           "grader", "harness", "launcher", "reports",
                                           "labs",   "scripts"};
constexpr const char* kProjectFiles[] = {"CMakeLists.txt", "CMakePresets.json"};

// Hidden files (an editor's, git's) and Python's caches stay behind. Build trees are at the top,
// outside the folders copied.
bool skipped(const fs::path& path) {
  const std::string name = path.filename().string();
  return name.starts_with(".") || name == "__pycache__";
}

void copy_tree(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  for (const auto& entry : fs::directory_iterator(from)) {
    if (skipped(entry.path())) continue;
    const fs::path target = to / entry.path().filename();
    if (entry.is_directory() && !entry.is_symlink()) {
      copy_tree(entry.path(), target);
    } else if (entry.is_regular_file() && !entry.is_symlink()) {
      fs::copy_file(entry.path(), target, fs::copy_options::overwrite_existing);
    }
  }
}

std::vector<std::string> lab_ids(const fs::path& labs) {
  std::vector<std::string> ids;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(labs, error)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory() && name.starts_with("lab"))
      ids.push_back(name.substr(0, name.find('-')));
  }
  std::sort(ids.begin(), ids.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  return ids;
}

}  // namespace

PackagedLab find_packaged_lab(const fs::path& source, const std::string& id) {
  const fs::path labs = source / "labs";
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(labs, error)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_directory() || !name.starts_with(id + "-")) continue;
    try {
      if (contract::load_spec(entry.path() / "spec.json").lab == id) return {id, name};
    } catch (const contract::SpecError& spec_error) {
      throw PackageError(spec_error.what());
    }
  }
  const auto ids = lab_ids(labs);
  if (ids.empty()) {
    throw PackageError(
        fmt::format("{} holds no labs: give the project with --source", labs.string()));
  }
  throw PackageError(fmt::format("no lab '{}' in {} (there are {} ... {})", id, labs.string(),
                                 ids.front(), ids.back()));
}

void copy_project(const fs::path& source, const PackagedLab& lab, const fs::path& project) {
  for (const char* folder : kProjectFolders) copy_tree(source / folder, project / folder);
  for (const char* file : kProjectFiles) fs::copy_file(source / file, project / file);
  const fs::path solution = source / "solutions" / lab.folder;
  if (!fs::is_directory(solution)) {
    throw PackageError(fmt::format("{} is missing: the grader runs the reference solution first",
                                   solution.string()));
  }
  copy_tree(solution, project / "solutions" / lab.folder);
}

void write_from_template(const fs::path& source, const std::string& platform,
                         const std::string& name, const std::map<std::string, std::string>& values,
                         const fs::path& target, unsigned mode) {
  const fs::path file = source / "scripts" / "packaging" / platform / name;
  std::string text = batch::read_whole_file(file);
  if (text.empty()) throw PackageError(fmt::format("{} is missing or empty", file.string()));
  for (const auto& [key, value] : values) {
    const std::string placeholder = "@" + key + "@";
    for (auto at = text.find(placeholder); at != std::string::npos;
         at = text.find(placeholder, at + value.size())) {
      text.replace(at, placeholder.size(), value);
    }
  }
  std::smatch left;
  if (std::regex_search(text, left, std::regex("@[A-Z_]+@"))) {
    throw PackageError(fmt::format("{}: no value for {}", file.string(), left.str()));
  }
  batch::write_whole_file(target, text);
  ::chmod(target.c_str(), mode);
}

}  // namespace grader
