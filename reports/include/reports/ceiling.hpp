// A speed figure against the physical ceiling of the GPU it ran on (contract::Timing::ceiling),
// in words. The report, the exports and `labgrade timings` all say "implausible" with these
// functions, so a figure beyond the hardware reads the same on every page. The text is plain:
// each caller escapes it for its own format (the ceiling's name and the unit come from a record).
#pragma once

#include <string>
#include <string_view>

#include "contract/record.hpp"

namespace reports {

// A rate in the record's unit, three significant digits: "812 GB/s". A giga unit reads in tera
// from a thousand on ("66.9 TFLOP/s", "3.35 TB/s"), as GPU data sheets give their peaks.
std::string format_rate(double rate, std::string_view unit);

// True when the timing's rate is beyond its ceiling by more than the harness's margin
// (harness/ceiling.hpp: the rule the lab program judges by); false when the ceiling is unknown.
bool beyond_ceiling(const contract::Timing& timing);

// "66.9 TFLOP/s, this GPU's FP32 peak (132 SMs x ...)"; empty when the ceiling is unknown.
std::string ceiling_words(const contract::Timing& timing);

// "implausible: measured 90.1 TFLOP/s, beyond this GPU's FP32 peak (...) of 66.9 TFLOP/s", or
// "..., more than this GPU can do" when the record does not name its ceiling.
std::string implausible_words(const contract::Timing& timing);

// "verified on 12 timed calls"; empty when no timed call was verified.
std::string verified_words(const contract::Timing& timing);

}  // namespace reports
