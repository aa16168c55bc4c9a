// Class statistics for the gradebook: scores, their mean and median, a histogram, and how each
// check went across the class. A student without a grade scores 0 and passes no check.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "exports/outcome.hpp"

namespace exports {

struct ClassSummary {
  std::size_t students = 0;
  std::size_t graded = 0;      // with a grade (whatever their status says)
  std::size_t full_marks = 0;  // every point of the spec
  // Graded under the CPU emulation: every point a run without a GPU can earn (all but speed).
  std::size_t most_without_gpu = 0;
  double max_points = 0;  // the spec's total
  double mean = 0;        // over every student, ungraded ones counting 0
  double median = 0;
};

ClassSummary summarize(const contract::LabSpec& spec, std::span<const StudentOutcome> outcomes);

// Mean and median of a list; 0 for an empty one.
double mean_of(std::span<const double> values);
double median_of(std::vector<double> values);

// Students per score band: band i holds scores from i/bins to (i+1)/bins of max_points, the last
// band including full marks. Every student lands in exactly one band (scores outside 0..max and
// NaN are clamped), so the counts add up to the number of scores.
struct HistogramBin {
  double from_share = 0;  // 0..1 of max_points
  double to_share = 0;
  std::size_t count = 0;
};
std::vector<HistogramBin> score_histogram(std::span<const double> scores, double max_points,
                                          int bins = 10);

// How one check of the spec went across the class.
struct CheckStats {
  const contract::CheckSpec* check = nullptr;
  std::size_t passed = 0;
  std::size_t failed = 0;        // verdict fail (partial credit possible)
  std::size_t implausible = 0;   // a speed beyond the GPU's ceiling: failed, never partial
  std::size_t other = 0;         // error, inconclusive, skipped, not attempted
  std::size_t not_measured = 0;  // speed under the CPU emulation: neither passed nor failed
  std::size_t not_run = 0;       // not run, or the student has no grade
  double mean_points = 0;        // over every student
  double pass_rate() const;      // passed / students, 0 without students
};
std::vector<CheckStats> check_stats(const contract::LabSpec& spec,
                                    std::span<const StudentOutcome> outcomes);

}  // namespace exports
