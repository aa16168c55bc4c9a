#include "exports/stats.hpp"

#include <algorithm>
#include <cmath>

namespace exports {

double mean_of(std::span<const double> values) {
  if (values.empty()) return 0;
  double sum = 0;
  for (const double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

double median_of(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

ClassSummary summarize(const contract::LabSpec& spec, std::span<const StudentOutcome> outcomes) {
  ClassSummary summary;
  summary.students = outcomes.size();
  summary.max_points = spec.total_points();
  std::vector<double> scores;
  for (const auto& outcome : outcomes) {
    const double score = total_points(spec, outcome);
    scores.push_back(score);
    if (outcome.grade) ++summary.graded;
    if (outcome.grade && summary.max_points > 0 && score >= summary.max_points) {
      ++summary.full_marks;
    }
    if (outcome.grade) {
      const auto limit = contract::without_gpu(*outcome.grade);
      if (limit && limit->earned) ++summary.most_without_gpu;
    }
  }
  summary.mean = mean_of(scores);
  summary.median = median_of(std::move(scores));
  return summary;
}

std::vector<HistogramBin> score_histogram(std::span<const double> scores, double max_points,
                                          int bins) {
  bins = std::max(bins, 1);
  std::vector<HistogramBin> histogram(static_cast<std::size_t>(bins));
  for (int i = 0; i < bins; ++i) {
    histogram[i].from_share = static_cast<double>(i) / bins;
    histogram[i].to_share = static_cast<double>(i + 1) / bins;
  }
  for (const double score : scores) {
    double share = max_points > 0 ? score / max_points : 0;
    if (!std::isfinite(share)) share = 0;
    share = std::clamp(share, 0.0, 1.0);
    const int index = std::min(static_cast<int>(std::floor(share * bins)), bins - 1);
    ++histogram[static_cast<std::size_t>(index)].count;
  }
  return histogram;
}

double CheckStats::pass_rate() const {
  const std::size_t students = passed + failed + implausible + other + not_measured + not_run;
  return students > 0 ? static_cast<double>(passed) / static_cast<double>(students) : 0;
}

std::vector<CheckStats> check_stats(const contract::LabSpec& spec,
                                    std::span<const StudentOutcome> outcomes) {
  std::vector<CheckStats> all;
  for (const auto& check : spec.checks) {
    CheckStats stats;
    stats.check = &check;
    std::vector<double> points;
    for (const auto& outcome : outcomes) {
      points.push_back(check_points(outcome, check.id));
      switch (check_verdict(outcome, check.id)) {
        case contract::Verdict::pass:
          ++stats.passed;
          break;
        case contract::Verdict::fail:
          ++stats.failed;
          break;
        case contract::Verdict::not_run:
          ++stats.not_run;
          break;
        case contract::Verdict::not_measured:
          ++stats.not_measured;
          break;
        case contract::Verdict::implausible:
          ++stats.implausible;
          break;
        case contract::Verdict::error:
        case contract::Verdict::skipped:
        case contract::Verdict::inconclusive:
        case contract::Verdict::not_attempted:
          ++stats.other;
      }
    }
    stats.mean_points = mean_of(points);
    all.push_back(stats);
  }
  return all;
}

}  // namespace exports
