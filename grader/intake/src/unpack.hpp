// Unpacking a student's archive where it can do no harm.
#pragma once

#include <filesystem>
#include <string>

#include "intake/intake.hpp"

namespace intake {

// Unpacks the .zip, .tar or compressed .tar at `archive` into `destination`, which is emptied
// first. Writes regular files and folders only, each inside `destination`; refuses the archive
// (returns the problem and removes `destination`) for an entry that would land outside it, a
// link, a device or other special file, an encrypted entry, more than max_archive_entries
// entries, more than max_archive_bytes unpacked, or a corrupt archive. Returns "" on success.
std::string unpack(const std::filesystem::path& archive, const std::filesystem::path& destination,
                   const Limits& limits);

}  // namespace intake
