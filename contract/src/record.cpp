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

#include "record_json.hpp"

namespace contract {

using namespace record_json;

namespace {

constexpr std::array<std::pair<Verdict, std::string_view>, 9> kVerdictNames{{
    {Verdict::pass, "pass"},
    {Verdict::fail, "fail"},
    {Verdict::error, "error"},
    {Verdict::skipped, "skipped"},
    {Verdict::inconclusive, "inconclusive"},
    {Verdict::not_measured, "not_measured"},
    {Verdict::not_run, "not_run"},
    {Verdict::not_attempted, "not_attempted"},
    {Verdict::implausible, "implausible"},
}};

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
    case Verdict::implausible:
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
  if (!r.evidence.empty()) {
    out["evidence"] = json::array();
    for (const auto& e : r.evidence) out["evidence"].push_back(to_json_value(e));
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
  r.evidence.clear();
  if (auto it = in.find("evidence"); it != in.end() && !it->is_null()) {
    for (const auto& e : *it) r.evidence.push_back(evidence_from(e));
  }
}

bool is_evidence_kind(std::string_view kind) {
  return std::ranges::find(kEvidenceKinds, kind) != std::end(kEvidenceKinds);
}

void add_evidence(std::vector<Evidence>& facts, const Evidence& fact, std::size_t most) {
  const auto same = std::ranges::find_if(facts, [&](const Evidence& e) {
    return e.kind == fact.kind && e.file == fact.file && e.line == fact.line;
  });
  if (same != facts.end()) {
    if (fact.figure > same->figure) *same = fact;
  } else if (facts.size() < most) {
    facts.push_back(fact);
  }
}

std::string_view suite_of(std::string_view check) { return check.substr(0, check.find('.')); }

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
