// A check's "visibility" (when Gradescope shows it to the student): read from the spec, checked
// like every other field, and not changed by a backend's overrides.
#include <string>

#include <gtest/gtest.h>

#include "contract/spec.hpp"

namespace contract {
namespace {

using nlohmann::json;

json spec_with_visibility(const json& visibility) {
  auto document = json::parse(R"({
    "lab": "lab9", "title": "Test lab",
    "checks": [
      {"id": "Copy.Correctness", "kind": "correctness", "title": "copies", "points": 10},
      {"id": "Copy.Hidden", "kind": "correctness", "title": "copies more", "points": 0}
    ]})");
  document["checks"][1]["visibility"] = visibility;
  return document;
}

std::string spec_error(const json& document) {
  try {
    parse_spec(document, "labs/lab9-copy/spec.json");
  } catch (const SpecError& error) {
    return error.what();
  }
  return "accepted";
}

TEST(SpecVisibility, DefaultsToVisible) {
  const auto spec = parse_spec(spec_with_visibility("hidden"), "spec.json");
  EXPECT_EQ(spec.at("Copy.Correctness").visibility, "visible");
}

TEST(SpecVisibility, ReadsEachOfGradescopesValues) {
  for (const std::string value : {"visible", "hidden", "after_due_date", "after_published"}) {
    const auto spec = parse_spec(spec_with_visibility(value), "spec.json");
    EXPECT_EQ(spec.at("Copy.Hidden").visibility, value);
  }
}

TEST(SpecVisibility, AnUnknownValueNamesTheFileTheCheckAndTheField) {
  const std::string message = spec_error(spec_with_visibility("secret"));
  EXPECT_NE(message.find("labs/lab9-copy/spec.json"), std::string::npos) << message;
  EXPECT_NE(message.find("check 'Copy.Hidden'"), std::string::npos) << message;
  EXPECT_NE(
      message.find("'visibility' must be one of visible, hidden, after_due_date, after_published"),
      std::string::npos)
      << message;
  EXPECT_NE(message.find("\"secret\""), std::string::npos) << message;
}

TEST(SpecVisibility, ANonStringOrWrongCaseIsAnError) {
  EXPECT_NE(spec_error(spec_with_visibility(true)).find("'visibility'"), std::string::npos);
  EXPECT_NE(spec_error(spec_with_visibility("Hidden")).find("'visibility'"), std::string::npos);
  EXPECT_NE(spec_error(spec_with_visibility("")).find("'visibility'"), std::string::npos);
}

// The emulation's overrides change sizes and limits; who may see a check is the course's choice.
TEST(SpecVisibility, OverridesCannotChangeIt) {
  auto document = spec_with_visibility("hidden");
  document["checks"][1]["emulation"] = json{{"visibility", "visible"}};
  const std::string message = spec_error(document);
  EXPECT_NE(message.find("check 'Copy.Hidden': 'emulation': the emulation's overrides cannot "
                         "change 'visibility'"),
            std::string::npos)
      << message;
}

}  // namespace
}  // namespace contract
