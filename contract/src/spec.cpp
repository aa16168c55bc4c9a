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

std::pair<int, int> read_size(const json& value, const std::string& where) {
  if (!value.is_array() || value.size() != 2 || !value[0].is_number_integer() ||
      !value[1].is_number_integer()) {
    throw SpecError(fmt::format("{}: expected [rows, cols], got {}", where, value.dump()));
  }
  const long long rows = value[0].get<long long>();
  const long long cols = value[1].get<long long>();
  if (rows < 1 || cols < 1 || rows > (1LL << 20) || cols > (1LL << 20)) {
    throw SpecError(
        fmt::format("{}: sizes must be between 1 and 1048576, got {}", where, value.dump()));
  }
  return {static_cast<int>(rows), static_cast<int>(cols)};
}

int checked_width(const CheckSpec& spec, std::string_view key, int width, int max) {
  if (width < 1 || width > max) {
    throw SpecError(fmt::format("{}: check '{}': '{}' holds {}; widths run from 1 to {}",
                                spec.source, spec.id, key, width, max));
  }
  return width;
}

}  // namespace

std::vector<std::pair<int, int>> CheckSpec::sizes(std::string_view key) const {
  const auto list = param<json>(key);
  const auto where = fmt::format("{}: check '{}': '{}'", source, id, key);
  if (!list.is_array() || list.empty()) {
    throw SpecError(fmt::format("{}: expected a non-empty list of [rows, cols]", where));
  }
  std::vector<std::pair<int, int>> out;
  for (const auto& entry : list) out.push_back(read_size(entry, where));
  return out;
}

std::pair<int, int> CheckSpec::size(std::string_view key) const {
  return read_size(param<json>(key), fmt::format("{}: check '{}': '{}'", source, id, key));
}

double CheckSpec::positive(std::string_view key) const {
  const auto value = param<json>(key);
  if (!value.is_number() || value.get<double>() <= 0) {
    throw SpecError(fmt::format("{}: check '{}': '{}' must be a number > 0, got {}", source, id,
                                key, value.dump()));
  }
  return value.get<double>();
}

int CheckSpec::rounds() const {
  if (!has("rounds")) return 1;
  const int value = param<int>("rounds");
  if (value < 1 || value > 10) {
    throw SpecError(
        fmt::format("{}: check '{}': 'rounds' runs from 1 to 10, got {}", source, id, value));
  }
  return value;
}

int CheckSpec::width(std::string_view key, int max) const {
  return checked_width(*this, key, param<int>(key), max);
}

std::vector<int> CheckSpec::widths(std::string_view key, int max) const {
  const auto list = param<std::vector<int>>(key);
  if (list.empty()) {
    throw SpecError(
        fmt::format("{}: check '{}': '{}' must list at least one width", source, id, key));
  }
  for (const int width : list) checked_width(*this, key, width, max);
  return list;
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

// The spec's "sanitizer": the compute-sanitizer tools the batch's sanitizer pass runs.
std::vector<std::string> sanitizer_tools(const json& tools, const std::string& source) {
  if (!tools.is_array()) {
    throw SpecError(fmt::format("{}: 'sanitizer' must be a list of tools", source));
  }
  std::vector<std::string> names;
  for (const auto& tool : tools) {
    if (!tool.is_string() || (tool != "memcheck" && tool != "racecheck")) {
      throw SpecError(
          fmt::format("{}: 'sanitizer' lists memcheck or racecheck, not {}", source, tool.dump()));
    }
    names.push_back(tool.get<std::string>());
  }
  return names;
}

// "visibility": one of kCheckVisibilities.
std::string read_visibility(const json& value, const std::string& where,
                            const std::string& source) {
  const auto known = std::find_if(
      std::begin(kCheckVisibilities), std::end(kCheckVisibilities),
      [&](std::string_view name) { return value.is_string() && value.get<std::string>() == name; });
  if (known == std::end(kCheckVisibilities)) {
    throw SpecError(fmt::format(
        "{}: {}: 'visibility' must be visible, hidden, after_due_date or after_published, not {}",
        source, where, value.dump()));
  }
  return std::string(*known);
}

// A check's optional fields: timeout_s, bonus, full_points_at_share, visibility and timed_with
// (which must name a speed check among `earlier`).
void read_check_options(const json& entry, CheckSpec& check, const std::vector<CheckSpec>& earlier,
                        const std::string& where, const std::string& source) {
  if (const auto timeout = entry.find("timeout_s"); timeout != entry.end()) {
    if (!timeout->is_number() || timeout->get<double>() <= 0) {
      throw SpecError(fmt::format("{}: {}: 'timeout_s' must be a number > 0", source, where));
    }
    check.timeout_s = timeout->get<double>();
  }
  if (const auto bonus = entry.find("bonus"); bonus != entry.end()) {
    if (!bonus->is_boolean()) {
      throw SpecError(fmt::format("{}: {}: 'bonus' must be true or false", source, where));
    }
    check.bonus = bonus->get<bool>();
  }
  if (const auto full = entry.find("full_points_at_share"); full != entry.end()) {
    if (!full->is_number() || full->get<double>() <= 0 || check.kind != "speed") {
      throw SpecError(fmt::format(
          "{}: {}: 'full_points_at_share' must be a number > 0, on a speed check", source, where));
    }
    check.full_points_at_share = full->get<double>();
  }
  if (const auto visibility = entry.find("visibility"); visibility != entry.end()) {
    check.visibility = read_visibility(*visibility, where, source);
  }
  // "timed_with": an earlier speed check at the same size whose runs time this one too.
  if (const auto with = entry.find("timed_with"); with != entry.end()) {
    const auto named = std::find_if(earlier.begin(), earlier.end(), [&](const auto& c) {
      return with->is_string() && c.id == with->get<std::string>() && c.kind == "speed";
    });
    if (check.kind != "speed" || named == earlier.end()) {
      throw SpecError(
          fmt::format("{}: {}: 'timed_with' must name an earlier speed check, on a "
                      "speed check; got {}",
                      source, where, with->dump()));
    }
  }
}

// One entry of "checks"; `seen` holds the ids before it.
CheckSpec parse_check(const json& entry, const std::vector<CheckSpec>& earlier,
                      std::set<std::string>& seen, const std::string& source) {
  if (!entry.is_object()) {
    throw SpecError(fmt::format("{}: every entry of 'checks' must be an object", source));
  }
  CheckSpec check;
  check.source = source;
  check.params = entry;
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
  check.title = text_field(entry, "title", where, source);
  const auto points = entry.find("points");
  if (points == entry.end() || !points->is_number() || points->get<double>() < 0) {
    throw SpecError(fmt::format("{}: {}: 'points' must be a number >= 0", source, where));
  }
  check.points = points->get<double>();
  read_check_options(entry, check, earlier, where, source);
  return check;
}

}  // namespace

LabSpec parse_spec(const json& document, const std::string& source) {
  if (!document.is_object()) throw SpecError(fmt::format("{}: must be a JSON object", source));
  LabSpec spec;
  spec.source = source;
  spec.lab = text_field(document, "lab", "the spec", source);
  spec.title = text_field(document, "title", "the spec", source);
  if (const auto tools = document.find("sanitizer"); tools != document.end()) {
    spec.sanitizer_tools = sanitizer_tools(*tools, source);
  }
  const auto checks = document.find("checks");
  if (checks == document.end() || !checks->is_array() || checks->empty()) {
    throw SpecError(fmt::format("{}: needs a non-empty list 'checks'", source));
  }
  std::set<std::string> seen;
  for (const auto& entry : *checks) {
    spec.checks.push_back(parse_check(entry, spec.checks, seen, source));
  }
  return spec;
}

std::vector<std::string> apply_overrides(LabSpec& spec, std::string_view key) {
  std::vector<std::string> changed;
  for (auto& check : spec.checks) {
    const auto it = check.params.find(std::string(key));
    if (it == check.params.end()) continue;
    if (!it->is_object()) {
      throw SpecError(fmt::format("{}: check '{}': '{}' must be an object of parameters",
                                  spec.source, check.id, key));
    }
    const json overrides = *it;
    for (const auto& [name, value] : overrides.items()) {
      if (name == "id" || name == "kind" || name == "points" || name == "visibility") {
        throw SpecError(fmt::format("{}: check '{}': '{}' cannot change '{}'", spec.source,
                                    check.id, key, name));
      }
      check.params[name] = value;
    }
    if (overrides.contains("title")) {
      // The title says what the check runs (its sizes): one that names the GPU's sizes would be
      // untrue where the override changes them.
      const auto& title = overrides["title"];
      if (!title.is_string() || title.get<std::string>().empty()) {
        throw SpecError(fmt::format("{}: check '{}': '{}.title' must be a non-empty string",
                                    spec.source, check.id, key));
      }
      check.title = title.get<std::string>();
    }
    if (overrides.contains("timeout_s")) {
      if (!overrides["timeout_s"].is_number() || overrides["timeout_s"].get<double>() <= 0) {
        throw SpecError(fmt::format("{}: check '{}': '{}.timeout_s' must be a number > 0",
                                    spec.source, check.id, key));
      }
      check.timeout_s = overrides["timeout_s"].get<double>();
    }
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
