// The device buffers of one call of a BufferLab (harness/buffer_lab.hpp), with guard zones, the
// output poisoned with NaN; and the comparisons every check of harness/buffer_checks.hpp makes on
// them. Internal to the buffer checks.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/buffer_lab.hpp"
#include "harness/check.hpp"
#include "harness/device_buffer.hpp"

namespace harness {

class CaseBuffers {
 public:
  // Buffers shaped by a case's inputs, holding them.
  CaseBuffers(const BufferLab& lab, const CaseData& data);
  // Buffers of a case at `size` whose inputs are drawn from `seed` (draw).
  CaseBuffers(const BufferLab& lab, const CaseSize& size, std::uint64_t seed);

  // Inputs from the host (a case), or drawn anew from a seed: on the GPU as their fills say (the
  // large sizes of speed checks, as draw_case would draw them), or by the lab's case generator
  // on the host, whose inputs depend on each other (the same lengths at every seed).
  void upload(const CaseData& data);
  void draw(std::uint64_t seed);

  DeviceArgs args();
  const std::vector<std::unique_ptr<DeviceBuffer>>& inputs() const { return inputs_; }
  DeviceBuffer& output() { return *output_; }
  const DeviceBuffer& output() const { return *output_; }

 private:
  void allocate(const std::vector<BufferShape>& input_shapes);

  const BufferLab& lab_;
  CaseSize size_;
  std::vector<std::unique_ptr<DeviceBuffer>> inputs_;  // DeviceBuffer does not move
  std::unique_ptr<DeviceBuffer> output_;
};

// The output against `expected`, nothing written outside any buffer, the inputs as `data` has
// them: the case's verdict and reasons, as a matrix lab words them.
void expect_call_right(CaseResult& result, const BufferLab& lab, const CaseBuffers& buffers,
                       const CaseData& data, const Expected& expected);

}  // namespace harness
