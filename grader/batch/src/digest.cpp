#include "batch/digest.hpp"

#include <fmt/format.h>

namespace batch {

std::string Digest::hex() const { return fmt::format("{:016x}", hash_); }

}  // namespace batch
