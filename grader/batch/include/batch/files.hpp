// The few file operations the batch's steps share: whole files in and out, and where a folder is.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace batch {

// The file's bytes; "" when it cannot be read (a missing optional file reads as empty).
std::string read_whole_file(const std::filesystem::path& file);

// Writes `content` whole or not at all (common::write_file_atomically), creating the file's
// folder first. Throws common::FileWriteError when it cannot.
void write_whole_file(const std::filesystem::path& file, std::string_view content);

// True when `path` is `folder` or lies below it (links resolved as far as they exist).
bool is_inside(const std::filesystem::path& path, const std::filesystem::path& folder);

}  // namespace batch
