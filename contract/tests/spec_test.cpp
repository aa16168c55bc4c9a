#include "contract/spec.hpp"

#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace contract {
namespace {

using nlohmann::json;

json valid_spec() {
  return json::parse(R"({
    "lab": "lab9", "title": "Test lab", "dimensions": ["rows", "cols"],
    "checks": [
      {"id": "Copy.Correctness", "kind": "correctness", "title": "copies", "points": 10,
       "sizes": [[32, 64], [1, 1]]},
      {"id": "Copy.Speed", "kind": "speed", "title": "fast", "points": 5, "sizes": [[128, 256]],
       "reference": "memcpy", "min_ratio": 0.5, "repetitions": 30, "max_spread": 0.1,
       "timeout_s": 30}
    ]})");
}

// Expects parse_spec to fail with a message containing `fragment`.
void expect_spec_error(const json& document, const std::string& fragment) {
  try {
    parse_spec(document, "spec.json");
    ADD_FAILURE() << "accepted: " << document.dump();
  } catch (const SpecError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos)
        << "message: " << e.what() << "\nexpected to contain: " << fragment;
  }
}

TEST(Spec, ParsesChecksInOrderWithTheirParameters) {
  const auto spec = parse_spec(valid_spec(), "spec.json");
  EXPECT_EQ(spec.lab, "lab9");
  ASSERT_EQ(spec.checks.size(), 2u);
  EXPECT_EQ(spec.checks[0].id, "Copy.Correctness");
  EXPECT_DOUBLE_EQ(spec.total_points(), 15);
  const auto sizes = spec.checks[0].sizes({"rows", "cols"}, 1024);
  ASSERT_EQ(sizes.size(), 2u);
  EXPECT_EQ(sizes[0], (std::vector<long long>{32, 64}));
  EXPECT_EQ(spec.at("Copy.Speed").size({"rows", "cols"}, 1024), (std::vector<long long>{128, 256}));
  EXPECT_DOUBLE_EQ(spec.at("Copy.Speed").min_ratio("memcpy"), 0.5);
  EXPECT_DOUBLE_EQ(spec.at("Copy.Speed").timeout_s, 30);
  EXPECT_DOUBLE_EQ(spec.at("Copy.Correctness").timeout_s, kDefaultCheckSeconds);
}

// The compute-sanitizer tools of the batch's pass: memcheck unless the spec lists them.
TEST(Spec, SanitizerToolsDefaultToMemcheck) {
  EXPECT_EQ(parse_spec(valid_spec(), "spec.json").sanitizer_tools,
            (std::vector<std::string>{"memcheck"}));
  auto doc = valid_spec();
  doc["sanitizer"] = json::array({"memcheck", "racecheck"});
  EXPECT_EQ(parse_spec(doc, "spec.json").sanitizer_tools,
            (std::vector<std::string>{"memcheck", "racecheck"}));
  doc["sanitizer"] = json::array();
  EXPECT_TRUE(parse_spec(doc, "spec.json").sanitizer_tools.empty());
  doc["sanitizer"] = json::array({"initcheck"});
  expect_spec_error(doc, "'sanitizer' must be a list of memcheck, racecheck");
  doc["sanitizer"] = "memcheck";
  expect_spec_error(doc, "'sanitizer' must be a list");
}

TEST(Spec, NamesTheFieldThatIsWrong) {
  auto doc = valid_spec();
  doc.erase("lab");
  expect_spec_error(doc, "'lab'");

  doc = valid_spec();
  doc["checks"] = json::array();
  expect_spec_error(doc, "'checks'");

  doc = valid_spec();
  doc["checks"][0]["id"] = "NoDot";
  expect_spec_error(doc, "Group.Name");

  doc = valid_spec();
  doc["checks"][0]["id"] = "../Evil.Name";
  expect_spec_error(doc, "Group.Name");

  doc = valid_spec();
  doc["checks"][1]["id"] = "Copy.Correctness";
  expect_spec_error(doc, "appears twice");

  doc = valid_spec();
  doc["checks"][0]["kind"] = "style";
  expect_spec_error(doc, "kind must be");

  doc = valid_spec();
  doc["checks"][0]["points"] = -1;
  expect_spec_error(doc, "'points'");

  doc = valid_spec();
  doc["checks"][0]["points"] = "ten";
  expect_spec_error(doc, "'points'");

  doc = valid_spec();
  doc["checks"][0].erase("title");
  expect_spec_error(doc, "check 'Copy.Correctness' needs 'title'");

  doc = valid_spec();
  doc["checks"][1]["timeout_s"] = 0;
  expect_spec_error(doc, "timeout_s");
}

// "timed_with" lets a speed check take its timing from an earlier one's runs: it must name an
// earlier speed check, or the later check would silently time nothing it was meant to share.
TEST(Spec, TimedWithNamesAnEarlierSpeedCheck) {
  auto doc = valid_spec();
  doc["checks"].push_back(json::parse(R"({"id": "Copy.Share", "kind": "speed", "title": "share",
                                          "points": 0, "timed_with": "Copy.Speed"})"));
  EXPECT_NO_THROW(parse_spec(doc, "spec.json"));

  auto later = doc;
  later["checks"][2]["timed_with"] = "Copy.Later";  // no such check before it
  expect_spec_error(later, "'timed_with' must name an earlier speed check");

  auto not_speed = doc;
  not_speed["checks"][2]["timed_with"] = "Copy.Correctness";
  expect_spec_error(not_speed, "'timed_with'");

  auto on_correctness = doc;
  on_correctness["checks"][0]["timed_with"] = "Copy.Speed";
  expect_spec_error(on_correctness, "unknown key 'timed_with' (a correctness check takes");

  auto not_text = doc;
  not_text["checks"][2]["timed_with"] = 3;
  expect_spec_error(not_text, "'timed_with'");
}

TEST(Spec, ParameterErrorsNameCheckAndKey) {
  auto doc = valid_spec();
  doc["checks"][0]["sizes"] = json::parse("[[32, 2000]]");
  const auto spec = parse_spec(doc, "spec.json");
  try {
    spec.checks[0].sizes({"rows", "cols"}, 1024);
    FAIL() << "a size over the reader's largest was accepted";
  } catch (const SpecError& e) {
    EXPECT_STREQ(e.what(),
                 "spec.json: check 'Copy.Correctness': 'sizes' gives cols = 2000; it runs from 1 "
                 "to 1024");
  }
  EXPECT_THROW(parse_spec(valid_spec(), "spec.json").checks[0].size({"rows", "cols"}, 4096),
               SpecError)
      << "one size, not two";
  EXPECT_THROW(spec.checks[1].positive("min_spread"), SpecError);
  EXPECT_THROW(spec.checks[1].param<int>("min_share_missing"), SpecError);
  EXPECT_THROW(spec.at("Copy.Nothing"), SpecError);
}

// An absent optional key reads as the schema table's default, its one place; a key whose
// absence means "no limit" has no value to read and says so.
TEST(Spec, AnAbsentKeyReadsAsTheSchemasDefault) {
  auto doc = valid_spec();
  doc["checks"].push_back(json::parse(R"({"id": "Copy.Shared", "kind": "structure",
      "title": "shares", "points": 1, "sizes": [[32, 32]], "min_shared_bytes": 512})"));
  doc["checks"].push_back(json::parse(R"({"id": "Copy.Plain", "kind": "structure",
      "title": "plain", "points": 1, "sizes": [[32, 32]]})"));
  const auto spec = parse_spec(doc, "spec.json");
  EXPECT_EQ(spec.checks[2].param_or_default<long long>("min_shared_bytes"), 512);
  EXPECT_EQ(spec.checks[3].param_or_default<long long>("min_shared_bytes"), 0);
  EXPECT_FALSE(spec.checks[3].param_or_default<bool>("forbid_copies"));
  EXPECT_EQ(spec.checks[0].param_or_default<std::vector<std::string>>("values"),
            std::vector<std::string>{"integers"});
  EXPECT_EQ(spec.checks[1].rounds(), kDefaultRounds);
  try {
    spec.checks[3].param_or_default<long long>("max_extra_threads");
    FAIL() << "\"any\" read as a number";
  } catch (const SpecError& e) {
    EXPECT_STREQ(e.what(),
                 "spec.json: check 'Copy.Plain' needs 'max_extra_threads' (it has no "
                 "default)");
  }
}

// A check reads its sizes as the dimensions it knows; the spec's must be the same.
TEST(Spec, TheChecksAndTheSpecAgreeOnTheDimensions) {
  const auto spec = parse_spec(valid_spec(), "spec.json");
  try {
    spec.checks[0].sizes({"m", "k", "n"}, 1024);
    FAIL() << "[m, k, n] read from a spec of [rows, cols]";
  } catch (const SpecError& e) {
    EXPECT_STREQ(e.what(),
                 "spec.json: check 'Copy.Correctness' reads its sizes as [m, k, n], but the "
                 "spec's 'dimensions' are [rows, cols] (the test and the spec disagree)");
  }
  try {
    spec.checks[1].min_ratio("naive");
    FAIL() << "a memcpy threshold read as the naive kernel's";
  } catch (const SpecError& e) {
    EXPECT_STREQ(e.what(),
                 "spec.json: check 'Copy.Speed': 'reference' is memcpy, but the check is timed "
                 "against naive (the test and the spec disagree)");
  }
}

TEST(Spec, CountsAreTheSizesOfALabOfOneDimension) {
  auto doc = valid_spec();
  doc["dimensions"] = json::array({"width"});
  doc["checks"][0]["sizes"] = json::parse("[[1], [33], [1024]]");
  doc["checks"][1]["sizes"] = json::parse("[[64]]");
  const auto spec = parse_spec(doc, "spec.json");
  EXPECT_EQ(spec.checks[0].counts("width", 1024), (std::vector<int>{1, 33, 1024}));
  EXPECT_EQ(spec.checks[1].count("width", 64), 64);
  EXPECT_THROW(spec.checks[0].counts("width", 100), SpecError);
  EXPECT_THROW(spec.checks[0].count("width", 1024), SpecError) << "three sizes, not one";
  EXPECT_THROW(spec.checks[0].counts("n", 1024), SpecError) << "the dimension is width";
}

TEST(Spec, CorruptFileGivesAClearError) {
  const auto file = std::filesystem::temp_directory_path() / "labs-spec-test-corrupt.json";
  {
    std::FILE* out = std::fopen(file.c_str(), "w");
    std::fputs("{\"lab\": \"lab1\", \"checks\": [", out);
    std::fclose(out);
  }
  try {
    load_spec(file);
    FAIL() << "corrupt spec accepted";
  } catch (const SpecError& e) {
    EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos) << e.what();
  }
  EXPECT_THROW(load_spec("/nonexistent/spec.json"), SpecError);
}

TEST(Spec, OverridesReplaceParametersForTheRunsThatAskForThem) {
  auto document = valid_spec();
  document["checks"][0]["emulation"] = {{"sizes", {{8, 8}}}, {"timeout_s", 5}};
  auto spec = parse_spec(document, "spec.json");
  EXPECT_EQ(apply_overrides(spec, "emulation"), std::vector<std::string>{"Copy.Correctness"});
  EXPECT_EQ(spec.checks[0].sizes({"rows", "cols"}, 64),
            (std::vector<std::vector<long long>>{{8, 8}}));
  EXPECT_EQ(spec.checks[0].timeout_s, 5);
  EXPECT_EQ(spec.checks[1].size({"rows", "cols"}, 1024), (std::vector<long long>{128, 256}))
      << "others unchanged";
  EXPECT_TRUE(apply_overrides(spec, "other").empty());

  // The overrides follow the same table as the check's own keys.
  document["checks"][0]["emulation"] = {{"points", 100}};
  expect_spec_error(document,
                    "check 'Copy.Correctness': 'emulation': the emulation's overrides "
                    "cannot change 'points'");
  document["checks"][0]["emulation"] = {{"widths", {8}}};
  expect_spec_error(document, "check 'Copy.Correctness': 'emulation': unknown key 'widths'");
  document["checks"][0]["emulation"] = {{"sizes", {{8}}}};
  expect_spec_error(document, "every size in 'sizes' must be [rows, cols]");
  document["checks"][0]["emulation"] = 3;
  expect_spec_error(document, "'emulation' must be an object");
}

// Every lab's shipped spec must load, give points, and use sizes and thresholds that parse.
TEST(Spec, EveryShippedLabSpecLoads) {
  int labs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(LABS_SOURCE_DIR "/labs")) {
    const auto file = entry.path() / "spec.json";
    if (!entry.is_directory() || !std::filesystem::exists(file)) continue;
    ++labs;
    SCOPED_TRACE(file.string());
    const auto spec = load_spec(file);
    EXPECT_GT(spec.total_points(), 0);
    EXPECT_EQ(entry.path().filename().string().rfind(spec.lab + "-", 0), 0u)
        << "the spec's lab id must match its folder";
    for (const auto& check : spec.checks) {
      if (check.has("sizes")) {
        EXPECT_NO_THROW(check.sizes(spec.dimensions, kMaxSpecDimension));
      }
      if (check.kind == "speed" && !check.has("timed_with")) {
        EXPECT_NO_THROW(check.min_ratio(check.param<std::string>("reference")));
      }
    }
    auto emulated = spec;  // the reduced sizes of the CPU emulation apply cleanly too
    EXPECT_NO_THROW(apply_overrides(emulated, "emulation"));
  }
  EXPECT_GE(labs, 1);
}

}  // namespace
}  // namespace contract
