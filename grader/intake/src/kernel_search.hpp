// Which file of a submission is the kernel of the lab being graded.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "intake/intake.hpp"

namespace intake {

struct KernelSearch {
  std::optional<std::filesystem::path> relative;  // the kernel, relative to the root searched
  std::string problem;                            // set when `relative` is not
};

// Looks under `root` for, in order of preference: a path ending in labs/<lab.folder>/kernel.cu,
// one ending in <lab.folder>/kernel.cu, a lone kernel.cu anywhere. Several at the best preference
// found is a problem, as is none. A kernel.cu under another lab's folder (labN... with another N)
// is not a lone kernel. Walks at most 6 folders deep, never into symbolic links, hidden folders
// or __MACOSX; a kernel.cu that is a symbolic link is still found, for the reader to refuse.
KernelSearch find_kernel(const std::filesystem::path& root, const LabRef& lab);

}  // namespace intake
