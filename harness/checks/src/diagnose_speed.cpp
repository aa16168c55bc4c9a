// Why a speed check failed, from what was measured in the kernel (harness/evidence_diagnosis.hpp),
// else from its timing alone (below the threshold, no cause named), and the sentence on how fast
// the kernel runs (its place under the roofline).
#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "harness/diagnose.hpp"
#include "harness/evidence_diagnosis.hpp"

namespace harness {

std::optional<Diagnosis> diagnose_speed(const Timing& t, const std::vector<Evidence>& evidence) {
  if (!(t.threshold > 0) || t.ratio >= t.threshold) return std::nullopt;
  const std::string against = speed_against(t);
  // What was measured in the kernel names the cause; the figure alone only places it.
  if (auto measured = diagnose_speed_evidence(evidence, against)) return measured;
  return make_diagnosis("slow_kernel", against + "; " + speed_reading(t) +
                                           "; what the kernel's accesses do was not measured in "
                                           "this run (the CPU emulation measures it)");
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
