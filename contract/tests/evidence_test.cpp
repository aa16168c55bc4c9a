// The evidence facts' shared rules: one list of kinds (the same in CMake's `// evidence:` check
// and in what the emulator writes), one fact per place, a check's suite.
#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "contract/record.hpp"

namespace contract {
namespace {

std::set<std::string> contract_kinds() {
  return {std::begin(kEvidenceKinds), std::end(kEvidenceKinds)};
}

TEST(Evidence, KindsAreTheSameInCMake) {
  std::istringstream cmake_list(LABS_EVIDENCE_KINDS);
  std::set<std::string> cmake_kinds;
  for (std::string kind; cmake_list >> kind;) cmake_kinds.insert(kind);
  EXPECT_EQ(cmake_kinds, contract_kinds()) << "contract/CMakeLists.txt's LABS_EVIDENCE_KINDS";
}

// Every kind the emulator's words make (emulation/src/evidence_words.cpp) is one the lab program
// accepts, and each accepted kind is made somewhere: a kind added on one side only shows here.
TEST(Evidence, KindsAreTheOnesTheEmulatorWrites) {
  std::ifstream file(std::string(LABS_SOURCE_DIR) + "/emulation/src/evidence_words.cpp");
  ASSERT_TRUE(file) << "emulation/src/evidence_words.cpp not found";
  const std::string text{std::istreambuf_iterator<char>(file), {}};
  const std::regex made(R"(EvidenceFact\{\s*\"([a-z_]+)\")");
  std::set<std::string> emulator_kinds;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), made); it != std::sregex_iterator();
       ++it) {
    emulator_kinds.insert((*it)[1]);
  }
  EXPECT_EQ(emulator_kinds, contract_kinds());
  EXPECT_TRUE(is_evidence_kind("bank_conflict"));
  EXPECT_FALSE(is_evidence_kind("bank_conflicts")) << "the catalogue's id, not a fact's kind";
}

Evidence fact(std::string kind, int line, double figure) {
  return {std::move(kind), "emulation", "kernel.cu", line, "K", "words", figure, 4};
}

// One fact per kind, file and line: the worst measurement of that place stays; a full list takes
// no new place.
TEST(Evidence, OnePlaceKeepsItsLargestFigureAndTheListStopsAtItsMost) {
  std::vector<Evidence> facts;
  add_evidence(facts, fact("uncoalesced_access", 14, 8), 2);
  add_evidence(facts, fact("uncoalesced_access", 14, 32), 2);
  add_evidence(facts, fact("uncoalesced_access", 14, 16), 2);
  ASSERT_EQ(facts.size(), 1u);
  EXPECT_DOUBLE_EQ(facts[0].figure, 32);
  add_evidence(facts, fact("bank_conflict", 14, 32), 2);
  add_evidence(facts, fact("divergence", 20, 5), 2);
  ASSERT_EQ(facts.size(), 2u);
  EXPECT_EQ(facts[1].kind, "bank_conflict");
}

TEST(Evidence, ASuiteIsTheCheckIdBeforeItsDot) {
  EXPECT_EQ(suite_of("TransposeTiled.Speed"), "TransposeTiled");
  EXPECT_EQ(suite_of("NoDot"), "NoDot");
  EXPECT_NE(suite_of("Transpose.Speed"), suite_of("TransposeTiled.Speed"));
}

}  // namespace
}  // namespace contract
