// Where archive entries may land: inside the unpack folder, or nowhere.
#include <gtest/gtest.h>

#include "archive_path.hpp"

namespace intake {
namespace {

std::string problem_of(std::string_view name) {
  const auto result = entry_destination(name);
  return std::holds_alternative<std::string>(result) ? std::get<std::string>(result) : "";
}

std::string path_of(std::string_view name) {
  const auto result = entry_destination(name);
  return std::holds_alternative<std::filesystem::path>(result)
             ? std::get<std::filesystem::path>(result).generic_string()
             : "<refused>";
}

TEST(ArchivePath, KeepsRelativePathsAndDropsDotComponents) {
  EXPECT_EQ(path_of("alice/labs/lab6-tiled-matmul/kernel.cu"),
            "alice/labs/lab6-tiled-matmul/kernel.cu");
  EXPECT_EQ(path_of("./labs//lab6/./kernel.cu"), "labs/lab6/kernel.cu");
  EXPECT_EQ(path_of("labs\\lab6\\kernel.cu"), "labs/lab6/kernel.cu");
  EXPECT_EQ(path_of("./"), "");
  EXPECT_EQ(path_of("..foo/x..y"), "..foo/x..y");  // dots in names are not a parent
}

TEST(ArchivePath, RefusesParentsAndAbsolutePaths) {
  EXPECT_EQ(problem_of("../../x"), "the archive escapes its folder: entry '../../x'");
  EXPECT_NE(problem_of("labs/../../x"), "");
  EXPECT_NE(problem_of("labs/.."), "");
  EXPECT_NE(problem_of("..\\..\\x"), "");
  EXPECT_EQ(problem_of("/etc/cron.d/x"), "the archive escapes its folder: entry '/etc/cron.d/x'");
  EXPECT_NE(problem_of("C:\\Windows\\x"), "");
  EXPECT_NE(problem_of("\\\\host\\share\\x"), "");
}

}  // namespace
}  // namespace intake
