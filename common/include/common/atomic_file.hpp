// A file written whole or not at all: readers (a batch resumed after a crash, a report rendered
// while a run writes) never see half of one.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string_view>

namespace common {

struct FileWriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Writes `content` to a temporary file beside `target` and renames it over `target`. The folder
// must exist. Throws FileWriteError, naming the file, when it cannot.
void write_file_atomically(const std::filesystem::path& target, std::string_view content);

}  // namespace common
