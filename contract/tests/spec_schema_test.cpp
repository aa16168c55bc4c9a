// The one table of spec keys (contract/spec_schema.hpp): every key of a spec is known for its
// check's kind, of its type and in its range, or the load stops with one line naming the file,
// the check and the field.
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "contract/spec.hpp"
#include "contract/spec_schema.hpp"

namespace contract {
namespace {

using nlohmann::json;

json spec_document() {
  return json::parse(R"({
    "lab": "lab1", "title": "Copy", "dimensions": ["rows", "cols"],
    "checks": [
      {"id": "Copy.Correctness", "kind": "correctness", "title": "copies", "points": 10,
       "sizes": [[32, 64]]},
      {"id": "Copy.Threads", "kind": "structure", "title": "threads", "points": 5,
       "sizes": [[256, 512]], "forbid_copies": true},
      {"id": "Copy.Speed", "kind": "speed", "title": "fast", "points": 5, "sizes": [[128, 256]],
       "reference": "memcpy", "min_ratio": 0.5, "repetitions": 30, "max_spread": 0.1}
    ]})");
}

std::string error_of(const json& document) {
  try {
    parse_spec(document, "labs/lab1-matrix-copy/spec.json");
  } catch (const SpecError& error) {
    return error.what();
  }
  return "accepted";
}

TEST(SpecSchema, TheDocumentLoads) { EXPECT_EQ(error_of(spec_document()), "accepted"); }

TEST(SpecSchema, AnUnknownKeyIsRejectedWithTheFileAndTheField) {
  auto document = spec_document();
  document["checks"][2]["min_share_of_memcpy"] = 0.45;  // the old way to write a threshold
  EXPECT_EQ(error_of(document),
            "labs/lab1-matrix-copy/spec.json: check 'Copy.Speed': unknown key "
            "'min_share_of_memcpy' (a speed check takes id, kind, title, points, bonus, "
            "visibility, timeout_s, emulation, sizes, reference, min_ratio, full_points_at_ratio, "
            "repetitions, rounds, max_spread, timed_with, leaderboard; docs/spec.md)");

  document = spec_document();
  document["checks"][0]["width"] = 64;  // the old way to write a size
  EXPECT_NE(error_of(document).find("check 'Copy.Correctness': unknown key 'width'"),
            std::string::npos);

  // A key of another kind of check is unknown on this one.
  document = spec_document();
  document["checks"][0]["min_ratio"] = 0.5;
  EXPECT_NE(error_of(document).find("check 'Copy.Correctness': unknown key 'min_ratio' (a "
                                    "correctness check takes"),
            std::string::npos);

  document = spec_document();
  document["points"] = 100;
  EXPECT_EQ(error_of(document),
            "labs/lab1-matrix-copy/spec.json: unknown key 'points' (a spec holds lab, title, "
            "dimensions, sanitizer and checks; docs/spec.md)");
}

TEST(SpecSchema, AWrongTypeIsRejectedWithTheFileAndTheField) {
  auto document = spec_document();
  document["checks"][2]["repetitions"] = "30";
  EXPECT_EQ(error_of(document),
            "labs/lab1-matrix-copy/spec.json: check 'Copy.Speed': 'repetitions' must be a whole "
            "number from 1 to 1000, got \"30\"");

  document = spec_document();
  document["checks"][1]["forbid_copies"] = 1;
  EXPECT_EQ(error_of(document),
            "labs/lab1-matrix-copy/spec.json: check 'Copy.Threads': 'forbid_copies' must be true "
            "or false, got 1");

  document = spec_document();
  document["checks"][0]["sizes"] = json::parse("[32, 64]");  // a size, not a list of sizes
  EXPECT_EQ(error_of(document),
            "labs/lab1-matrix-copy/spec.json: check 'Copy.Correctness': every size in 'sizes' "
            "must be [rows, cols], whole numbers from 1 to 2147483647, got 32");

  document = spec_document();
  document["checks"][2]["reference"] = "cudaMemcpy";
  EXPECT_EQ(error_of(document),
            "labs/lab1-matrix-copy/spec.json: check 'Copy.Speed': 'reference' must be one of "
            "memcpy, naive, cublas, got \"cudaMemcpy\"");

  document = spec_document();
  document["dimensions"] = "rows";
  EXPECT_EQ(error_of(document),
            "labs/lab1-matrix-copy/spec.json: the spec: 'dimensions' must be a non-empty list of "
            "texts, got \"rows\"");
}

TEST(SpecSchema, AValueOutOfRangeIsRejectedWithTheFileAndTheField) {
  auto document = spec_document();
  document["checks"][2]["rounds"] = 11;
  EXPECT_EQ(error_of(document),
            "labs/lab1-matrix-copy/spec.json: check 'Copy.Speed': 'rounds' must be a whole number "
            "from 1 to 10, got 11");

  document = spec_document();
  document["checks"][2]["min_ratio"] = 0;
  EXPECT_EQ(error_of(document),
            "labs/lab1-matrix-copy/spec.json: check 'Copy.Speed': 'min_ratio' must be a number "
            "> 0, got 0");

  document = spec_document();
  document["checks"][2]["sizes"] = json::parse("[[128, 256], [256, 256]]");
  EXPECT_EQ(error_of(document),
            "labs/lab1-matrix-copy/spec.json: check 'Copy.Speed': 'sizes' must be a list of one "
            "size, got [[128,256],[256,256]]");

  document = spec_document();
  document["checks"][0]["sizes"] = json::parse("[[32, 0]]");
  EXPECT_EQ(error_of(document),
            "labs/lab1-matrix-copy/spec.json: check 'Copy.Correctness': every size in 'sizes' "
            "must be [rows, cols], whole numbers from 1 to 2147483647, got [32,0]");

  document = spec_document();
  document["checks"][0]["timeout_s"] = -5;
  EXPECT_EQ(error_of(document),
            "labs/lab1-matrix-copy/spec.json: check 'Copy.Correctness': 'timeout_s' must be a "
            "number > 0, got -5");

  document = spec_document();
  document.erase("dimensions");
  EXPECT_NE(error_of(document).find("check 'Copy.Correctness': 'sizes' needs the spec's "
                                    "'dimensions'"),
            std::string::npos);
}

TEST(SpecSchema, EveryErrorIsOneLine) {
  auto document = spec_document();
  document["checks"][2]["min_speedup_over_naive"] = 1.2;
  EXPECT_EQ(error_of(document).find('\n'), std::string::npos);
}

TEST(SpecSchema, EveryKindHasTheCommonKeysAndItsOwn) {
  for (const char* kind : {"correctness", "structure", "speed"}) {
    for (const char* name : {"id", "kind", "title", "points", "timeout_s", "emulation", "sizes"}) {
      EXPECT_NE(find_check_key(name, kind), nullptr) << kind << " " << name;
    }
  }
  EXPECT_NE(find_check_key("min_ratio", "speed"), nullptr);
  EXPECT_EQ(find_check_key("min_ratio", "structure"), nullptr);
  EXPECT_NE(find_check_key("values", "correctness"), nullptr);
  EXPECT_EQ(find_check_key("values", "style"), nullptr);
  EXPECT_EQ(find_check_key("timeout_s", "speed")->default_text, "120");
}

// docs/spec.md shows the table as `labspec keys` prints it.
TEST(SpecSchema, TheDocumentedTableIsCurrent) {
  std::ifstream in(LABS_SOURCE_DIR "/docs/spec.md");
  ASSERT_TRUE(in) << "docs/spec.md is missing";
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find(spec_keys_markdown()), std::string::npos)
      << "docs/spec.md's table is not the table of contract/src/spec_schema.cpp; paste the "
         "output of `labspec keys` (build/tools/labspec) between its markers";
}

}  // namespace
}  // namespace contract
