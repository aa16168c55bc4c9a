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
    "lab": "lab9", "title": "Test lab",
    "checks": [
      {"id": "Copy.Correctness", "kind": "correctness", "title": "copies", "points": 10,
       "sizes": [[32, 64], [1, 1]]},
      {"id": "Copy.Speed", "kind": "speed", "title": "fast", "points": 5, "size": [128, 256],
       "min_share": 0.5, "timeout_s": 30}
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
  const auto sizes = spec.checks[0].sizes("sizes");
  ASSERT_EQ(sizes.size(), 2u);
  EXPECT_EQ(sizes[0], std::make_pair(32, 64));
  EXPECT_EQ(spec.at("Copy.Speed").size("size"), std::make_pair(128, 256));
  EXPECT_DOUBLE_EQ(spec.at("Copy.Speed").positive("min_share"), 0.5);
  EXPECT_DOUBLE_EQ(spec.at("Copy.Speed").timeout_s, 30);
  EXPECT_DOUBLE_EQ(spec.at("Copy.Correctness").timeout_s, 120);
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
  expect_spec_error(doc, "'sanitizer' lists memcheck or racecheck");
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
  expect_spec_error(on_correctness, "'timed_with'");

  auto not_text = doc;
  not_text["checks"][2]["timed_with"] = 3;
  expect_spec_error(not_text, "'timed_with'");
}

TEST(Spec, ParameterErrorsNameCheckAndKey) {
  auto doc = valid_spec();
  doc["checks"][0]["sizes"] = json::parse("[[32, 0]]");
  const auto spec = parse_spec(doc, "spec.json");
  try {
    spec.checks[0].sizes("sizes");
    FAIL() << "a zero size was accepted";
  } catch (const SpecError& e) {
    EXPECT_NE(std::string(e.what()).find("Copy.Correctness"), std::string::npos) << e.what();
  }
  EXPECT_THROW(spec.checks[0].sizes("missing"), SpecError);
  EXPECT_THROW(spec.checks[1].positive("size"), SpecError);
  EXPECT_THROW(spec.checks[1].param<int>("min_share_missing"), SpecError);
  EXPECT_THROW(spec.at("Copy.Nothing"), SpecError);
}

TEST(Spec, WidthsAreWholeNumbersInRange) {
  auto doc = valid_spec();
  doc["checks"][0]["width"] = 64;
  doc["checks"][0]["widths"] = json::parse("[1, 33, 1024]");
  const auto check = parse_spec(doc, "spec.json").checks[0];
  EXPECT_EQ(check.width("width", 64), 64);
  EXPECT_EQ(check.widths("widths", 1024), (std::vector<int>{1, 33, 1024}));
}

TEST(Spec, WidthErrorsNameFileCheckAndKey) {
  const auto message_of = [](const json& width, bool list) {
    auto doc = valid_spec();
    doc["checks"][0]["w"] = width;
    const auto check = parse_spec(doc, "spec.json").checks[0];
    try {
      if (list) {
        check.widths("w", 100);
      } else {
        check.width("w", 100);
      }
    } catch (const SpecError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message_of(0, false),
            "spec.json: check 'Copy.Correctness': 'w' holds 0; widths run from 1 to 100");
  EXPECT_EQ(message_of(101, false),
            "spec.json: check 'Copy.Correctness': 'w' holds 101; widths run from 1 to 100");
  EXPECT_EQ(message_of(json::parse("[1, 200]"), true),
            "spec.json: check 'Copy.Correctness': 'w' holds 200; widths run from 1 to 100");
  EXPECT_EQ(message_of(json::array(), true),
            "spec.json: check 'Copy.Correctness': 'w' must list at least one width");
  EXPECT_NE(message_of("ten", false).find("wrong type"), std::string::npos);
  EXPECT_NE(message_of(json::parse("[1, \"x\"]"), true).find("wrong type"), std::string::npos);
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
  EXPECT_EQ(spec.checks[0].sizes("sizes"), (std::vector<std::pair<int, int>>{{8, 8}}));
  EXPECT_EQ(spec.checks[0].timeout_s, 5);
  EXPECT_EQ(spec.checks[1].size("size"), (std::pair<int, int>{128, 256})) << "others unchanged";
  EXPECT_TRUE(apply_overrides(spec, "other").empty());

  document["checks"][0]["emulation"] = {{"points", 100}};
  spec = parse_spec(document, "spec.json");
  EXPECT_THROW(apply_overrides(spec, "emulation"), SpecError) << "points are not a size";
  document["checks"][0]["emulation"] = 3;
  spec = parse_spec(document, "spec.json");
  EXPECT_THROW(apply_overrides(spec, "emulation"), SpecError);
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
      // A one-dimensional lab (lab 10's n) gives its sizes as numbers, a matrix lab as pairs.
      if (check.has("sizes")) {
        const auto& sizes = check.params.at("sizes");
        if (!sizes.empty() && sizes.front().is_number()) {
          EXPECT_NO_THROW(check.widths("sizes", std::numeric_limits<int>::max()));
        } else {
          EXPECT_NO_THROW(check.sizes("sizes"));
        }
      }
      if (check.has("size")) {
        if (check.params.at("size").is_number()) {
          EXPECT_NO_THROW(check.width("size", std::numeric_limits<int>::max()));
        } else {
          EXPECT_NO_THROW(check.size("size"));
        }
      }
    }
    auto emulated = spec;  // the reduced sizes of the CPU emulation apply cleanly too
    EXPECT_NO_THROW(apply_overrides(emulated, "emulation"));
  }
  EXPECT_GE(labs, 1);
}

}  // namespace
}  // namespace contract
