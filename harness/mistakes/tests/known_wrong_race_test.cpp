// A race is named only where threads can share memory: every known-wrong kernel whose
// "// diagnosis:" line lists `race` declares __shared__ memory (issue 30: no race on a kernel
// without shared memory; the rules stay silent there, DiagnosisInput::uses_shared_memory).
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool lists_race(const std::string& text) {
  const std::regex line("^// diagnosis:(.*)$", std::regex::multiline);
  for (std::sregex_iterator it(text.begin(), text.end(), line), end; it != end; ++it) {
    std::istringstream ids((*it)[1].str());
    for (std::string id; ids >> id;) {
      if (id == "race") return true;
    }
  }
  return false;
}

TEST(KnownWrongKernels, EveryRaceDiagnosisIsOnAKernelWithSharedMemory) {
  int races = 0;
  for (const auto& lab : fs::directory_iterator(fs::path(LABS_SOURCE_DIR) / "labs")) {
    const auto wrong = lab.path() / "tests" / "wrong";
    if (!fs::exists(wrong)) continue;
    for (const auto& file : fs::directory_iterator(wrong)) {
      const auto text = read_text(file.path());
      if (!lists_race(text)) continue;
      ++races;
      EXPECT_NE(text.find("__shared__"), std::string::npos)
          << file.path() << " expects a race but declares no shared memory";
    }
  }
  EXPECT_GE(races, 5);  // lab 5's, lab 6's two and lab 10's two
}

}  // namespace
