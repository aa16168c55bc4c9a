// The handouts explain every mistake the grader can name: each known-wrong kernel's expected
// diagnosis ("// diagnosis:" lines) and the starter's ("unwritten") have a section in that lab's
// handout, under the heading the report links to.
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
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

// The catalogue ids quoted in a rule's source ("wrong_row_stride" in diagnose_layout.cpp): the
// ids its hypotheses can emit.
std::set<std::string> ids_quoted_in(const fs::path& source) {
  const auto text = read_text(source);
  std::set<std::string> ids;
  const std::regex quoted("\"([a-z_]+)\"");
  for (std::sregex_iterator it(text.begin(), text.end(), quoted), end; it != end; ++it) {
    const std::string id = (*it)[1].str();
    for (const auto& info : mistake_catalog()) {
      if (info.id == id) ids.insert(id);
    }
  }
  return ids;
}

// Beyond the known-wrong kernels: every id a lab's rules can emit has its section.
//  - memcheck's ids (grader/batch/src/sanitize_step.cpp) in every lab whose spec runs memcheck;
//  - the product and layout hypotheses' ids (diagnose_product.cpp, diagnose_layout.cpp) in the
//    matmul labs, except where the lab's shapes rule one out (wrong_row_stride needs a product
//    that is not square: labs 2, 3 and 6 have square ones only) and the gaps listed below.
TEST(HandoutAnchors, EveryIdALabsRulesCanEmitHasAHandoutSection) {
  const fs::path root(LABS_SOURCE_DIR);
  const auto product_ids = [&] {
    auto ids = ids_quoted_in(root / "harness/checks/src/diagnose_product.cpp");
    for (const auto& id : ids_quoted_in(root / "harness/checks/src/diagnose_layout.cpp")) {
      ids.insert(id);
    }
    return ids;
  }();
  // The list is read from the sources; a new hypothesis must find its way into the handouts.
  const std::set<std::string> known{"swapped_index",
                                    "wrong_operand",
                                    "phase_as_inner_index",
                                    "first_tile_only",
                                    "accumulator_reset_in_loop",
                                    "last_tile_skipped",
                                    "tile_not_zero_filled",
                                    "phase_repeated",
                                    "integer_truncation",
                                    "wrong_row_stride",
                                    "size_fixed_in_code",
                                    "tile_transposed"};
  EXPECT_EQ(product_ids, known);
  const std::set<std::string> memcheck_ids{"reads_outside_inputs", "out_of_bounds_write",
                                           "memory_access_error"};
  // The tile hypotheses run only for kernels whose launches had shared memory
  // (diagnose_product.cpp). Labs 2, 3 and 4 need none, so their handouts explain no tiles: a
  // student who tiles there anyway can still be told a tile id without a section (a known gap),
  // as can lab 5's (one block's shared memory, no phases).
  const std::set<std::string> tile_ids{
      "phase_as_inner_index", "first_tile_only",      "accumulator_reset_in_loop",
      "last_tile_skipped",    "tile_not_zero_filled", "phase_repeated",
      "tile_transposed"};
  const std::map<std::string, std::set<std::string>> not_yet{
      {"lab2", tile_ids},
      {"lab3", tile_ids},
      {"lab4",
       [&] {
         auto ids = tile_ids;
         ids.insert({"wrong_operand", "size_fixed_in_code"});  // square only at n = 1
         return ids;
       }()},
      {"lab5",
       {"phase_as_inner_index", "accumulator_reset_in_loop", "tile_not_zero_filled",
        "phase_repeated", "tile_transposed", "wrong_row_stride", "size_fixed_in_code"}}};
  const std::set<std::string> square_only{"lab2", "lab3", "lab6"};
  const std::set<std::string> matmul{"lab2", "lab3", "lab4", "lab5", "lab6", "lab7", "lab8"};
  int labs = 0;
  for (const auto& lab : fs::directory_iterator(root / "labs")) {
    if (!lab.is_directory() || !fs::exists(lab.path() / "README.md")) continue;
    const std::string name = lab.path().filename().string();
    const std::string number = name.substr(0, name.find('-'));
    const auto handout = read_text(lab.path() / "README.md");
    std::set<std::string> ids;
    if (read_text(lab.path() / "spec.json").find("\"memcheck\"") != std::string::npos) {
      ids.insert(memcheck_ids.begin(), memcheck_ids.end());
    }
    if (matmul.count(number)) {
      for (const auto& id : product_ids) {
        if (id == "wrong_row_stride" && square_only.count(number)) continue;
        if (not_yet.count(number) && not_yet.at(number).count(id)) continue;
        ids.insert(id);
      }
    }
    for (const auto& id : ids) {
      EXPECT_TRUE(has_section(handout, id)) << name << " can name " << id << " but has no section";
    }
    ++labs;
  }
  EXPECT_EQ(labs, 11);
}

}  // namespace
}  // namespace harness
