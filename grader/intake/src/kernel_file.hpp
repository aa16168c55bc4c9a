// Reading a kernel file from a submission without trusting it.
#pragma once

#include <filesystem>
#include <string>

#include "intake/intake.hpp"

namespace intake {

struct KernelFile {
  std::string text;     // the content when accepted
  std::string problem;  // set when refused
};

// Reads root/relative without following any symbolic link on the way (so a kernel.cu, or a folder
// above it, linking to /etc/passwd or to another student's file is never read) and accepts it
// only as a regular, non-empty text file (valid UTF-8, no NUL) of at most max_kernel_bytes.
KernelFile read_kernel(const std::filesystem::path& root, const std::filesystem::path& relative,
                       const Limits& limits);

}  // namespace intake
