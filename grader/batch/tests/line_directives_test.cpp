// The build refuses a student's source that moves its own lines (batch/line_directives.hpp): the
// directive is found as the preprocessor sees it, comments, literals and splices included, and
// nothing else is taken for one.
#include "batch/line_directives.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace batch {
namespace {

TEST(LineDirectives, FindsLineAndLineMarkersAtTheirLine) {
  EXPECT_EQ(first_line_directive("#line 1 \"fill.cu\"\n__global__ void k() {}\n"), 1);
  EXPECT_EQ(first_line_directive("int a;\n  #  line 7\n"), 2);
  EXPECT_EQ(first_line_directive("int a;\n\n# 12 \"x.cu\"\n"), 3);
  EXPECT_EQ(first_line_directive("int a;\n#/* c */line 3\n"), 2);
  EXPECT_EQ(first_line_directive("int a;\n#\\\nline 3\n"), 2) << "a splice after the #";
  EXPECT_EQ(first_line_directive("int a; /* two\nlines */\n#line 9\n"), 3);
}

TEST(LineDirectives, OtherDirectivesAndTextAreNone) {
  EXPECT_EQ(first_line_directive("#include <cstdio>\n#define LINE 3\n#pragma unroll\n"),
            std::nullopt);
  EXPECT_EQ(first_line_directive("#lines\n#linear 3\nint a; # line\n"), std::nullopt);
  EXPECT_EQ(first_line_directive("// #line 1 \"a.cu\"\n/*\n#line 2\n*/\n"), std::nullopt);
  EXPECT_EQ(first_line_directive("const char* s = \"\\\n#line 1\";\n"), std::nullopt)
      << "inside a string continued by a splice";
  EXPECT_EQ(first_line_directive("auto s = R\"x(\n#line 1\n)x\";\n"), std::nullopt);
  EXPECT_EQ(first_line_directive("auto s = u8R\"(\n#line 1\n)\";\n"), std::nullopt);
}

// Each tries to make a reader think a comment or literal hides the directive that follows.
TEST(LineDirectives, LiteralsCannotHideADirectiveBehindAFakeComment) {
  EXPECT_EQ(first_line_directive("int x = 1'0'/*';\n#line 1 \"a.cu\"\n// */\n"), 2)
      << "digit separators, then a character literal holding /*";
  EXPECT_EQ(first_line_directive("char c = L'/*';\n#line 1 \"a.cu\"\n// */\n"), 2);
  EXPECT_EQ(first_line_directive("const char* s = \"/*\";\n#line 1 \"a.cu\"\n// */\n"), 2);
  EXPECT_EQ(first_line_directive("auto s = u8R\"(\n/*\n)\";\n#line 1 \"a.cu\"\n// */\n"), 4);
  EXPECT_EQ(first_line_directive("int FOOR = 1; auto s = FOOR\"(\";\n#line 1\n"), 2)
      << "a name ending in R is no raw string prefix";
}

// The build's words name the file and the line, never a folder of the grader's.
TEST(LineDirectives, TheBuildsRefusalNamesTheFileAndLine) {
  const auto folder =
      std::filesystem::temp_directory_path() / ("line-directives-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "kernel.cu") << "__global__ void k() {}\n";
  std::ofstream(folder / "bonus.cu") << "int a;\n\n#line 1 \"fill.cu\"\n";
  EXPECT_EQ(line_directive_problem(folder, {"kernel.cu"}), std::nullopt);
  const auto problem = line_directive_problem(folder, {"kernel.cu", "bonus.cu"});
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->rfind("bonus.cu:3: #line", 0), 0u) << *problem;
  EXPECT_EQ(problem->find(folder.string()), std::string::npos) << *problem;
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace batch
