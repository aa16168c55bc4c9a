#include "contract/spec_schema.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "contract/spec.hpp"

namespace contract {
namespace {

using nlohmann::json;

const std::vector<SpecKey> kCheckKeys = {
    {.name = "id",
     .type = KeyType::text,
     .required = true,
     .in_override = false,
     .meaning = "Group.Name: the GoogleTest name of the check's test (letters, digits, _), "
                "unique in the lab"},
    {.name = "kind",
     .type = KeyType::text,
     .required = true,
     .choices = {"correctness", "structure", "speed"},
     .in_override = false,
     .meaning = "what the check judges: the outputs, the launches, or the time"},
    {.name = "title",
     .type = KeyType::text,
     .required = true,
     .meaning = "one line for the report; an override's title names the sizes it runs"},
    {.name = "points",
     .type = KeyType::number,
     .required = true,
     .min = 0,
     .in_override = false,
     .meaning = "what a pass earns"},
    {.name = "bonus",
     .type = KeyType::boolean,
     .default_text = "false",
     .in_override = false,
     .meaning = "extra points beyond the lab's total; without bonus.cu the check is "
                "'not attempted', never failed"},
    {.name = "visibility",
     .type = KeyType::text,
     .default_text = std::string(kDefaultVisibility),
     .choices = {"visible", "hidden", "after_due_date", "after_published"},
     .in_override = false,
     .meaning = "when Gradescope shows the check to the student (the other exports ignore it)"},
    {.name = "timeout_s",
     .type = KeyType::number,
     .default_text = fmt::format("{}", kDefaultCheckSeconds),
     .min = 0,
     .min_open = true,
     .meaning = "the check's time limit in seconds, under ctest, labcheck and the batch"},
    {.name = "emulation",
     .type = KeyType::object,
     .in_override = false,
     .meaning = "the CPU emulation's overrides: the check's own keys (smaller sizes, a longer "
                "timeout_s, a title naming them), never id, kind, points, bonus or visibility"},
    {.name = "sizes",
     .kinds = kCorrectness,
     .type = KeyType::sizes,
     .min = 1,
     .meaning = "the cases: one run per size, each size a list of the lab's dimensions"},
    {.name = "sizes",
     .kinds = kStructure,
     .type = KeyType::sizes,
     .min = 1,
     .max = 1,
     .meaning = "the one size at which the check observes the launches"},
    {.name = "sizes",
     .kinds = kSpeed,
     .type = KeyType::sizes,
     .min = 1,
     .max = 1,
     .meaning = "the one size that is timed"},
    {.name = "values",
     .kinds = kCorrectness,
     .type = KeyType::texts,
     .default_text = R"(["integers"])",
     .min = 1,
     .choices = {"integers", "reals"},
     .meaning = "the random matrices' values (the product labs): integers compare exactly, reals "
                "within the rounding bound"},
    {.name = "forbid_copies",
     .kinds = kStructure,
     .type = KeyType::boolean,
     .default_text = "false",
     .meaning = "a device-to-device copy would do the work (lab 1's copy): the check fails it"},
    {.name = "max_extra_threads",
     .kinds = kStructure,
     .type = KeyType::whole,
     .default_text = "any",
     .min = 0,
     .meaning = "at most this many threads beyond one per output element"},
    {.name = "min_elements_per_thread",
     .kinds = kStructure,
     .type = KeyType::number,
     .min = 0,
     .min_open = true,
     .meaning = "each thread handles this many elements or more (of the output, or of the input "
                "of a reduction); the check needs it"},
    {.name = "min_shared_bytes",
     .kinds = kStructure,
     .type = KeyType::whole,
     .default_text = "0",
     .min = 0,
     .meaning = "every launch has at least this many bytes of shared memory"},
    {.name = "reference",
     .kinds = kSpeed,
     .type = KeyType::text,
     .choices = {"memcpy", "naive", "cublas"},
     .meaning = "what the check is timed against, in alternation on the same GPU: cudaMemcpy of "
                "the same bytes, the textbook naive kernel, cuBLAS SGEMM (FP32); must be the "
                "check's own"},
    {.name = "min_ratio",
     .kinds = kSpeed,
     .type = KeyType::number,
     .min = 0,
     .min_open = true,
     .meaning = "the threshold: a pass needs the check's rate over the reference's at least this "
                "(0.45: 45% of cudaMemcpy's bandwidth; 1.2: 20% faster than the naive kernel)"},
    {.name = "full_points_at_ratio",
     .kinds = kSpeed,
     .type = KeyType::number,
     .default_text = "off",
     .min = 0,
     .min_open = true,
     .meaning = "points scale with the ratio: full points at this ratio and above (lab 8)"},
    {.name = "repetitions",
     .kinds = kSpeed,
     .type = KeyType::whole,
     .min = 1,
     .max = 1000,
     .meaning = "timed calls per round; the check needs it"},
    {.name = "rounds",
     .kinds = kSpeed,
     .type = KeyType::whole,
     .default_text = std::to_string(kDefaultRounds),
     .min = 1,
     .max = 10,
     .meaning = "how many times the whole alternating measurement is repeated"},
    {.name = "max_spread",
     .kinds = kSpeed,
     .type = KeyType::number,
     .min = 0,
     .min_open = true,
     .meaning = "a round's spread, or the rounds' disagreement, above this is inconclusive, not "
                "failed; the check needs it"},
    {.name = "timed_with",
     .kinds = kSpeed,
     .type = KeyType::text,
     .meaning = "an earlier speed check at the same size whose runs time this one too"},
    {.name = "leaderboard",
     .kinds = kSpeed,
     .type = KeyType::text,
     .meaning = "the leaderboard column (Gradescope's, the class page) this check's ratio fills"},
};

const std::vector<SpecKey> kLabKeys = {
    {.name = "lab",
     .type = KeyType::text,
     .required = true,
     .meaning = "the lab's id, labN: its folder's prefix"},
    {.name = "title", .type = KeyType::text, .required = true, .meaning = "the lab's name"},
    {.name = "dimensions",
     .type = KeyType::texts,
     .min = 1,
     .max = 4,
     .meaning = "the names of a size's numbers, in order: [rows, cols], [width], [m, k, n], [n]; "
                "needed when a check has sizes"},
    {.name = "sanitizer",
     .type = KeyType::texts,
     .default_text = fmt::format("[{}]", kDefaultSanitizer),
     .choices = {"memcheck", "racecheck"},
     .meaning = "the compute-sanitizer tools the batch runs over the correctness checks on a GPU"},
    {.name = "checks",
     .type = KeyType::object,
     .required = true,
     .meaning = "the list of checks, in the order the report shows them (the keys below)"},
};

std::string joined(const std::vector<std::string>& names) {
  return fmt::format("{}", fmt::join(names, ", "));
}

std::string number_text(double value) { return fmt::format("{}", value); }

bool in_range(const SpecKey& key, double value) {
  if (key.min_open ? value <= key.min : value < key.min) return false;
  return key.max == 0 || value <= key.max;
}

[[noreturn]] void bad_value(const SpecKey& key, const json& value, const std::string& where,
                            const std::string& source) {
  throw SpecError(fmt::format("{}: {}: '{}' must be {}, got {}", source, where, key.name,
                              describe_range(key), value.dump()));
}

void check_sizes(const SpecKey& key, const json& value, const std::vector<std::string>& dimensions,
                 const std::string& where, const std::string& source) {
  if (dimensions.empty()) {
    throw SpecError(
        fmt::format("{}: {}: 'sizes' needs the spec's 'dimensions' (their names, "
                    "e.g. [\"rows\", \"cols\"])",
                    source, where));
  }
  if (!value.is_array() || !in_range(key, static_cast<double>(value.size()))) {
    bad_value(key, value, where, source);
  }
  for (const auto& size : value) {
    bool good = size.is_array() && size.size() == dimensions.size();
    for (const auto& number : good ? size : json::array()) {
      good = good && number.is_number_integer() && number.get<long long>() >= 1 &&
             number.get<long long>() <= kMaxSpecDimension;
    }
    if (!good) {
      throw SpecError(
          fmt::format("{}: {}: every size in 'sizes' must be [{}], whole numbers from "
                      "1 to {}, got {}",
                      source, where, joined(dimensions), kMaxSpecDimension, size.dump()));
    }
  }
}

bool is_choice(const SpecKey& key, const json& value) {
  return value.is_string() && !value.get<std::string>().empty() &&
         (key.choices.empty() || std::find(key.choices.begin(), key.choices.end(),
                                           value.get<std::string>()) != key.choices.end());
}

std::vector<std::string> keys_for(std::string_view kind, bool in_override) {
  std::vector<std::string> names;
  for (const auto& key : kCheckKeys) {
    if (find_check_key(key.name, kind) != &key || (in_override && !key.in_override)) continue;
    names.push_back(key.name);
  }
  return names;
}

unsigned kind_bit(std::string_view kind) {
  if (kind == "correctness") return kCorrectness;
  if (kind == "structure") return kStructure;
  if (kind == "speed") return kSpeed;
  return 0;
}

}  // namespace

const std::vector<SpecKey>& check_keys() { return kCheckKeys; }
const std::vector<SpecKey>& lab_keys() { return kLabKeys; }

const SpecKey* find_check_key(std::string_view name, std::string_view kind) {
  const unsigned bit = kind_bit(kind);
  for (const auto& key : kCheckKeys) {
    if (key.name == name && (key.kinds & bit) != 0) return &key;
  }
  return nullptr;
}

std::string describe_type(const SpecKey& key) {
  switch (key.type) {
    case KeyType::text:
      return "text";
    case KeyType::texts:
      return "list of texts";
    case KeyType::boolean:
      return "true or false";
    case KeyType::whole:
      return "whole number";
    case KeyType::number:
      return "number";
    case KeyType::sizes:
      return "list of sizes";
    case KeyType::object:
      return key.name == "checks" ? "list of objects" : "object";
  }
  return "?";
}

std::string describe_range(const SpecKey& key) {
  const auto bounds = [&](const char* what) {
    const auto low = fmt::format("{} {}", key.min_open ? ">" : ">=", number_text(key.min));
    if (key.max == 0) return fmt::format("{} {}", what, low);
    if (key.min_open) return fmt::format("{} {}, <= {}", what, low, number_text(key.max));
    return fmt::format("{} from {} to {}", what, number_text(key.min), number_text(key.max));
  };
  switch (key.type) {
    case KeyType::text:
      return key.choices.empty() ? "a non-empty text" : "one of " + joined(key.choices);
    case KeyType::texts:
      return key.choices.empty() ? "a non-empty list of texts" : "a list of " + joined(key.choices);
    case KeyType::boolean:
      return "true or false";
    case KeyType::whole:
      return bounds("a whole number");
    case KeyType::number:
      return bounds("a number");
    case KeyType::sizes:
      return key.max == 1 ? "a list of one size" : "a non-empty list of sizes";
    case KeyType::object:
      return key.name == "checks" ? "a non-empty list" : "an object";
  }
  return "?";
}

void check_value(const SpecKey& key, const json& value, const std::vector<std::string>& dimensions,
                 const std::string& where, const std::string& source) {
  switch (key.type) {
    case KeyType::text:
      if (!is_choice(key, value)) bad_value(key, value, where, source);
      return;
    case KeyType::texts:
      if (!value.is_array() || value.empty() || (key.max != 0 && value.size() > key.max) ||
          !std::all_of(value.begin(), value.end(),
                       [&](const json& v) { return is_choice(key, v); })) {
        bad_value(key, value, where, source);
      }
      return;
    case KeyType::boolean:
      if (!value.is_boolean()) bad_value(key, value, where, source);
      return;
    case KeyType::whole:
      if (!value.is_number_integer() || !in_range(key, value.get<double>())) {
        bad_value(key, value, where, source);
      }
      return;
    case KeyType::number:
      if (!value.is_number() || !in_range(key, value.get<double>())) {
        bad_value(key, value, where, source);
      }
      return;
    case KeyType::sizes:
      check_sizes(key, value, dimensions, where, source);
      return;
    case KeyType::object:
      if (!value.is_object()) bad_value(key, value, where, source);
      return;
  }
}

void check_entry_keys(const json& entry, std::string_view kind,
                      const std::vector<std::string>& dimensions, bool in_override,
                      const std::string& where, const std::string& source) {
  for (const auto& [name, value] : entry.items()) {
    const SpecKey* key = find_check_key(name, kind);
    if (key == nullptr) {
      throw SpecError(fmt::format("{}: {}: unknown key '{}' (a {} check takes {}; docs/spec.md)",
                                  source, where, name, kind, joined(keys_for(kind, in_override))));
    }
    if (in_override && !key->in_override) {
      throw SpecError(
          fmt::format("{}: {}: the emulation's overrides cannot change '{}'", source, where, name));
    }
    check_value(*key, value, dimensions, where, source);
  }
}

std::string spec_keys_markdown() {
  std::string out;
  const auto row = [&](const SpecKey& key) {
    out += fmt::format(
        "| `{}` | {} | {} | {} | {} |\n", key.name, describe_type(key),
        key.required ? "required" : (key.default_text.empty() ? "none" : key.default_text),
        describe_range(key), key.meaning);
  };
  const auto header = [&](const std::string& title) {
    out += fmt::format(
        "\n### {}\n\n| key | type | default | range | meaning |\n"
        "| --- | --- | --- | --- | --- |\n",
        title);
  };
  header("The spec");
  for (const auto& key : kLabKeys) row(key);
  for (const char* kind : {"correctness", "structure", "speed"}) {
    header(fmt::format("A {} check", kind));
    for (const auto& key : kCheckKeys) {
      if (find_check_key(key.name, kind) == &key) row(key);
    }
  }
  return out;
}

}  // namespace contract
