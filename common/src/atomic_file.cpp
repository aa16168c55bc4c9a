#include "common/atomic_file.hpp"

#include <fstream>
#include <system_error>

#include <fmt/format.h>
#include <unistd.h>

namespace common {

void write_file_atomically(const std::filesystem::path& target, std::string_view content) {
  // The pid keeps two processes writing the same target (a resumed batch, a second report) from
  // sharing a temporary file.
  auto temporary = target;
  temporary += fmt::format(".tmp.{}", static_cast<long>(::getpid()));
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw FileWriteError(fmt::format("cannot write {}", temporary.string()));
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!out.flush()) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw FileWriteError(fmt::format("cannot write {}", temporary.string()));
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, target, error);
  if (error) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw FileWriteError(fmt::format("cannot replace {}: {}", target.string(), error.message()));
  }
}

}  // namespace common
