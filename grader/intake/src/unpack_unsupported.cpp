// The build without libarchive: every archive is a problem that says how to fix it.
#include "unpack.hpp"

namespace intake {

bool archives_supported() { return false; }

std::string unpack(const std::filesystem::path&, const std::filesystem::path&, const Limits&) {
  return "archives are not supported by this build of labgrade: install libarchive-dev and "
         "rebuild, or unpack it";
}

}  // namespace intake
