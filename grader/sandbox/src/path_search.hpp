// Finding a program by name in a PATH-like list of folders (the unisolated run's program, and
// bubblewrap and setpriv for the isolated one).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace sandbox {

// A regular file that this process may execute.
bool is_executable_file(const std::filesystem::path& path);

// The first executable regular file `name` in the ':'-separated folders; empty if none.
std::string find_in_path(std::string_view name, std::string_view folders);

}  // namespace sandbox
