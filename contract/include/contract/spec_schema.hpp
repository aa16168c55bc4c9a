// The one table of a lab spec's keys (labs/labN-*/spec.json): for each key its type, default,
// range and meaning, per check kind. parse_spec (spec.hpp) holds every spec to it: a key the
// table does not have for the check's kind, a value of the wrong type or out of its range stops
// the load with the file, the check and the field named. docs/spec.md is this table rendered
// (`labspec keys`; contract.SpecSchema.TheDocumentedTableIsCurrent holds the two together).
//
// One way to write a size: "sizes", a list of sizes, each a list of whole numbers in the order of
// the lab's "dimensions" (["rows", "cols"], ["width"], ["m", "k", "n"], ["n"]); a check that
// runs at one size (structure, speed) lists one. One way to write a speed threshold: "min_ratio",
// the check's rate over its "reference"'s (cudaMemcpy, the naive kernel or cuBLAS), timed in
// alternation on the same GPU.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace contract {

// The defaults the table shows and the readers use, from here alone. The time limit of a check
// whose spec names none ("timeout_s"): ctest's, labcheck's and the batch's.
inline constexpr double kDefaultCheckSeconds = 120;
inline constexpr std::string_view kDefaultVisibility = "visible";  // "visibility"
inline constexpr int kDefaultRounds = 1;                           // "rounds"
inline constexpr std::string_view kDefaultSanitizer = "memcheck";  // "sanitizer": this tool alone
// The largest dimension a size may give (the contracts index with int); a lab's reader may
// allow less.
inline constexpr long long kMaxSpecDimension = (1LL << 31) - 1;

enum class KeyType {
  text,     // a non-empty string (from `choices` when the key has any)
  texts,    // a list of strings (from `choices` when the key has any)
  boolean,  // true or false
  whole,    // a whole number
  number,   // any number
  sizes,    // a list of sizes, each a list of the lab's dimensions, whole numbers >= 1
  object,   // an object of the check's own keys (the emulation's overrides)
};

// Bits of the check kinds a key applies to.
enum KindBits : unsigned { kCorrectness = 1, kStructure = 2, kSpeed = 4, kAnyKind = 7 };

struct SpecKey {
  std::string name;
  unsigned kinds = kAnyKind;
  KeyType type = KeyType::text;
  bool required = false;
  std::string default_text;  // "" when required or when absent means "off"
  // The range of a whole number or number (inclusive; min_open: strictly above min); for sizes
  // the number of sizes; for texts the number of entries.
  double min = 0;
  bool min_open = false;
  double max = 0;                    // 0: no upper bound
  std::vector<std::string> choices;  // the values a text (or each of texts) may take
  bool in_override = true;           // may an "emulation" object change it?
  std::string meaning;               // one line
};

// The keys of one entry of "checks": one row per key and kind where the meaning differs.
const std::vector<SpecKey>& check_keys();
// The spec's own keys (lab, title, dimensions, sanitizer, checks).
const std::vector<SpecKey>& lab_keys();

// The row for `name` on a check of `kind` (correctness, structure, speed); null when the table
// has none: the key is unknown for that kind.
const SpecKey* find_check_key(std::string_view name, std::string_view kind);

// "whole number >= 1", "number > 0", "one of visible, hidden, ..." ...: the range in words.
std::string describe_range(const SpecKey& key);
std::string describe_type(const SpecKey& key);

// Holds one value to its row: throws SpecError "<source>: <where>: '<name>' ..." on a wrong type
// or range. `dimensions` is the lab's (for sizes).
void check_value(const SpecKey& key, const nlohmann::json& value,
                 const std::vector<std::string>& dimensions, const std::string& where,
                 const std::string& source);

// Holds every key of a check entry (or of its "emulation" object, `in_override`) to the table.
void check_entry_keys(const nlohmann::json& entry, std::string_view kind,
                      const std::vector<std::string>& dimensions, bool in_override,
                      const std::string& where, const std::string& source);

// The table as docs/spec.md shows it (Markdown).
std::string spec_keys_markdown();

}  // namespace contract
