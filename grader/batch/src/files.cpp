#include "batch/files.hpp"

#include <fstream>
#include <iterator>

#include "common/atomic_file.hpp"

namespace batch {

namespace fs = std::filesystem;

std::string read_whole_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_whole_file(const fs::path& file, std::string_view content) {
  if (file.has_parent_path()) fs::create_directories(file.parent_path());
  common::write_file_atomically(file, content);
}

bool is_inside(const fs::path& path, const fs::path& folder) {
  const auto relative = fs::weakly_canonical(path).lexically_relative(fs::weakly_canonical(folder));
  return !relative.empty() && *relative.begin() != "..";
}

}  // namespace batch
