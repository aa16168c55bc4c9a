// The lab spec: points, sizes and thresholds as data an instructor can edit
// (labs/labN-*/spec.json). Host-only. Every problem with the file is reported as a SpecError naming
// the file and the field; the keys, their types, defaults and ranges are spec_schema.hpp's table
// (docs/spec.md).
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "contract/spec_schema.hpp"

namespace contract {

struct SpecError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct CheckSpec {
  std::string id;     // "Group.Name": the GoogleTest name of the test that runs it
  std::string kind;   // correctness, speed or structure
  std::string title;  // one line for the report
  double points = 0;
  double timeout_s = kDefaultCheckSeconds;
  // "bonus": true: extra points on top of the lab's total. A bonus check is optional: a student
  // who does not attempt it gets "not attempted" and 0 extra points, never a failure.
  bool bonus = false;
  // "full_points_at_ratio": r (speed checks): the points scale with the measured ratio to the
  // reference, full points at ratio r and above (lab 8 scores by share of cuBLAS). 0: off.
  double full_points_at_ratio = 0;
  // "visibility": when a platform that hides tests shows this check to the student: "visible"
  // (always, the default), "hidden" (never; Gradescope advises hidden checks carry no points),
  // "after_due_date" or "after_published" (Gradescope's words; the other exports ignore it).
  std::string visibility{kDefaultVisibility};
  nlohmann::json params;                // the whole entry, held to the table of spec_schema.hpp
  std::string source;                   // the spec file, for messages
  std::vector<std::string> dimensions;  // the lab's: the names of a size's numbers

  bool has(std::string_view key) const { return params.contains(std::string(key)); }

  // A required parameter of the given type; throws SpecError naming the file, check and key.
  template <class T>
  T param(std::string_view key) const {
    const auto it = params.find(std::string(key));
    if (it == params.end()) {
      throw SpecError(fmt::format("{}: check '{}' needs '{}'", source, id, key));
    }
    try {
      return it->get<T>();
    } catch (const nlohmann::json::exception&) {
      throw SpecError(
          fmt::format("{}: check '{}': '{}' has the wrong type ({})", source, id, key, it->dump()));
    }
  }

  // An optional parameter: the spec's value, else the default in contract/spec_schema.cpp's
  // table, the one place each default lives. Throws SpecError when the table gives none.
  template <class T>
  T param_or_default(std::string_view key) const {
    if (has(key)) return param<T>(key);
    return default_param(key).get<T>();
  }
  nlohmann::json default_param(std::string_view key) const;

  // "sizes", read by a check that takes sizes as `dimensions` (which must be the spec's: the
  // checks and the spec agree on what a size's numbers are), each number from 1 to `max`.
  std::vector<std::vector<long long>> sizes(const std::vector<std::string>& dimensions,
                                            long long max) const;
  // The one size of a check that runs at one size ("sizes" holding one).
  std::vector<long long> size(const std::vector<std::string>& dimensions, long long max) const;
  // The sizes of a lab sized by one number named `dimension` ("width", "n"), each from 1 to max.
  std::vector<int> counts(std::string_view dimension, int max) const;
  int count(std::string_view dimension, int max) const;  // the one size of such a lab
  // A positive number, e.g. a threshold; throws if absent, not a number or <= 0.
  double positive(std::string_view key) const;
  // "rounds": how many times a speed check measures (1 when absent, at most 10).
  int rounds() const;
  // A speed check's threshold, "min_ratio", once its "reference" is `reference` (memcpy, naive,
  // cublas): the one the check times it against. Throws SpecError when they differ.
  double min_ratio(std::string_view reference) const;
};

struct LabSpec {
  std::string lab;    // "lab1"
  std::string title;  // "Matrix copy"
  std::string source;
  std::vector<std::string> dimensions;  // "dimensions": the names of a size's numbers
  std::vector<CheckSpec> checks;
  // The compute-sanitizer tools labgrade batch runs over the correctness checks' first cases on a
  // GPU ("sanitizer": ["memcheck", "racecheck"]); memcheck alone when the spec says nothing, none
  // for "sanitizer": [].
  std::vector<std::string> sanitizer_tools{std::string(kDefaultSanitizer)};

  double total_points() const;  // the base total: bonus checks not included
  double bonus_points() const;  // what the bonus checks add at most
  double speed_points() const;  // the base (not bonus) speed checks': measured on a GPU only
  const CheckSpec* find(std::string_view id) const;
  const CheckSpec& at(std::string_view id) const;  // throws SpecError
};

LabSpec parse_spec(const nlohmann::json& document, const std::string& source);

// For runs that cannot afford a check's sizes (the CPU emulation): a check may hold an object
// under `key` (e.g. "emulation": {"sizes": [[32], [64]]}) whose entries replace the check's own,
// "timeout_s" and "title" included (a title that names the sizes the override runs); parse_spec
// held them to the same table. Returns the ids of the checks that changed.
std::vector<std::string> apply_overrides(LabSpec& spec, std::string_view key);
LabSpec load_spec(const std::filesystem::path& file);

}  // namespace contract
