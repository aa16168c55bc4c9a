// Where an archive entry may be written: the check that keeps an archive inside its folder.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <variant>

namespace intake {

// The entry's path relative to the unpack folder, or the problem that refuses the archive: an
// absolute path (/x, C:x, \\host\x) or a ".." component ("the archive escapes its folder: entry
// '../../x'"). Backslashes count as separators, as Windows tools write them. "." and empty
// components are dropped, so "./" gives an empty path (the folder itself).
std::variant<std::filesystem::path, std::string> entry_destination(std::string_view entry_name);

}  // namespace intake
