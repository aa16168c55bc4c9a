// A zip of a folder for `labgrade package gradescope`: made by a well-kept tool the distribution
// has (Info-ZIP's zip, else python3's zipfile), keeping each file's Unix mode so that setup.sh and
// run_autograder stay executable. labgrade links no zip library of its own.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace grader {

struct ZipError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "auto" (zip, else python3), "zip" or "python3".
inline constexpr const char* kZipTools[] = {"auto", "zip", "python3"};

// Writes `zip` (replacing it whole: first a temporary file beside it) with every file under
// `folder`, paths relative to it. Throws ZipError with one line: no tool installed (and how to
// install one), or the tool failed (its status).
void write_zip(const std::filesystem::path& folder, const std::filesystem::path& zip,
               const std::string& tool = "auto");

}  // namespace grader
