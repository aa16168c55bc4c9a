// Correctness of a buffers-in, buffer-out lab: one case per size, compared with the CPU reference
// and diagnosed as the matrix labs' cases are.
#include <fmt/format.h>

#include "buffer_case.hpp"
#include "harness/buffer_checks.hpp"
#include "harness/cuda_check.hpp"
#include "harness/diagnose_run.hpp"
#include "harness/student_call.hpp"

namespace harness {

CaseBuffers::CaseBuffers(const BufferLab& lab, const CaseData& data) : lab_(lab), size_(data.size) {
  std::vector<BufferShape> shapes;
  for (std::size_t i = 0; i < lab.inputs().size(); ++i) shapes.push_back(lab.input_shape(i, data));
  allocate(shapes);
  upload(data);
}

CaseBuffers::CaseBuffers(const BufferLab& lab, const CaseSize& size, std::uint64_t seed)
    : lab_(lab), size_(size) {
  if (lab.generator()) {
    const auto data = draw_case(lab, size, seed);
    std::vector<BufferShape> shapes;
    for (std::size_t i = 0; i < lab.inputs().size(); ++i) {
      shapes.push_back(lab.input_shape(i, data));
    }
    allocate(shapes);
    upload(data);
    return;
  }
  std::vector<BufferShape> shapes;
  for (const auto& input : lab.inputs()) shapes.push_back(input.shape(size));
  allocate(shapes);
  draw(seed);
}

// Guards for an overshoot of 64 rows, the payload NaN (DeviceBuffer::matrix).
void CaseBuffers::allocate(const std::vector<BufferShape>& input_shapes) {
  for (std::size_t i = 0; i < input_shapes.size(); ++i) {
    const auto& shape = input_shapes[i];
    inputs_.push_back(DeviceBuffer::new_matrix(lab_.inputs()[i].name, shape.rows, shape.cols,
                                               lab_.inputs()[i].element));
  }
  const auto shape = lab_.output().shape(size_);
  output_ = DeviceBuffer::new_matrix(lab_.output().name, shape.rows, shape.cols);
}

void CaseBuffers::upload(const CaseData& data) {
  for (std::size_t i = 0; i < inputs_.size(); ++i) inputs_[i]->upload(data.inputs.at(i));
}

void CaseBuffers::draw(std::uint64_t seed) {
  if (lab_.generator()) {
    upload(draw_case(lab_, size_, seed));
    return;
  }
  for (std::size_t i = 0; i < inputs_.size(); ++i) {
    switch (lab_.inputs()[i].fill) {
      case Fill::integers:
        inputs_[i]->fill_random_integers(input_seed(seed, i));
        break;
      case Fill::sparse_units:
        inputs_[i]->fill_random_sparse_units(input_seed(seed, i));
        break;
      case Fill::reals:
        inputs_[i]->fill_random(input_seed(seed, i));
        break;
    }
  }
}

DeviceArgs CaseBuffers::args() {
  DeviceArgs args;
  for (auto& input : inputs_) {
    args.inputs.push_back(input->address());
    args.elements.push_back(input->element());
  }
  args.output = output_->data();
  args.size = size_;
  return args;
}

void expect_call_right(CaseResult& result, const BufferLab& lab, const CaseBuffers& buffers,
                       const CaseData& data, const Expected& expected) {
  const auto shape = lab.output().shape(data.size);
  expect_matrix(result, expected.values, buffers.output(), shape.rows, shape.cols,
                expected.tolerance);
  expect_guards_intact(result, buffers.output(), shape.cols);
  for (std::size_t i = 0; i < buffers.inputs().size(); ++i) {
    expect_guards_intact(result, *buffers.inputs()[i], lab.input_shape(i, data).cols);
  }
  for (std::size_t i = 0; i < buffers.inputs().size(); ++i) {
    expect_unchanged(result, *buffers.inputs()[i], data.inputs[i]);
  }
}

namespace {

// One case: the call once on fresh buffers, judged by expect_call_right; a wrong output is
// diagnosed from the recorded launch and re-runs of the same inputs.
void run_buffer_case(CaseResult& result, const BufferLab& lab, const CaseData& data,
                     const Expected& expected) {
  CaseBuffers buffers(lab, data);
  const auto call = lab.call_text(data.size);
  CaseLaunchCapture capture;
  lab.run(buffers.args());
  synchronize_after(call);
  const auto activity = capture.stop();
  expect_call_right(result, lab, buffers, data, expected);
  // The lab's own rules first (a diagnosis is help, not a verdict: nothing of it throws on).
  if (result.verdict != Verdict::pass && !result.diagnosis && !lab_run().context_lost) {
    try {
      result.diagnosis = lab.lab_diagnosis(data, expected, buffers.output().download());
    } catch (const std::exception&) {
    }
  }

  CaseRerun rerun;
  for (std::size_t i = 0; i < data.inputs.size(); ++i) {
    rerun.inputs.push_back({lab.inputs()[i].name, data.inputs[i], lab.input_shape(i, data).cols});
  }
  rerun.output_size = buffers.output().size();
  rerun.launch = [&lab, &data](const std::vector<void*>& inputs, float* output) {
    DeviceArgs args;
    args.inputs.assign(inputs.begin(), inputs.end());
    for (const auto& input : data.inputs) args.elements.push_back(input.element());
    args.output = output;
    args.size = data.size;
    lab.run(args);
  };
  rerun.call = call;
  const auto shape = lab.output().shape(data.size);
  FailedCase failed;
  failed.expected = &expected.values;
  failed.tolerance = &expected.tolerance;
  failed.rows = shape.rows;
  failed.cols = shape.cols;
  failed.output = &buffers.output();
  failed.launch = main_launch(activity);
  failed.uses_shared_memory = any_shared_memory(activity);
  failed.product = lab.product_inputs(data);
  failed.rerun = &rerun;
  diagnose_failed_case(result, failed);
}

}  // namespace

void check_correctness(Check& check, const BufferLab& lab) {
  for (const auto& size : case_sizes(check.spec(), lab)) {
    const auto label = lab.case_label(size);
    check.run_case(label, [&](CaseResult& result) {
      const auto data = draw_case(lab, size, check.seed_for(label));
      run_buffer_case(result, lab, data, lab.expected(data));
    });
  }
}

void check_case(Check& check, const BufferLab& lab, const std::string& label, const CaseData& data,
                const Expected& expected) {
  check.run_case(label, [&](CaseResult& result) { run_buffer_case(result, lab, data, expected); });
}

}  // namespace harness
