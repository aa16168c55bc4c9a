#include "harness/timing.hpp"

#include <algorithm>
#include <chrono>
#include <string>

#include "harness/cuda_check.hpp"
#ifndef LABS_EMULATION
#include "harness/student_call.hpp"
#endif

namespace harness {
namespace {

// Writing a buffer twice the size of L2 evicts whatever the previous call left there, so no
// call starts with a warm cache the other did not have.
class L2Flusher {
 public:
  L2Flusher() {
    int device = 0;
    int l2_bytes = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
    bytes_ = std::max<std::size_t>(2 * static_cast<std::size_t>(l2_bytes), 1 << 20);
    CUDA_CHECK(cudaMalloc(&scratch_, bytes_));
  }
  ~L2Flusher() { cudaFree(scratch_); }
  L2Flusher(const L2Flusher&) = delete;
  L2Flusher& operator=(const L2Flusher&) = delete;
  void flush() { CUDA_CHECK(cudaMemsetAsync(scratch_, ++round_, bytes_)); }

 private:
  void* scratch_ = nullptr;
  std::size_t bytes_ = 0;
  unsigned char round_ = 0;
};

class EventPair {
 public:
  EventPair() {
    CUDA_CHECK(cudaEventCreate(&start_));
    CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~EventPair() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;
  double time_ms(const std::function<void()>& function) {
#ifndef LABS_EMULATION
    // The student's work runs in a context of its own, where it is timed with its own events.
    TimedSpan student_span;
#endif
    CUDA_CHECK(cudaEventRecord(start_));
    function();
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(stop_));
    CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
#ifndef LABS_EMULATION
    if (student_span.used()) return student_span.ms();
#endif
    return ms;
  }

 private:
  cudaEvent_t start_{};
  cudaEvent_t stop_{};
};

}  // namespace

std::string next_timed_round_label() {
  static int rounds = 0;
  return "input, timed round " + std::to_string(++rounds);
}

std::vector<Measurement> time_alternating(const std::vector<TimedCall>& functions,
                                          const TimingOptions& options) {
#ifndef LABS_EMULATION
  TimingSession student_session;  // one launcher call per distinct call, replayed each time
#endif
  L2Flusher flusher;
  EventPair events;
  const auto warmup_start = std::chrono::steady_clock::now();
  for (int round = 0; round < std::max(1, options.warmup); ++round) {
    for (const auto& function : functions) {
      function.run();
      CUDA_CHECK(cudaGetLastError());
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::chrono::duration<double, std::milli> spent =
        std::chrono::steady_clock::now() - warmup_start;
    if (spent.count() >= options.warmup_enough_ms) break;
  }

  std::vector<std::vector<double>> samples(functions.size());
  std::vector<int> verified(functions.size(), 0);
  const auto all_steady = [&] {
    return std::all_of(samples.begin(), samples.end(), [&](const std::vector<double>& s) {
      return summarize(s).spread() <= options.target_spread;
    });
  };
  for (int round = 0; round < std::max(1, options.repetitions); ++round) {
    if (options.draw_inputs) options.draw_inputs();
    for (std::size_t f = 0; f < functions.size(); ++f) {
      const auto& function = functions[f];
      if (function.before) function.before();
      if (options.flush_l2) flusher.flush();
      samples[f].push_back(events.time_ms(function.run));
      if (function.verify) {
        if (auto wrong = function.verify(); !wrong.empty()) throw WrongTimedCall(wrong);
        ++verified[f];
      }
    }
    if (options.target_spread > 0 && round + 1 >= options.min_repetitions && all_steady()) break;
  }
  std::vector<Measurement> measurements;
  for (std::size_t f = 0; f < samples.size(); ++f) {
    measurements.push_back(summarize(std::move(samples[f])));
    measurements.back().verified_calls = verified[f];
  }
  return measurements;
}

}  // namespace harness
