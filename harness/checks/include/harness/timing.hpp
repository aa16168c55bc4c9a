// Honest timing: CUDA events around each call, warm-up first, the median of many, the L2 cache
// flushed before every timed call, and the functions timed in alternation so that clock changes
// and heat affect the student's kernel and the reference alike.
#pragma once

#include <functional>
#include <vector>

namespace harness {

// Repetitions stop early once every function's spread is at or below target_spread after at
// least min_repetitions rounds: a quiet GPU needs few rounds, a noisy one gets up to
// `repetitions` (which batch grading of a hundred submissions needs, on one GPU, in minutes).
// Warm-up (lazy module loading, first touch of the buffers, clocks) runs `warmup` rounds, or fewer
// once the rounds so far took warmup_enough_ms: one round of 4096^3 products is 45 ms, and two
// more rounds of it only cost a batch of a hundred submissions 8 s of exclusive GPU time.
struct TimingOptions {
  int warmup = 3;  // at most; at least one round
  double warmup_enough_ms = 20;
  int repetitions = 30;  // at most
  int min_repetitions = 10;
  double target_spread = 0.02;  // 0: always run `repetitions` rounds
  bool flush_l2 = true;
};

struct Measurement {
  std::vector<double> samples_ms;
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  double q1_ms = 0;
  double q3_ms = 0;
  double spread() const;  // interquartile range over median: 0.02 means a tight measurement
};

// Summary statistics of a set of samples (host-only; unit-tested).
Measurement summarize(std::vector<double> samples_ms);

// Times every function, taking turns: f0, f1, f0, f1, ... (see TimingOptions for how many rounds).
// Each function must only enqueue GPU work on the default stream.
std::vector<Measurement> time_alternating(const std::vector<std::function<void()>>& functions,
                                          const TimingOptions& options);

}  // namespace harness
