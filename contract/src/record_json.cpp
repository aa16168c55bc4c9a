#include "record_json.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace contract::record_json {

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

json to_json_value(const Evidence& e) {
  return {{"kind", e.kind},     {"source", e.source}, {"file", e.file},     {"line", e.line},
          {"kernel", e.kernel}, {"words", e.words},   {"figure", e.figure}, {"ideal", e.ideal}};
}

Evidence evidence_from(const json& in) {
  Evidence e;
  read_optional(in, "kind", e.kind);
  read_optional(in, "source", e.source);
  read_optional(in, "file", e.file);
  read_optional(in, "line", e.line);
  read_optional(in, "kernel", e.kernel);
  read_optional(in, "words", e.words);
  read_optional(in, "figure", e.figure);
  read_optional(in, "ideal", e.ideal);
  if (e.kind.empty()) throw RecordError("evidence: the kind is empty");
  return e;
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
              {"cublas_gflops", t.cublas_gflops},
              {"ceiling", t.ceiling},
              {"ceiling_name", t.ceiling_name},
              {"verified_calls", t.verified_calls}};
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
  read_optional(in, "ceiling", t.ceiling);
  read_optional(in, "ceiling_name", t.ceiling_name);
  read_optional(in, "verified_calls", t.verified_calls);
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

}  // namespace contract::record_json
