#include "exports/stats.hpp"

#include <cmath>
#include <limits>
#include <numeric>

#include <gtest/gtest.h>

#include "class_fixture.hpp"

namespace exports {
namespace {

std::size_t total(const std::vector<HistogramBin>& bins) {
  return std::accumulate(bins.begin(), bins.end(), std::size_t{0},
                         [](std::size_t n, const HistogramBin& b) { return n + b.count; });
}

TEST(Stats, HistogramCountsAddUp) {
  const std::vector<double> scores{0,    1,   9.99, 10, 50,
                                   99.9, 100, 120,  -5, std::numeric_limits<double>::quiet_NaN()};
  const auto bins = score_histogram(scores, 100);
  ASSERT_EQ(bins.size(), 10u);
  EXPECT_EQ(total(bins), scores.size());
  EXPECT_EQ(bins[0].count, 5u);  // 0, 1, 9.99, -5 (clamped), NaN
  EXPECT_EQ(bins[1].count, 1u);  // 10
  EXPECT_EQ(bins[5].count, 1u);  // 50
  EXPECT_EQ(bins[9].count, 3u);  // 99.9, full marks, above full marks (clamped)
  EXPECT_DOUBLE_EQ(bins[9].to_share, 1.0);
}

TEST(Stats, HistogramWithoutPointsOrBins) {
  const std::vector<double> scores{0, 3};
  EXPECT_EQ(total(score_histogram(scores, 0)), 2u);
  EXPECT_EQ(score_histogram(scores, 10, 0).size(), 1u);
  EXPECT_EQ(total(score_histogram({}, 10)), 0u);
}

TEST(Stats, MeanAndMedian) {
  EXPECT_DOUBLE_EQ(median_of({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median_of({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median_of({}), 0);
  const std::vector<double> values{1, 2, 6};
  EXPECT_DOUBLE_EQ(mean_of(values), 3);
}

TEST(Stats, ClassSummaryCountsUngradedAsZero) {
  const auto spec = testing::make_spec();
  const auto outcomes = testing::make_class(spec);
  const auto summary = summarize(spec, outcomes);
  EXPECT_EQ(summary.students, 8u);
  EXPECT_EQ(summary.graded, 5u);
  EXPECT_EQ(summary.full_marks, 1u);
  EXPECT_DOUBLE_EQ(summary.max_points, 20);
  // alice 20, script 5, formula 0, quoted 10, control 0, -2+3 0, @SUM 0, unicode 15
  EXPECT_DOUBLE_EQ(summary.mean, 50.0 / 8);
  EXPECT_DOUBLE_EQ(summary.median, 2.5);
}

TEST(Stats, CheckStatsCoverEveryStudent) {
  const auto spec = testing::make_spec();
  const auto outcomes = testing::make_class(spec);
  const auto stats = check_stats(spec, outcomes);
  ASSERT_EQ(stats.size(), 3u);
  for (const auto& s : stats) {
    EXPECT_EQ(s.passed + s.failed + s.implausible + s.other + s.not_measured + s.not_run,
              outcomes.size())
        << s.check->id;
  }
  EXPECT_EQ(stats[0].passed, 3u);
  EXPECT_EQ(stats[0].failed, 2u);
  EXPECT_EQ(stats[0].not_run, 3u);
  EXPECT_DOUBLE_EQ(stats[0].pass_rate(), 3.0 / 8);
  EXPECT_EQ(stats[1].other, 2u);  // error and skipped
  EXPECT_EQ(stats[2].other, 1u);  // inconclusive
}

// Under the CPU emulation speed is not measured: counted as such, never as passed or failed.
TEST(Stats, NotMeasuredIsItsOwnCount) {
  const auto spec = testing::make_spec();
  const auto outcomes = testing::make_emulated_class(spec);
  const auto stats = check_stats(spec, outcomes);
  EXPECT_EQ(stats[2].not_measured, 2u);
  EXPECT_EQ(stats[2].passed + stats[2].failed + stats[2].other, 0u);
  EXPECT_EQ(stats[2].not_run, 1u);
  EXPECT_TRUE(graded_under_emulation(outcomes));
  EXPECT_FALSE(graded_under_emulation(testing::make_class(spec)));
  const auto summary = summarize(spec, outcomes);
  EXPECT_EQ(summary.most_without_gpu, 1u);
  EXPECT_EQ(summary.full_marks, 0u);
}

// A speed beyond the GPU's ceiling is its own count: failed, but not among the slow kernels.
TEST(Stats, ImplausibleIsItsOwnCount) {
  const auto spec = testing::make_spec();
  const auto outcomes = testing::make_implausible_class(spec);
  const auto stats = check_stats(spec, outcomes);
  EXPECT_EQ(stats[2].implausible, 1u);
  EXPECT_EQ(stats[2].passed, 1u);
  EXPECT_EQ(stats[2].failed + stats[2].other, 0u);
  EXPECT_DOUBLE_EQ(stats[2].pass_rate(), 0.5);
  EXPECT_EQ(implausible_checks(spec, outcomes[1]), 1u);
  EXPECT_EQ(implausible_checks(spec, outcomes[0]), 0u);
}

}  // namespace
}  // namespace exports
