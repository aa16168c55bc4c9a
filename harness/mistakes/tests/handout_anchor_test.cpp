// The handouts explain every mistake the grader can name: each known-wrong kernel's expected
// diagnosis ("// diagnosis:" lines) and the starter's ("unwritten") have a section in that lab's
// handout, under the heading the report links to.
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "harness/mistakes.hpp"

namespace harness {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool has_section(const std::string& handout, const std::string& id) {
  return handout.find("#### " + std::string(mistake(id).heading) + "\n") != std::string::npos;
}

TEST(HandoutAnchors, EveryExpectedDiagnosisHasAHandoutSection) {
  const fs::path labs = fs::path(LABS_SOURCE_DIR) / "labs";
  int kernels = 0;
  for (const auto& lab : fs::directory_iterator(labs)) {
    if (!lab.is_directory() || !fs::exists(lab.path() / "README.md")) continue;
    const auto handout = read_text(lab.path() / "README.md");
    EXPECT_TRUE(has_section(handout, "unwritten")) << lab.path();
    const auto wrong = lab.path() / "tests" / "wrong";
    if (!fs::exists(wrong)) continue;
    for (const auto& file : fs::directory_iterator(wrong)) {
      const auto text = read_text(file.path());
      const std::regex line("^// diagnosis:(.*)$", std::regex::multiline);
      bool found = false;
      for (std::sregex_iterator it(text.begin(), text.end(), line), end; it != end; ++it) {
        std::istringstream ids((*it)[1].str());
        for (std::string id; ids >> id;) {
          found = true;
          EXPECT_NO_THROW(mistake(id)) << file.path() << " names an unknown diagnosis " << id;
          EXPECT_TRUE(has_section(handout, id)) << lab.path() << " lacks a section for " << id;
        }
      }
      // A kernel only compute-sanitizer's memcheck catches computes the right values: no check
      // fails, so there is no diagnosis to name (the batch's memory pass words its finding).
      const bool memcheck_only = text.rfind("// must-fail: sanitizer.memcheck\n", 0) == 0 &&
                                 text.find("// must-fail:", 1) == std::string::npos;
      EXPECT_TRUE(found || memcheck_only) << file.path() << " has no // diagnosis: line";
      ++kernels;
    }
  }
  EXPECT_GE(kernels, 36);
}

}  // namespace
}  // namespace harness
