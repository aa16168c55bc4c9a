// Archives for the tests, written with libarchive's write API (only built with libarchive).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace intake::testing {

// zip_encrypted: traditional PKWARE encryption, password "secret".
enum class Format { zip, zip_encrypted, tar, tar_gz };

struct Item {
  enum class Kind { file, folder, symlink, hardlink, fifo };
  std::string name;
  Kind kind = Kind::file;
  std::string data;    // of a file
  std::string target;  // of a link
};

inline Item file(std::string name, std::string data) {
  return {std::move(name), Item::Kind::file, std::move(data), ""};
}
inline Item folder(std::string name) { return {std::move(name), Item::Kind::folder, "", ""}; }
inline Item symlink(std::string name, std::string target) {
  return {std::move(name), Item::Kind::symlink, "", std::move(target)};
}
inline Item hardlink(std::string name, std::string target) {
  return {std::move(name), Item::Kind::hardlink, "", std::move(target)};
}
inline Item fifo(std::string name) { return {std::move(name), Item::Kind::fifo, "", ""}; }

// Writes `items` in order to an archive at `path`; names go in exactly as given ("../x", "/x").
void write_archive(const std::filesystem::path& path, Format format,
                   const std::vector<Item>& items);

}  // namespace intake::testing
