#include <algorithm>
#include <stdexcept>

#include "harness/timing.hpp"

namespace harness {
namespace {

// Linear interpolation between order statistics (the "type 7" quantile most tools use).
double quantile(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(position);
  const auto above = std::min(below + 1, sorted.size() - 1);
  const double weight = position - static_cast<double>(below);
  return sorted[below] * (1 - weight) + sorted[above] * weight;
}

}  // namespace

double Measurement::spread() const { return median_ms > 0 ? (q3_ms - q1_ms) / median_ms : 0; }

Measurement summarize(std::vector<double> samples_ms) {
  if (samples_ms.empty()) throw std::invalid_argument("summarize: no samples");
  Measurement m;
  m.samples_ms = samples_ms;
  std::sort(samples_ms.begin(), samples_ms.end());
  m.min_ms = samples_ms.front();
  m.max_ms = samples_ms.back();
  m.median_ms = quantile(samples_ms, 0.5);
  m.q1_ms = quantile(samples_ms, 0.25);
  m.q3_ms = quantile(samples_ms, 0.75);
  return m;
}

}  // namespace harness

namespace harness {

std::string ordinal(int n) {
  const int last_two = n % 100;
  const int last = n % 10;
  const char* suffix = (last_two >= 11 && last_two <= 13) ? "th"
                       : last == 1                        ? "st"
                       : last == 2                        ? "nd"
                       : last == 3                        ? "rd"
                                                          : "th";
  return std::to_string(n) + suffix;
}

}  // namespace harness
