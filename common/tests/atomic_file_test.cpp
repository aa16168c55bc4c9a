#include "common/atomic_file.hpp"

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

fs::path fresh_folder(const std::string& name) {
  const auto folder =
      fs::temp_directory_path() / ("common-atomic-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

TEST(AtomicFile, ReplacesTheWholeFileAndLeavesNoTemporary) {
  const auto folder = fresh_folder("replace");
  const auto target = folder / "grades.csv";
  common::write_file_atomically(target, "a much longer first version\n");
  common::write_file_atomically(target, "short\n");
  EXPECT_EQ(read(target), "short\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(folder), fs::directory_iterator()), 1);
  fs::remove_all(folder);
}

TEST(AtomicFile, AMissingFolderIsAnErrorNamingTheFileAndTheOldFileStays) {
  const auto folder = fresh_folder("missing");
  EXPECT_THROW(
      {
        try {
          common::write_file_atomically(folder / "no-such-folder" / "x.json", "{}");
        } catch (const common::FileWriteError& error) {
          EXPECT_NE(std::string(error.what()).find("x.json"), std::string::npos) << error.what();
          throw;
        }
      },
      common::FileWriteError);
  const auto target = folder / "kept.json";
  common::write_file_atomically(target, "old");
  fs::create_directory(folder / "blocker.json");  // a folder cannot be replaced by a file
  EXPECT_THROW(common::write_file_atomically(folder / "blocker.json", "new"),
               common::FileWriteError);
  EXPECT_EQ(read(target), "old");
  fs::remove_all(folder);
}

}  // namespace
