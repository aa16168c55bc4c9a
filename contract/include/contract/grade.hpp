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
};

// pass earns the check's points; fail earns points x fraction (partial credit, e.g. sizes
// that were right); every other verdict earns nothing. A check scored by share
// (full_points_at_share) earns points x fraction on pass too: the fraction is the share of the
// reference over the share for full points.
double points_for(const CheckSpec& check, Verdict verdict, double fraction);

// Points as people write them: at most two decimals, no trailing zeros (3, 2.5, 3.33); "n/a"
// when not finite. The report, the score line and the exports all print points this way.
std::string format_points(double points);

// "115 / 100 points (+15 bonus)": the score line of reports and summaries; no bonus part when the
// spec has no bonus checks.
std::string format_score(const LabGrade& grade);

LabGrade grade_lab(const LabSpec& spec, std::vector<CheckRecord> records,
                   std::vector<std::string> problems = {});

}  // namespace contract
