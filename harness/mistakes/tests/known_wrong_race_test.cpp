// The known-wrong kernels ask for a race only where threads share memory: every one whose
// "// diagnosis:" line lists `race` declares __shared__ memory in its code (comments left out: a
// comment that names __shared__ declares nothing). That the rules themselves name no race on a
// kernel without shared memory is diagnose_test's (DiagnosisInput::uses_shared_memory).
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

// The text without its // and /* */ comments (string and character literals kept whole).
std::string without_comments(const std::string& text) {
  std::string code;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      const std::size_t start = i;
      for (++i; i < text.size() && text[i] != c && text[i] != '\n'; ++i) {
        if (text[i] == '\\') ++i;
      }
      code += text.substr(start, i - start + 1);
    } else if (text.compare(i, 2, "//") == 0) {
      i = text.find('\n', i);
      if (i == std::string::npos) break;
      code += '\n';
    } else if (text.compare(i, 2, "/*") == 0) {
      i = text.find("*/", i + 2);
      if (i == std::string::npos) break;
      ++i;
      code += ' ';
    } else {
      code += c;
    }
  }
  return code;
}

bool declares_shared(const std::string& text) {
  return without_comments(text).find("__shared__") != std::string::npos;
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

TEST(KnownWrongKernels, SharedMemoryNamedInACommentIsNoDeclaration) {
  EXPECT_FALSE(declares_shared("// Known-wrong: no __shared__ tile\nint x;\n"));
  EXPECT_FALSE(declares_shared("/* the tiles (__shared__)\n   are missing */ float y;\n"));
  EXPECT_FALSE(declares_shared("const char* s = \"a // b\"; // __shared__\n"));
  EXPECT_TRUE(declares_shared("// a tile\n__shared__ float t[16];\n"));
  EXPECT_TRUE(declares_shared("/* a */ extern __shared__ float dyn[]; // x\n"));
  EXPECT_TRUE(declares_shared("const char* s = \"/*\"; __shared__ float t[4];\n"));
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
      EXPECT_TRUE(declares_shared(text))
          << file.path() << " expects a race but declares no shared memory";
    }
  }
  EXPECT_GE(races, 5);  // lab 5's, lab 6's two and lab 10's two
}

}  // namespace
