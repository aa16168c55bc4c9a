#include "contract/record.hpp"

#include "common/atomic_file.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <utility>

#include <fmt/format.h>

namespace contract {
namespace {

using nlohmann::json;

constexpr std::array<std::pair<Verdict, std::string_view>, 8> kVerdictNames{{
    {Verdict::pass, "pass"},
    {Verdict::fail, "fail"},
    {Verdict::error, "error"},
    {Verdict::skipped, "skipped"},
    {Verdict::inconclusive, "inconclusive"},
    {Verdict::not_measured, "not_measured"},
    {Verdict::not_run, "not_run"},
    {Verdict::not_attempted, "not_attempted"},
}};

// Reads an optional field, keeping the default when it is absent; a field of the wrong type
// throws (nlohmann's type_error), which read_record turns into a RecordError.
template <class T>
void read_optional(const json& in, const char* key, T& target) {
  if (auto it = in.find(key); it != in.end() && !it->is_null()) it->get_to(target);
}

json to_json_value(const Mismatch& m) {
  return {{"row", m.row}, {"col", m.col}, {"expected", m.expected}, {"got", m.got}};
}

Mismatch mismatch_from(const json& in) {
  Mismatch m;
  read_optional(in, "row", m.row);
  read_optional(in, "col", m.col);
  read_optional(in, "expected", m.expected);
  read_optional(in, "got", m.got);
  return m;
}

json to_json_value(const ErrorMap& map) {
  return {{"rows", map.rows},
          {"cols", map.cols},
          {"cell_rows", map.cell_rows},
          {"cell_cols", map.cell_cols},
          {"grid_rows", map.grid_rows},
          {"grid_cols", map.grid_cols},
          {"wrong_fraction", map.wrong_fraction},
          {"tile_rows", map.tile_rows},
          {"tile_cols", map.tile_cols}};
}

ErrorMap error_map_from(const json& in) {
  ErrorMap map;
  read_optional(in, "rows", map.rows);
  read_optional(in, "cols", map.cols);
  read_optional(in, "cell_rows", map.cell_rows);
  read_optional(in, "cell_cols", map.cell_cols);
  read_optional(in, "grid_rows", map.grid_rows);
  read_optional(in, "grid_cols", map.grid_cols);
  read_optional(in, "wrong_fraction", map.wrong_fraction);
  read_optional(in, "tile_rows", map.tile_rows);
  read_optional(in, "tile_cols", map.tile_cols);
  if (map.grid_rows < 0 || map.grid_cols < 0 ||
      map.wrong_fraction.size() != static_cast<size_t>(map.grid_rows) * map.grid_cols) {
    throw RecordError("error_map: wrong_fraction does not have grid_rows x grid_cols entries");
  }
  return map;
}

json to_json_value(const Diagnosis& d) {
  return {{"id", d.id},     {"summary", d.summary}, {"evidence", d.evidence},
          {"hint", d.hint}, {"handout", d.handout}, {"also", d.also}};
}

Diagnosis diagnosis_from(const json& in) {
  Diagnosis d;
  read_optional(in, "id", d.id);
  read_optional(in, "summary", d.summary);
  read_optional(in, "evidence", d.evidence);
  read_optional(in, "hint", d.hint);
  read_optional(in, "handout", d.handout);
  read_optional(in, "also", d.also);
  if (d.id.empty()) throw RecordError("diagnosis: the id is empty");
  return d;
}

json to_json_value(const KernelFacts& k) {
  return {{"name", k.name},
          {"block", {k.block[0], k.block[1], k.block[2]}},
          {"grid", {k.grid[0], k.grid[1], k.grid[2]}},
          {"registers_per_thread", k.registers_per_thread},
          {"shared_bytes_per_block", k.shared_bytes_per_block},
          {"local_bytes_per_thread", k.local_bytes_per_thread},
          {"occupancy", k.occupancy},
          {"limited_by", k.limited_by},
          {"reading", k.reading}};
}

KernelFacts kernel_facts_from(const json& in) {
  KernelFacts k;
  read_optional(in, "name", k.name);
  for (const char* key : {"block", "grid"}) {
    if (auto it = in.find(key); it != in.end() && !it->is_null()) {
      const auto dims = it->get<std::vector<unsigned>>();
      if (dims.size() != 3) throw RecordError(fmt::format("kernels: {} needs 3 numbers", key));
      unsigned* target = std::string_view(key) == "block" ? k.block : k.grid;
      for (int i = 0; i < 3; ++i) target[i] = dims[static_cast<size_t>(i)];
    }
  }
  read_optional(in, "registers_per_thread", k.registers_per_thread);
  read_optional(in, "shared_bytes_per_block", k.shared_bytes_per_block);
  read_optional(in, "local_bytes_per_thread", k.local_bytes_per_thread);
  read_optional(in, "occupancy", k.occupancy);
  read_optional(in, "limited_by", k.limited_by);
  read_optional(in, "reading", k.reading);
  return k;
}

json to_json_value(const CaseResult& c) {
  json out = {{"name", c.name},
              {"verdict", to_string(c.verdict)},
              {"reason", c.reason},
              {"total", c.total},
              {"mismatches", c.mismatches},
              {"nan_count", c.nan_count},
              {"max_abs_error", c.max_abs_error},
              {"tolerance", c.tolerance}};
  if (!c.output_digest.empty()) out["output_digest"] = c.output_digest;
  if (c.width > 0) out["width"] = c.width;
  if (c.output_repeats) out["output_repeats"] = *c.output_repeats;
  out["first_mismatches"] = json::array();
  for (const auto& m : c.first_mismatches) out["first_mismatches"].push_back(to_json_value(m));
  if (c.error_map) out["error_map"] = to_json_value(*c.error_map);
  if (c.diagnosis) out["diagnosis"] = to_json_value(*c.diagnosis);
  out["out_of_bounds"] = json::array();
  for (const auto& w : c.out_of_bounds) {
    out["out_of_bounds"].push_back(
        {{"buffer", w.buffer}, {"offset", w.offset}, {"value", w.value}});
  }
  return out;
}

CaseResult case_from(const json& in) {
  CaseResult c;
  read_optional(in, "name", c.name);
  c.verdict = verdict_from_string(in.value("verdict", "not_run"));
  read_optional(in, "reason", c.reason);
  read_optional(in, "total", c.total);
  read_optional(in, "mismatches", c.mismatches);
  read_optional(in, "nan_count", c.nan_count);
  read_optional(in, "max_abs_error", c.max_abs_error);
  read_optional(in, "tolerance", c.tolerance);
  read_optional(in, "output_digest", c.output_digest);
  read_optional(in, "width", c.width);
  if (auto it = in.find("output_repeats"); it != in.end() && !it->is_null()) {
    c.output_repeats = it->get<bool>();
  }
  if (auto it = in.find("first_mismatches"); it != in.end()) {
    for (const auto& m : *it) c.first_mismatches.push_back(mismatch_from(m));
  }
  if (auto it = in.find("error_map"); it != in.end() && !it->is_null()) {
    c.error_map = error_map_from(*it);
  }
  if (auto it = in.find("diagnosis"); it != in.end() && !it->is_null()) {
    c.diagnosis = diagnosis_from(*it);
  }
  if (auto it = in.find("out_of_bounds"); it != in.end()) {
    for (const auto& w : *it) {
      OutOfBoundsWrite write;
      read_optional(w, "buffer", write.buffer);
      read_optional(w, "offset", write.offset);
      read_optional(w, "value", write.value);
      c.out_of_bounds.push_back(write);
    }
  }
  return c;
}

json to_json_value(const Timing& t) {
  json out = {{"size", t.size},
              {"rate_unit", t.rate_unit},
              {"repetitions", t.repetitions},
              {"median_ms", t.median_ms},
              {"min_ms", t.min_ms},
              {"max_ms", t.max_ms},
              {"spread", t.spread},
              {"rate", t.rate},
              {"reference_name", t.reference_name},
              {"reference_median_ms", t.reference_median_ms},
              {"reference_rate", t.reference_rate},
              {"reference_spread", t.reference_spread},
              {"ratio", t.ratio},
              {"threshold", t.threshold},
              {"output_digest", t.output_digest},
              {"flops", t.flops},
              {"bytes", t.bytes},
              {"memcpy_gbps", t.memcpy_gbps},
              {"cublas_gflops", t.cublas_gflops}};
  if (!t.rounds.empty()) {
    json rounds = json::array();
    for (const auto& r : t.rounds) {
      rounds.push_back({{"median_ms", r.median_ms},
                        {"spread", r.spread},
                        {"reference_median_ms", r.reference_median_ms},
                        {"reference_spread", r.reference_spread},
                        {"ratio", r.ratio}});
    }
    out["rounds"] = std::move(rounds);
  }
  if (t.health) {
    out["health"] = {{"checked", t.health->checked},
                     {"throttled", t.health->throttled},
                     {"busy", t.health->busy},
                     {"text", t.health->text}};
  }
  return out;
}

Timing timing_from(const json& in) {
  Timing t;
  read_optional(in, "size", t.size);
  read_optional(in, "rate_unit", t.rate_unit);
  read_optional(in, "repetitions", t.repetitions);
  read_optional(in, "median_ms", t.median_ms);
  read_optional(in, "min_ms", t.min_ms);
  read_optional(in, "max_ms", t.max_ms);
  read_optional(in, "spread", t.spread);
  read_optional(in, "rate", t.rate);
  read_optional(in, "reference_name", t.reference_name);
  read_optional(in, "reference_median_ms", t.reference_median_ms);
  read_optional(in, "reference_rate", t.reference_rate);
  read_optional(in, "reference_spread", t.reference_spread);
  read_optional(in, "ratio", t.ratio);
  read_optional(in, "threshold", t.threshold);
  read_optional(in, "output_digest", t.output_digest);
  if (auto it = in.find("rounds"); it != in.end()) {
    for (const auto& r : *it) {
      TimingRound round;
      read_optional(r, "median_ms", round.median_ms);
      read_optional(r, "spread", round.spread);
      read_optional(r, "reference_median_ms", round.reference_median_ms);
      read_optional(r, "reference_spread", round.reference_spread);
      read_optional(r, "ratio", round.ratio);
      t.rounds.push_back(round);
    }
  }
  read_optional(in, "flops", t.flops);
  read_optional(in, "bytes", t.bytes);
  read_optional(in, "memcpy_gbps", t.memcpy_gbps);
  read_optional(in, "cublas_gflops", t.cublas_gflops);
  if (auto it = in.find("health"); it != in.end() && !it->is_null()) {
    GpuHealth h;
    read_optional(*it, "checked", h.checked);
    read_optional(*it, "throttled", h.throttled);
    read_optional(*it, "busy", h.busy);
    read_optional(*it, "text", h.text);
    t.health = h;
  }
  return t;
}

json to_json_value(const DeviceInfo& d) {
  return {{"name", d.name},
          {"compute_capability", d.compute_capability},
          {"driver_version", d.driver_version},
          {"runtime_version", d.runtime_version},
          {"sm_count", d.sm_count},
          {"memory_gib", d.memory_gib}};
}

DeviceInfo device_from(const json& in) {
  DeviceInfo d;
  read_optional(in, "name", d.name);
  read_optional(in, "compute_capability", d.compute_capability);
  read_optional(in, "driver_version", d.driver_version);
  read_optional(in, "runtime_version", d.runtime_version);
  read_optional(in, "sm_count", d.sm_count);
  read_optional(in, "memory_gib", d.memory_gib);
  return d;
}

// Check ids become file names: keep them to a safe alphabet so a record can never be written
// outside its folder.
std::string safe_file_stem(std::string_view check) {
  if (check.empty()) throw RecordError("a record needs a check id");
  std::string stem;
  for (char ch : check) {
    const bool safe = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                      (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
    stem += safe ? ch : '_';
  }
  if (stem.front() == '.') stem.front() = '_';
  return stem;
}

}  // namespace

double rounds_disagreement(const Timing& timing) {
  if (timing.rounds.size() < 2) return 0;
  const auto [low, high] = std::minmax_element(
      timing.rounds.begin(), timing.rounds.end(),
      [](const TimingRound& a, const TimingRound& b) { return a.ratio < b.ratio; });
  return low->ratio > 0 ? (high->ratio - low->ratio) / low->ratio : 0;
}

std::string_view to_string(Verdict verdict) {
  for (const auto& [value, name] : kVerdictNames) {
    if (value == verdict) return name;
  }
  return "unknown";
}

std::string_view verdict_words(Verdict verdict) {
  switch (verdict) {
    case Verdict::not_measured:
      return "not measured";
    case Verdict::not_run:
      return "not run";
    case Verdict::not_attempted:
      return "not attempted";
    default:
      return to_string(verdict);
  }
}

VerdictClass verdict_class(Verdict verdict) {
  switch (verdict) {
    case Verdict::pass:
      return VerdictClass::passed;
    case Verdict::skipped:
    case Verdict::not_measured:
    case Verdict::not_attempted:
      return VerdictClass::not_judged;
    case Verdict::fail:
    case Verdict::error:
    case Verdict::inconclusive:
    case Verdict::not_run:
      break;
  }
  return VerdictClass::failed;
}

Verdict verdict_from_string(std::string_view text) {
  for (const auto& [value, name] : kVerdictNames) {
    if (name == text) return value;
  }
  throw RecordError(fmt::format("unknown verdict '{}'", text));
}

void to_json(json& out, const CheckRecord& r) {
  out = {{"schema", r.schema},
         {"lab", r.lab},
         {"check", r.check},
         {"kind", r.kind},
         {"title", r.title},
         {"verdict", to_string(r.verdict)},
         {"reason", r.reason},
         {"fraction", r.fraction},
         {"points", r.points},
         {"max_points", r.max_points},
         {"seed", r.seed},
         {"backend", r.backend},
         {"started_at", r.started_at},
         {"duration_s", r.duration_s},
         {"reproduce", r.reproduce},
         {"notes", r.notes}};
  out["cases"] = json::array();
  for (const auto& c : r.cases) out["cases"].push_back(to_json_value(c));
  if (r.timing) out["timing"] = to_json_value(*r.timing);
  if (r.device) out["device"] = to_json_value(*r.device);
  if (r.diagnosis) out["diagnosis"] = to_json_value(*r.diagnosis);
  if (!r.kernels.empty()) {
    out["kernels"] = json::array();
    for (const auto& k : r.kernels) out["kernels"].push_back(to_json_value(k));
  }
}

void from_json(const json& in, CheckRecord& r) {
  if (!in.is_object()) throw RecordError("a record must be a JSON object");
  r.schema = in.value("schema", 0);
  if (r.schema != kRecordSchema) {
    throw RecordError(fmt::format("schema {} is not the supported {}", r.schema, kRecordSchema));
  }
  read_optional(in, "lab", r.lab);
  read_optional(in, "check", r.check);
  if (r.check.empty()) throw RecordError("the record names no check");
  read_optional(in, "kind", r.kind);
  read_optional(in, "title", r.title);
  r.verdict = verdict_from_string(in.value("verdict", "not_run"));
  read_optional(in, "reason", r.reason);
  read_optional(in, "fraction", r.fraction);
  r.fraction = std::clamp(r.fraction, 0.0, 1.0);
  read_optional(in, "points", r.points);
  read_optional(in, "max_points", r.max_points);
  read_optional(in, "seed", r.seed);
  read_optional(in, "backend", r.backend);
  read_optional(in, "started_at", r.started_at);
  read_optional(in, "duration_s", r.duration_s);
  read_optional(in, "reproduce", r.reproduce);
  read_optional(in, "notes", r.notes);
  r.cases.clear();
  if (auto it = in.find("cases"); it != in.end()) {
    for (const auto& c : *it) r.cases.push_back(case_from(c));
  }
  if (auto it = in.find("timing"); it != in.end() && !it->is_null()) r.timing = timing_from(*it);
  if (auto it = in.find("device"); it != in.end() && !it->is_null()) r.device = device_from(*it);
  if (auto it = in.find("diagnosis"); it != in.end() && !it->is_null()) {
    r.diagnosis = diagnosis_from(*it);
  }
  r.kernels.clear();
  if (auto it = in.find("kernels"); it != in.end() && !it->is_null()) {
    for (const auto& k : *it) r.kernels.push_back(kernel_facts_from(k));
  }
}

bool ran_under_emulation(const CheckRecord& record) {
  return record.backend.starts_with("emulation");
}

bool ran_under_emulation(const std::vector<CheckRecord>& records) {
  return std::any_of(records.begin(), records.end(),
                     [](const CheckRecord& r) { return ran_under_emulation(r); });
}

std::filesystem::path record_path(const std::filesystem::path& results_dir,
                                  std::string_view check) {
  return results_dir / (safe_file_stem(check) + ".json");
}

void write_record(const std::filesystem::path& results_dir, const CheckRecord& record) {
  std::filesystem::create_directories(results_dir);
  try {
    common::write_file_atomically(record_path(results_dir, record.check),
                                  json(record).dump(2) + "\n");
  } catch (const common::FileWriteError& error) {
    throw RecordError(error.what());
  }
}

CheckRecord read_record(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw RecordError(fmt::format("{}: cannot open", file.string()));
  try {
    return json::parse(in).get<CheckRecord>();
  } catch (const json::exception& e) {
    throw RecordError(fmt::format("{}: not a valid result record: {}", file.string(), e.what()));
  } catch (const RecordError& e) {
    throw RecordError(fmt::format("{}: {}", file.string(), e.what()));
  }
}

std::vector<CheckRecord> read_records(const std::filesystem::path& results_dir,
                                      std::vector<std::string>* problems) {
  std::vector<CheckRecord> records;
  std::error_code ec;
  if (!std::filesystem::is_directory(results_dir, ec)) return records;
  for (const auto& entry : std::filesystem::directory_iterator(results_dir, ec)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    try {
      records.push_back(read_record(entry.path()));
    } catch (const RecordError& e) {
      if (problems) problems->push_back(e.what());
    }
  }
  std::sort(records.begin(), records.end(),
            [](const auto& a, const auto& b) { return a.check < b.check; });
  return records;
}

std::string format_value(float value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  return fmt::format("{}", value);
}

std::string utc_timestamp() {
  // gmtime_r, not fmt's chrono support: fmt 9 formats time points in local time.
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

}  // namespace contract
