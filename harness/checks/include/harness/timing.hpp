// Honest timing: CUDA events around each call, warm-up first, the median of many, the L2 cache
// flushed before every timed call, and the functions timed in alternation so that clock changes
// and heat affect the student's kernel and the reference alike.
//
// Every timed call is fresh work: before each round of timed calls the trusted side may draw new
// inputs (TimingOptions::draw_inputs), and around each call it poisons that function's output
// and verifies it after (TimedCall::before, TimedCall::verify), all outside the timed events. A
// kernel that keeps state between calls (a __device__ counter, a cache of its last answer, a
// check of whether the output already holds numbers) meets inputs it has not seen and an output
// that holds nothing, and a call that did less than the work is caught at that call.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
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
  // Called before every round of timed calls (not before warm-up), outside the events: draws the
  // inputs that round's calls all work on, each round its own (null: the inputs stay).
  std::function<void()> draw_inputs;
};

// One function timed in alternation with the others, and what the trusted side does around each
// of its timed calls.
struct TimedCall {
  std::function<void()> run;  // enqueues the work on the default stream
  // Before each timed call, outside the events (null: nothing): poisons the function's output,
  // so that a call which skips work leaves it visibly unwritten.
  std::function<void()> before;
  // After each timed call, outside the events (null: not verified): why the output of that call
  // is wrong (naming which call it was), empty when right.
  std::function<std::string()> verify;
};

// A timed call whose output was wrong: the check fails with `what()` (it names the call).
struct WrongTimedCall : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Measurement {
  std::vector<double> samples_ms;
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  double q1_ms = 0;
  double q3_ms = 0;
  int verified_calls = 0;  // timed calls whose output `verify` found right
  double spread() const;   // interquartile range over median: 0.02 means a tight measurement
};

// Summary statistics of a set of samples (host-only; unit-tested).
Measurement summarize(std::vector<double> samples_ms);

// Times every function, taking turns: f0, f1, f0, f1, ... (see TimingOptions for how many rounds).
// Each function must only enqueue GPU work on the default stream. Throws WrongTimedCall when a
// verified call's output is wrong.
std::vector<Measurement> time_alternating(const std::vector<TimedCall>& functions,
                                          const TimingOptions& options);

// The label of the next round's inputs ("input, timed round N", for Check::seed_for): N counts
// every round drawn in this run of the lab program, so no two rounds draw the same inputs, not
// even those of a check measured again after an inconclusive first try.
std::string next_timed_round_label();

// "1st", "2nd", "3rd", "11th", "22nd": how a message counts timed calls.
std::string ordinal(int n);

}  // namespace harness
