#include "contract/spec.hpp"

#include <algorithm>

#include <fstream>
#include <set>

namespace contract {
namespace {

using nlohmann::json;

bool is_valid_check_id(const std::string& id) {
  // GoogleTest "Suite.Name", each part an identifier, so the id can be a --gtest_filter and a
  // file name.
  const auto dot = id.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == id.size()) return false;
  if (id.find('.', dot + 1) != std::string::npos) return false;
  for (char ch : id) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                    (ch >= '0' && ch <= '9') || ch == '_' || ch == '.';
    if (!ok) return false;
  }
  return true;
}

std::string dimension_list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
  return "[" + out + "]";
}

}  // namespace

std::vector<std::vector<long long>> CheckSpec::sizes(const std::vector<std::string>& names,
                                                     long long max) const {
  if (names != dimensions) {
    throw SpecError(
        fmt::format("{}: check '{}' reads its sizes as {}, but the spec's "
                    "'dimensions' are {} (the test and the spec disagree)",
                    source, id, dimension_list(names), dimension_list(dimensions)));
  }
  // parse_spec held the list's shape to the table; a CheckSpec made by hand is held here.
  const auto list = param<std::vector<std::vector<long long>>>("sizes");
  if (list.empty()) throw SpecError(fmt::format("{}: check '{}': 'sizes' is empty", source, id));
  for (const auto& size : list) {
    if (size.size() != names.size()) {
      throw SpecError(fmt::format("{}: check '{}': 'sizes' holds sizes {}, got {}", source, id,
                                  dimension_list(names), nlohmann::json(size).dump()));
    }
    for (std::size_t i = 0; i < size.size(); ++i) {
      if (size[i] < 1 || size[i] > max) {
        throw SpecError(fmt::format("{}: check '{}': 'sizes' gives {} = {}; it runs from 1 to {}",
                                    source, id, names[i], size[i], max));
      }
    }
  }
  return list;
}

std::vector<long long> CheckSpec::size(const std::vector<std::string>& names, long long max) const {
  const auto list = sizes(names, max);
  if (list.size() != 1) {
    throw SpecError(
        fmt::format("{}: check '{}': 'sizes' must hold one size, not {}", source, id, list.size()));
  }
  return list.front();
}

std::vector<int> CheckSpec::counts(std::string_view dimension, int max) const {
  std::vector<int> out;
  for (const auto& size : sizes({std::string(dimension)}, max)) {
    out.push_back(static_cast<int>(size.front()));
  }
  return out;
}

int CheckSpec::count(std::string_view dimension, int max) const {
  return static_cast<int>(size({std::string(dimension)}, max).front());
}

double CheckSpec::min_ratio(std::string_view reference) const {
  const auto named = param<std::string>("reference");
  if (named != reference) {
    throw SpecError(
        fmt::format("{}: check '{}': 'reference' is {}, but the check is timed "
                    "against {} (the test and the spec disagree)",
                    source, id, named, reference));
  }
  return positive("min_ratio");
}

double CheckSpec::positive(std::string_view key) const {
  const auto value = param<json>(key);
  if (!value.is_number() || value.get<double>() <= 0) {
    throw SpecError(fmt::format("{}: check '{}': '{}' must be a number > 0, got {}", source, id,
                                key, value.dump()));
  }
  return value.get<double>();
}

nlohmann::json CheckSpec::default_param(std::string_view key) const {
  const SpecKey* row = find_check_key(key, kind);
  // "any", "off" and "" say what the key's absence means; only a JSON value is a default.
  auto value = row ? nlohmann::json::parse(row->default_text, nullptr, false) : nlohmann::json();
  if (!row || value.is_discarded()) {
    throw SpecError(fmt::format("{}: check '{}' needs '{}' (it has no default)", source, id, key));
  }
  return value;
}

int CheckSpec::rounds() const {
  const int value = param_or_default<int>("rounds");
  if (value < 1 || value > 10) {
    throw SpecError(
        fmt::format("{}: check '{}': 'rounds' runs from 1 to 10, got {}", source, id, value));
  }
  return value;
}

double LabSpec::total_points() const {
  double total = 0;
  for (const auto& check : checks) total += check.bonus ? 0 : check.points;
  return total;
}

double LabSpec::bonus_points() const {
  double total = 0;
  for (const auto& check : checks) total += check.bonus ? check.points : 0;
  return total;
}

double LabSpec::speed_points() const {
  double total = 0;
  for (const auto& check : checks)
    total += !check.bonus && check.kind == "speed" ? check.points : 0;
  return total;
}

const CheckSpec* LabSpec::find(std::string_view id) const {
  for (const auto& check : checks) {
    if (check.id == id) return &check;
  }
  return nullptr;
}

const CheckSpec& LabSpec::at(std::string_view id) const {
  if (const auto* check = find(id)) return *check;
  throw SpecError(fmt::format("{}: no check '{}' (the test and the spec disagree)", source, id));
}

namespace {

// A field that must be a non-empty string; `where` names its object in the error.
std::string text_field(const json& object, const char* key, const std::string& where,
                       const std::string& source) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_string() || it->get<std::string>().empty()) {
    throw SpecError(fmt::format("{}: {} needs a non-empty string '{}'", source, where, key));
  }
  return it->get<std::string>();
}

// The spec's own keys: known (spec_schema.hpp's lab_keys), of their types; "dimensions" read.
void read_lab_keys(const json& document, LabSpec& spec, const std::string& source) {
  for (const auto& [name, value] : document.items()) {
    const auto& keys = lab_keys();
    const auto key =
        std::find_if(keys.begin(), keys.end(), [&](const SpecKey& k) { return k.name == name; });
    if (key == keys.end()) {
      throw SpecError(
          fmt::format("{}: unknown key '{}' (a spec holds lab, title, dimensions, "
                      "sanitizer and checks; docs/spec.md)",
                      source, name));
    }
    if (name == "sanitizer" && value.is_array() && value.empty()) continue;  // none at all
    if (name != "checks") check_value(*key, value, {}, "the spec", source);
  }
  spec.lab = text_field(document, "lab", "the spec", source);
  spec.title = text_field(document, "title", "the spec", source);
  if (const auto tools = document.find("sanitizer"); tools != document.end()) {
    spec.sanitizer_tools = tools->get<std::vector<std::string>>();
  }
  if (const auto names = document.find("dimensions"); names != document.end()) {
    spec.dimensions = names->get<std::vector<std::string>>();
  }
}

// "timed_with" must name an earlier speed check (its runs time this one too).
void check_timed_with(const json& entry, const std::vector<CheckSpec>& earlier,
                      const std::string& where, const std::string& source) {
  const auto with = entry.find("timed_with");
  if (with == entry.end()) return;
  const auto named = std::find_if(earlier.begin(), earlier.end(), [&](const auto& c) {
    return c.id == with->get<std::string>() && c.kind == "speed";
  });
  if (named == earlier.end()) {
    throw SpecError(fmt::format("{}: {}: 'timed_with' must name an earlier speed check, got {}",
                                source, where, with->dump()));
  }
}

// The id and kind first (the table's rows depend on the kind), then every key held to the table.
CheckSpec parse_check(const json& entry, const LabSpec& spec, std::set<std::string>& seen,
                      const std::string& source) {
  if (!entry.is_object()) {
    throw SpecError(fmt::format("{}: every entry of 'checks' must be an object", source));
  }
  CheckSpec check;
  check.source = source;
  check.params = entry;
  check.dimensions = spec.dimensions;
  check.id = text_field(entry, "id", "every check", source);
  const auto where = fmt::format("check '{}'", check.id);
  if (!is_valid_check_id(check.id)) {
    throw SpecError(fmt::format("{}: {}: the id must look like Group.Name (letters, digits, _)",
                                source, where));
  }
  if (!seen.insert(check.id).second) {
    throw SpecError(fmt::format("{}: {} appears twice", source, where));
  }
  check.kind = text_field(entry, "kind", where, source);
  if (check.kind != "correctness" && check.kind != "speed" && check.kind != "structure") {
    throw SpecError(fmt::format("{}: {}: kind must be correctness, speed or structure, not '{}'",
                                source, where, check.kind));
  }
  check_entry_keys(entry, check.kind, spec.dimensions, false, where, source);
  for (const auto& key : check_keys()) {
    if (key.required && !entry.contains(key.name)) {
      throw SpecError(
          fmt::format("{}: {} needs '{}' ({})", source, where, key.name, describe_range(key)));
    }
  }
  if (const auto overrides = entry.find("emulation"); overrides != entry.end()) {
    check_entry_keys(*overrides, check.kind, spec.dimensions, true,
                     fmt::format("{}: 'emulation'", where), source);
  }
  check_timed_with(entry, spec.checks, where, source);
  check.title = entry.at("title").get<std::string>();
  check.points = entry.at("points").get<double>();
  check.timeout_s = entry.value("timeout_s", kDefaultCheckSeconds);
  check.bonus = entry.value("bonus", false);
  check.full_points_at_ratio = entry.value("full_points_at_ratio", 0.0);
  check.visibility = entry.value("visibility", std::string(kDefaultVisibility));
  return check;
}

}  // namespace

LabSpec parse_spec(const json& document, const std::string& source) {
  if (!document.is_object()) throw SpecError(fmt::format("{}: must be a JSON object", source));
  LabSpec spec;
  spec.source = source;
  read_lab_keys(document, spec, source);
  const auto checks = document.find("checks");
  if (checks == document.end() || !checks->is_array() || checks->empty()) {
    throw SpecError(fmt::format("{}: needs a non-empty list 'checks'", source));
  }
  std::set<std::string> seen;
  for (const auto& entry : *checks) {
    spec.checks.push_back(parse_check(entry, spec, seen, source));
  }
  return spec;
}

std::vector<std::string> apply_overrides(LabSpec& spec, std::string_view key) {
  std::vector<std::string> changed;
  for (auto& check : spec.checks) {
    const auto it = check.params.find(std::string(key));
    if (it == check.params.end()) continue;
    const auto where = fmt::format("check '{}': '{}'", check.id, key);
    if (!it->is_object()) {
      throw SpecError(fmt::format("{}: {} must be an object of parameters", spec.source, where));
    }
    const json overrides = *it;
    // parse_spec held "emulation" to the table; any other key is held here.
    check_entry_keys(overrides, check.kind, spec.dimensions, true, where, spec.source);
    for (const auto& [name, value] : overrides.items()) check.params[name] = value;
    // The title says what the check runs (its sizes): one that names the GPU's sizes would be
    // untrue where the override changes them.
    check.title = overrides.value("title", check.title);
    check.timeout_s = overrides.value("timeout_s", check.timeout_s);
    changed.push_back(check.id);
  }
  return changed;
}

LabSpec load_spec(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw SpecError(fmt::format("{}: cannot open the lab spec", file.string()));
  json document;
  try {
    document = json::parse(in);
  } catch (const json::parse_error& e) {
    throw SpecError(fmt::format("{}: not valid JSON: {}", file.string(), e.what()));
  }
  return parse_spec(document, file.string());
}

}  // namespace contract
