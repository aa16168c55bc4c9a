#include "entries.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "common/utf8.hpp"

namespace fs = std::filesystem;

namespace intake {
namespace {

struct Suffix {
  std::string_view text;
  EntryKind kind;
};

constexpr std::array<Suffix, 5> kSuffixes = {{{".tar.gz", EntryKind::archive},
                                              {".tgz", EntryKind::archive},
                                              {".tar", EntryKind::archive},
                                              {".zip", EntryKind::archive},
                                              {".cu", EntryKind::bare_kernel}}};

std::string lower_ascii(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

// The kind a file's name says it is (case-insensitive: "Alice.ZIP" is an archive) and the name
// without the suffix; nullopt for other files.
std::optional<std::pair<EntryKind, std::string>> kind_by_name(const std::string& name) {
  const std::string lower = lower_ascii(name);
  for (const Suffix& suffix : kSuffixes) {
    if (lower.size() > suffix.text.size() && lower.ends_with(suffix.text)) {
      return std::pair{suffix.kind, name.substr(0, name.size() - suffix.text.size())};
    }
  }
  return std::nullopt;
}

bool is_unpack_root(const fs::path& path, const fs::path& unpack_root) {
  std::error_code error;
  return fs::equivalent(path, unpack_root, error) && !error;
}

// The entry for one item of the class folder, or nullopt when it is not a submission.
std::optional<Entry> classify(const fs::directory_entry& item, const fs::path& unpack_root) {
  const std::string name = item.path().filename().string();
  if (name.starts_with('.') || name == "__MACOSX") return std::nullopt;
  std::error_code error;
  const fs::file_status own = item.symlink_status(error);
  if (error) return std::nullopt;

  if (fs::is_symlink(own)) {
    // Looking at the target's type reads nothing of it; the link itself is what gets refused.
    if (fs::is_directory(fs::status(item.path(), error))) {
      return Entry{EntryKind::link, common::utf8::make_valid(name), item.path()};
    }
    if (const auto by_name = kind_by_name(name)) {
      return Entry{EntryKind::link, common::utf8::make_valid(by_name->second), item.path()};
    }
    return std::nullopt;
  }
  if (fs::is_directory(own)) {
    if (is_unpack_root(item.path(), unpack_root)) return std::nullopt;
    return Entry{EntryKind::folder, common::utf8::make_valid(name), item.path()};
  }
  if (fs::is_regular_file(own)) {
    if (const auto by_name = kind_by_name(name)) {
      return Entry{by_name->first, common::utf8::make_valid(by_name->second), item.path()};
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<Entry> list_entries(const fs::path& folder, const fs::path& unpack_root) {
  std::error_code error;
  const fs::file_status status = fs::status(folder, error);
  if (status.type() == fs::file_type::not_found) {
    throw std::runtime_error(
        fmt::format("the submissions folder '{}' does not exist", folder.string()));
  }
  if (error) {
    throw std::runtime_error(fmt::format("cannot read the submissions folder '{}': {}",
                                         folder.string(), error.message()));
  }
  if (!fs::is_directory(status)) {
    throw std::runtime_error(
        fmt::format("the submissions folder '{}' is not a folder", folder.string()));
  }

  std::vector<Entry> entries;
  fs::directory_iterator it(folder, error);
  for (; !error && it != fs::directory_iterator(); it.increment(error)) {
    if (auto entry = classify(*it, unpack_root)) entries.push_back(std::move(*entry));
  }
  if (error) {
    throw std::runtime_error(fmt::format("cannot read the submissions folder '{}': {}",
                                         folder.string(), error.message()));
  }

  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.student != b.student) return a.student < b.student;
    return a.path.filename() < b.path.filename();
  });
  return entries;
}

}  // namespace intake
