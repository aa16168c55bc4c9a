// Speed checks as ratios: the student's kernel against a reference timed in the same run, on the
// same GPU, in alternation, so thresholds hold on any card.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "harness/check.hpp"
#include "harness/contract.hpp"
#include "harness/timing.hpp"

namespace harness {

struct TimedWork {
  std::string name;
  std::function<void()> run;  // enqueues the work on the default stream
  double work = 0;            // bytes moved (GB/s) or floating-point operations (GFLOP/s)
  // Around each timed call, outside the events (timing.hpp's TimedCall): poison the output
  // before, verify it after. The student's work has both; a reference may have neither.
  std::function<void()> before;
  std::function<std::string()> verify;
};

// Times both and fills a Timing with rates in `rate_unit` per second (1e9 units), the number of
// the student's timed calls verified, and the figure's physical ceiling on this device
// (harness/ceiling.hpp). Throws WrongTimedCall when a verified call was wrong.
Timing measure_against(const std::string& size, const std::string& rate_unit,
                       const TimedWork& student, const TimedWork& reference,
                       const TimingOptions& options);

// The same with several references timed in the same rounds as the student's kernel (one Timing
// per reference, all with the same student figures): two checks at one size that compare with
// different references need the student's kernel timed once, not twice.
std::vector<Timing> measure_against_each(const std::string& size, const std::string& rate_unit,
                                         const TimedWork& student,
                                         const std::vector<TimedWork>& references,
                                         const TimingOptions& options);

// measure_against `rounds` times in a row (each round its own alternation, warm-up and L2 flushes)
// and every round kept in timing.rounds. The top-level figures are those of the round with the
// median ratio (the lower middle one for an even count, so two rounds report the slower), and
// the top-level spreads the widest of any round, so a noisy round is never hidden. One round is
// exactly measure_against (no rounds listed).
Timing measure_rounds(const std::string& size, const std::string& rate_unit,
                      const TimedWork& student, const TimedWork& reference,
                      const TimingOptions& options, int rounds);
// measure_rounds with several references in the same rounds (see measure_against_each).
std::vector<Timing> measure_rounds_each(const std::string& size, const std::string& rate_unit,
                                        const TimedWork& student,
                                        const std::vector<TimedWork>& references,
                                        const TimingOptions& options, int rounds);

// Sets the check's timing and verdict: implausible when the figure is beyond its physical
// ceiling (whatever else holds); pass at ratio >= threshold; inconclusive (not failed) when
// either measurement is too noisy to judge (a busy or throttling GPU), or when rounds disagree by
// more than max_spread.
void judge_speed(Check& check, const Timing& timing, double threshold, double max_spread);

// judge_speed, then the points scaled by share (spec "full_points_at_ratio"): the check's
// fraction is ratio / full_points_at_ratio, at most 1 (0 when implausible). Passing only needs
// `threshold`.
void judge_share(Check& check, const Timing& timing, double threshold, double max_spread);

// cudaMemcpy device to device of `bytes` from `source` to `destination`: the bandwidth reference.
TimedWork memcpy_reference(const void* source, void* destination, std::size_t bytes);

}  // namespace harness
