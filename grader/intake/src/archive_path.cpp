#include "archive_path.hpp"

#include <fmt/format.h>

#include "wording.hpp"

namespace intake {

std::variant<std::filesystem::path, std::string> entry_destination(std::string_view entry_name) {
  std::string name(entry_name);
  for (char& c : name) {
    if (c == '\\') c = '/';
  }
  const auto escapes = [&] {
    return fmt::format("the archive escapes its folder: entry {}", wording::quoted(entry_name));
  };
  const bool drive = name.size() >= 2 && name[1] == ':' &&
                     ((name[0] >= 'A' && name[0] <= 'Z') || (name[0] >= 'a' && name[0] <= 'z'));
  if (name.starts_with('/') || drive) return escapes();

  std::filesystem::path relative;
  std::size_t start = 0;
  while (start <= name.size()) {
    std::size_t end = name.find('/', start);
    if (end == std::string::npos) end = name.size();
    const std::string_view part = std::string_view(name).substr(start, end - start);
    if (part == "..") return escapes();
    if (!part.empty() && part != ".") relative /= std::string(part);
    start = end + 1;
  }
  return relative;
}

}  // namespace intake
