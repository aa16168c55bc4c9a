// What counts as a submission in the class folder, and whose it is.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace intake {

enum class EntryKind {
  folder,       // a student's folder
  archive,      // .zip, .tar, .tar.gz, .tgz
  bare_kernel,  // <student>.cu
  link,         // a symbolic link that would be one of the above: refused, never followed
};

struct Entry {
  EntryKind kind;
  std::string student;  // the name without its extension, made valid UTF-8
  std::filesystem::path path;
};

// The entries of `folder` that are submissions, sorted by student (bytewise), then by file name.
// Skips hidden entries, __MACOSX, `unpack_root` and files of other types (a README is not a
// student). Throws std::runtime_error when `folder` is missing, not a folder or unreadable.
std::vector<Entry> list_entries(const std::filesystem::path& folder,
                                const std::filesystem::path& unpack_root);

}  // namespace intake
