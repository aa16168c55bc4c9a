// A made-up class for the export tests: a small spec and students whose names, statuses and
// messages try every trick (markup, quotes, commas, line breaks, spreadsheet formulas, unicode,
// control bytes, invalid UTF-8, terminal colours).
#pragma once

#include <string>
#include <vector>

#include "contract/grade.hpp"
#include "contract/spec.hpp"
#include "exports/outcome.hpp"

namespace exports::testing {

inline contract::LabSpec make_spec() {
  return contract::parse_spec(nlohmann::json::parse(R"({
    "lab": "lab9",
    "title": "Tiled <b>matmul</b> & friends",
    "checks": [
      {"id": "Tiled.Correctness", "kind": "correctness", "title": "matmul_tiled is exact", "points": 10},
      {"id": "Tiled.SharedMemory", "kind": "structure", "title": "uses shared memory", "points": 5},
      {"id": "Tiled.Speed", "kind": "speed", "title": "reaches 10% of cuBLAS", "points": 5}
    ]})"),
                              "test spec");
}

inline contract::CheckRecord record(const std::string& check, contract::Verdict verdict,
                                    std::string reason = "", double fraction = 0) {
  contract::CheckRecord r;
  r.lab = "lab9";
  r.check = check;
  r.verdict = verdict;
  r.reason = std::move(reason);
  r.fraction = fraction;
  r.duration_s = 0.25;
  r.reproduce = "ctest -R " + check;
  return r;
}

inline StudentOutcome graded(const contract::LabSpec& spec, std::string student,
                             std::vector<contract::CheckRecord> records,
                             std::vector<std::string> problems = {}) {
  StudentOutcome o;
  o.student = std::move(student);
  o.status = "graded";
  o.grade = contract::grade_lab(spec, std::move(records), std::move(problems));
  o.report_path = "reports/" + o.student + "/report.html";
  return o;
}

inline StudentOutcome ungraded(std::string student, std::string status, std::string message) {
  StudentOutcome o;
  o.student = std::move(student);
  o.status = std::move(status);
  o.message = std::move(message);
  return o;
}

inline const std::string kScriptName = "<script>alert(\"x\")</script>";
inline const std::string kFormulaName = "=cmd|' /C calc'!A0";
inline const std::string kQuotedName = "Zo\u00eb \"Q\", Jr.\nsecond line";
inline const std::string kControlName = "bad\x01\x1b[31mbytes\xff end";

inline std::vector<StudentOutcome> make_class(const contract::LabSpec& spec) {
  using contract::Verdict;
  std::vector<StudentOutcome> all;
  all.push_back(
      graded(spec, "alice",
             {record("Tiled.Correctness", Verdict::pass),
              record("Tiled.SharedMemory", Verdict::pass), record("Tiled.Speed", Verdict::pass)}));
  all.push_back(graded(spec, kScriptName,
                       {record("Tiled.Correctness", Verdict::fail,
                               "wrong at (3, 4): <img src=x onerror=alert(1)> & \"more\"", 0.5),
                        record("Tiled.SharedMemory", Verdict::error, "cudaErrorIllegalAddress"),
                        record("Tiled.Speed", Verdict::inconclusive, "GPU busy")}));
  all.push_back(ungraded(kFormulaName, "compile error",
                         "kernel.cu(12): error: expected a \";\"\n\x1b[1;31m</pre><script>x()"
                         "</script>\x1b[0m\x07 ]]> --> done"));
  all.push_back(graded(spec, kQuotedName,
                       {record("Tiled.Correctness", Verdict::pass),
                        record("Tiled.SharedMemory", Verdict::skipped, "no GPU")}));
  all.push_back(
      ungraded(kControlName, "timed out", std::string("killed after 120 s\0\x01 tail", 25)));
  all.push_back(graded(spec, "-2+3", {record("Tiled.Correctness", Verdict::fail, "all NaN", 0)}));
  all.push_back(ungraded("@SUM(A1)", "crashed", "signal 11 (SIGSEGV)"));
  auto problems = graded(
      spec, "\u674e\u96f7 \U0001F680",
      {record("Tiled.Correctness", Verdict::pass), record("Tiled.SharedMemory", Verdict::pass)},
      {"a result for 'Bogus.Check', which is not a check of lab9"});
  problems.report_path = "javascript:alert(1)";
  all.push_back(std::move(problems));
  return all;
}

// The same spec graded under the CPU emulation: speed is not measured. alice earns all a run
// without a GPU can (15 of 20), bob misses correctness points, carol's code did not compile.
inline std::vector<StudentOutcome> make_emulated_class(const contract::LabSpec& spec) {
  using contract::Verdict;
  const auto on_cpu = [](contract::CheckRecord r) {
    r.backend = "emulation: CPU emulation (2 threads, random schedule seeded by the lab's seed)";
    return r;
  };
  const auto speed = [&] {
    return on_cpu(record("Tiled.Speed", Verdict::not_measured,
                         "not measured: emulation (the kernels ran on the CPU; speed checks need "
                         "a GPU)"));
  };
  std::vector<StudentOutcome> all;
  all.push_back(graded(spec, "alice",
                       {on_cpu(record("Tiled.Correctness", Verdict::pass)),
                        on_cpu(record("Tiled.SharedMemory", Verdict::pass)), speed()}));
  all.push_back(graded(spec, kScriptName,
                       {on_cpu(record("Tiled.Correctness", Verdict::fail, "wrong", 0.5)),
                        on_cpu(record("Tiled.SharedMemory", Verdict::pass)), speed()}));
  all.push_back(ungraded("carol", "compile error", "kernel.cu(3): error"));
  return all;
}

// A speed beyond the GPU's ceiling: mallory's kernel "computed" 90.1 TFLOP/s on a GPU whose FP32
// peak is 66.9. The reason opens with its verdict, as the harness words it, and carries markup, as
// any text of a record may. alice is honest.
inline const std::string kImplausibleReason =
    "implausible: measured 90100 GFLOP/s <img src=x onerror=alert(1)>, beyond this GPU's FP32 peak";

inline contract::CheckRecord implausible_speed(std::string reason = kImplausibleReason) {
  auto r = record("Tiled.Speed", contract::Verdict::implausible, std::move(reason));
  contract::Timing t;
  t.rate_unit = "GFLOP/s";
  t.rate = 90100;
  t.ratio = 3.5;
  t.reference_name = "cuBLAS SGEMM (FP32)";
  t.ceiling = 66900;
  t.ceiling_name = "this GPU's FP32 peak (132 SMs x 1980 MHz x 128 lanes x 2)";
  t.verified_calls = 12;
  r.timing = t;
  return r;
}

inline std::vector<StudentOutcome> make_implausible_class(const contract::LabSpec& spec) {
  using contract::Verdict;
  std::vector<StudentOutcome> all;
  all.push_back(
      graded(spec, "alice",
             {record("Tiled.Correctness", Verdict::pass),
              record("Tiled.SharedMemory", Verdict::pass), record("Tiled.Speed", Verdict::pass)}));
  all.push_back(graded(spec, "mallory",
                       {record("Tiled.Correctness", Verdict::pass),
                        record("Tiled.SharedMemory", Verdict::pass), implausible_speed()}));
  return all;
}

}  // namespace exports::testing
