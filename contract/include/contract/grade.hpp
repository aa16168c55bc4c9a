// Points from verdicts. The spec decides what a check is worth; the record only says how the
// check went, so a record can never award itself points.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "contract/record.hpp"
#include "contract/spec.hpp"

namespace contract {

struct CheckGrade {
  const CheckSpec* spec = nullptr;
  std::optional<CheckRecord> record;  // absent: the check did not run
  Verdict verdict = Verdict::not_run;
  double points = 0;
  double max_points = 0;
};

struct LabGrade {
  std::string lab;
  std::string title;
  std::vector<CheckGrade> checks;     // in spec order
  double points = 0;                  // everything earned, bonus included: may exceed max_points
  double max_points = 0;              // the base total (bonus checks not included)
  double bonus_points = 0;            // the part of `points` that bonus checks earned
  double bonus_max_points = 0;        // what the bonus checks could add
  std::vector<std::string> problems;  // records that were unreadable or belong to no check
  // The records ran under the CPU emulation: speed checks were not measured (words only; the
  // points are the same as on any backend).
  bool emulated = false;
};

// What a run without a GPU can earn. Under the CPU emulation speed checks are not measured and
// earn nothing, so the most such a run earns is the base total less the speed checks' points.
struct WithoutGpu {
  double speed_points = 0;  // the base (not bonus) speed checks' points: measured on a GPU only
  double most = 0;          // max_points - speed_points
  bool earned = false;      // every base check that runs without a GPU earned all its points
};

// Set for an emulated grade whose lab has speed points; empty otherwise (on a GPU, or a lab
// without speed checks, the score says all there is).
std::optional<WithoutGpu> without_gpu(const LabGrade& grade);

// pass earns the check's points; fail earns points x fraction (partial credit, e.g. sizes
// that were right); every other verdict earns nothing. A check scored by share
// (full_points_at_ratio) earns points x fraction on pass too: the fraction is the share of the
// reference over the share for full points.
double points_for(const CheckSpec& check, Verdict verdict, double fraction);

// Points as people write them: at most two decimals, no trailing zeros (3, 2.5, 3.33); "n/a"
// when not finite. The report, the score line and the exports all print points this way.
std::string format_points(double points);

// "115 / 100 points (+15 bonus)": the score line of reports and summaries; no bonus part when the
// spec has no bonus checks.
std::string format_score(const LabGrade& grade);

// The score line with what it means when the run had no GPU: format_score, followed for a grade
// that earned the most a run without a GPU can by ": the most a run without a GPU can earn
// (speed, 30 points, is measured on a GPU only)", and for one that did not by "; without a GPU
// at most 70 can be earned (speed, 30 points, is measured on a GPU only)". On a GPU:
// format_score.
std::string format_score_line(const LabGrade& grade);

// "speed, 30 points, is measured on a GPU only" for the grade's speed points.
std::string gpu_only_words(const WithoutGpu& limit);

LabGrade grade_lab(const LabSpec& spec, std::vector<CheckRecord> records,
                   std::vector<std::string> problems = {});

}  // namespace contract
