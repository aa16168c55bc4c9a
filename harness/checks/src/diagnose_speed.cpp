// Why a speed check failed, and the sentence on how fast the kernel runs (its place under the
// roofline), from the check's timing.
#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "harness/diagnose.hpp"

namespace harness {

std::optional<Diagnosis> diagnose_speed(const Timing& t) {
  if (!(t.threshold > 0) || t.ratio >= t.threshold) return std::nullopt;
  const std::string against =
      fmt::format("{:.0f}% of {} in the same run", t.ratio * 100, t.reference_name);
  const bool bandwidth = t.rate_unit == "GB/s";
  const bool versus_naive = t.reference_name.rfind("naive", 0) == 0;
  if ((bandwidth || versus_naive) && t.ratio < 0.5) {
    return make_diagnosis(
        "uncoalesced_access",
        fmt::format("{}: {} the same memory accesses done {}; scattered accesses are the usual "
                    "cause",
                    against, "less than half the speed of",
                    bandwidth ? "by a plain copy" : "coalesced"));
  }
  return make_diagnosis("slow_kernel", against + "; " + speed_reading(t));
}

std::string speed_reading(const Timing& t) {
  const bool have_roofs = t.flops > 0 && t.bytes > 0 && t.memcpy_gbps > 0;
  if (!have_roofs) {
    if (t.reference_rate > 0 && t.rate_unit == "GB/s" &&
        t.reference_name.find("cudaMemcpy") != std::string::npos) {
      return fmt::format(
          "a copy is limited by memory bandwidth: it moves data at {:.0f}% of what "
          "cudaMemcpy reaches on this GPU",
          100 * t.rate / t.reference_rate);
    }
    return t.reference_rate > 0 ? fmt::format("it runs at {:.0f}% of the reference's rate",
                                              100 * t.rate / t.reference_rate)
                                : std::string("no reference rate to compare with");
  }
  const double intensity = t.flops / t.bytes;            // FLOP per byte, at the least traffic
  const double memory_roof = t.memcpy_gbps * intensity;  // GFLOP/s the bandwidth allows
  const double compute_roof = t.cublas_gflops > 0 ? t.cublas_gflops : 0;
  const double gflops = t.flops / (t.median_ms * 1e-3) / 1e9;
  const double attainable = compute_roof > 0 ? std::min(memory_roof, compute_roof) : memory_roof;
  const double share = attainable > 0 ? gflops / attainable : 0;
  const bool memory_bound = compute_roof <= 0 || memory_roof < compute_roof;
  if (memory_bound) {
    return fmt::format(
        "at {:.2g} FLOP per byte the work is memory-bound: the bandwidth measured "
        "in this run allows {:.0f} GFLOP/s and the kernel reaches {:.0f} ({:.2g}%)",
        intensity, memory_roof, gflops, share * 100);
  }
  return fmt::format(
      "at {:.3g} FLOP per byte the work could be compute-bound: cuBLAS reaches "
      "{:.0f} GFLOP/s in this run and the kernel {:.0f} ({:.2g}%); the gap is data "
      "reuse: each value loaded serves few multiply-adds",
      intensity, compute_roof, gflops, share * 100);
}

}  // namespace harness
