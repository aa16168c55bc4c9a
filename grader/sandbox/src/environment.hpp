// The program's environment: cleared, then a few fixed variables, then the policy's (or, for a
// student's own machine, the grader's own with the policy's on top).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace sandbox {

// CUDA's bin first, so nvcc is found by name.
inline constexpr const char* kSandboxPath =
    "/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// "NAME=value" entries: PATH, HOME, LANG=C.UTF-8, TMPDIR, then `extra` (a name given again
// replaces the earlier value).
std::vector<std::string> build_environment(
    const std::string& home, const std::string& tmpdir,
    const std::vector<std::pair<std::string, std::string>>& extra);

// The grader's own environment ("NAME=value" entries) with `extra` on top (a name given again
// replaces the inherited value).
std::vector<std::string> inherited_environment(
    const std::vector<std::pair<std::string, std::string>>& extra);

// The value of PATH in such an environment.
std::string path_of(const std::vector<std::string>& environment);

}  // namespace sandbox
