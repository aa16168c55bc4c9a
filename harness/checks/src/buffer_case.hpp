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
  CaseBuffers(const BufferLab& lab, const CaseSize& size);

  // Inputs from the host (a case) or drawn on the GPU from the case's seed (the large sizes of
  // speed checks, as draw_case would draw them).
  void upload(const CaseData& data);
  void fill_on_device(std::uint64_t seed);

  DeviceArgs args();
  const std::vector<std::unique_ptr<DeviceBuffer>>& inputs() const { return inputs_; }
  DeviceBuffer& output() { return *output_; }
  const DeviceBuffer& output() const { return *output_; }

 private:
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
