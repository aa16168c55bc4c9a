#include "harness/buffer_lab.hpp"

#include <stdexcept>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "harness/device_buffer.hpp"
#include "harness/random.hpp"

namespace harness {

std::string CaseSize::label() const {
  return pair ? fmt::format("{}x{}", rows, cols) : fmt::format("n={}", rows);
}

BufferShape rows_by_cols(const CaseSize& size) { return {size.rows, size.cols}; }
BufferShape cols_by_rows(const CaseSize& size) { return {size.cols, size.rows}; }
BufferShape n_by_n(const CaseSize& size) { return {size.rows, size.rows}; }
BufferShape n_elements(const CaseSize& size) { return {size.rows, 1}; }
BufferShape one_element(const CaseSize&) { return {1, 1}; }

const char* fill_name(Fill fill) {
  switch (fill) {
    case Fill::integers:
      return "integers";
    case Fill::sparse_units:
      return "sparse units";
    case Fill::reals:
      break;
  }
  return "reals";
}

namespace {

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

}  // namespace

BufferLab::BufferLab(std::string name, std::string call_text)
    : name_(std::move(name)), call_text_(std::move(call_text)) {}

BufferLab& BufferLab::input(std::string name, ShapeOf shape, Fill fill) {
  inputs_.push_back({std::move(name), std::move(shape), fill});
  return *this;
}

BufferLab& BufferLab::input(std::string name, Element element) {
  inputs_.push_back({std::move(name), ShapeOf(), Fill::reals, element});
  return *this;
}

BufferLab& BufferLab::generate(CaseGenerator generator) {
  generator_ = std::move(generator);
  return *this;
}

BufferLab& BufferLab::diagnose(LabDiagnosis rule) {
  diagnosis_ = std::move(rule);
  return *this;
}

BufferLab& BufferLab::output(std::string name, ShapeOf shape) {
  output_ = {std::move(name), std::move(shape), Fill::reals};
  return *this;
}

BufferLab& BufferLab::call(Call call) {
  call_ = std::move(call);
  return *this;
}

BufferLab& BufferLab::reference(CpuReference reference) {
  reference_ = std::move(reference);
  return *this;
}

BufferLab& BufferLab::device_reference(DeviceReference reference) {
  device_reference_ = std::move(reference);
  return *this;
}

BufferLab& BufferLab::label(std::function<std::string(const CaseSize&)> label) {
  label_ = std::move(label);
  return *this;
}

BufferLab& BufferLab::max_dimension(int largest) {
  max_dimension_ = largest;
  return *this;
}

BufferLab& BufferLab::product(
    std::function<std::optional<ProductInputs>(const CaseData&)> operands) {
  product_ = std::move(operands);
  return *this;
}

BufferLab BufferLab::with_fill(Fill fill) const {
  BufferLab copy = *this;
  for (auto& input : copy.inputs_) input.fill = fill;
  return copy;
}

bool BufferLab::sized_by_n() const { return call_text_.find("{n}") != std::string::npos; }

std::string BufferLab::call_text(const CaseSize& size) const {
  std::string text = call_text_;
  replace_all(text, "{rows}", std::to_string(size.rows));
  replace_all(text, "{cols}", std::to_string(size.cols));
  replace_all(text, "{n}", std::to_string(size.rows));
  return text;
}

std::string BufferLab::case_label(const CaseSize& size) const {
  return label_ ? label_(size) : size.label();
}

void BufferLab::run(const DeviceArgs& args) const {
  if (!call_) throw std::logic_error(fmt::format("the lab {} declares no call", name_));
  call_(args);
}

Expected BufferLab::expected(const CaseData& data) const {
  if (!reference_) throw std::logic_error(fmt::format("the lab {} declares no reference", name_));
  return reference_(data);
}

std::optional<ProductInputs> BufferLab::product_inputs(const CaseData& data) const {
  return product_ ? product_(data) : std::nullopt;
}

std::optional<Diagnosis> BufferLab::lab_diagnosis(const CaseData& data, const Expected& expected,
                                                  const std::vector<float>& got) const {
  return diagnosis_ ? diagnosis_(data, expected, got) : std::nullopt;
}

BufferShape BufferLab::input_shape(std::size_t i, const CaseData& data) const {
  const auto& input = inputs_.at(i);
  if (input.shape) return input.shape(data.size);
  return {static_cast<long long>(data.inputs.at(i).size()), 1};
}

std::vector<CaseSize> case_sizes(const CheckSpec& spec, const BufferLab& lab) {
  std::vector<CaseSize> sizes;
  const std::vector<std::string> dimensions =
      lab.sized_by_n() ? std::vector<std::string>{"n"} : std::vector<std::string>{"rows", "cols"};
  for (const auto& size : spec.sizes(dimensions, lab.max_dimension())) {
    const bool matrix = size.size() == 2;
    sizes.push_back({size[0], matrix ? size[1] : 1, matrix});
  }
  return sizes;
}

CaseSize one_case_size(const CheckSpec& spec, const BufferLab& lab) {
  const auto sizes = case_sizes(spec, lab);
  if (sizes.size() != 1) {
    throw SpecError(fmt::format("{}: check '{}': 'sizes' must hold one size, not {}", spec.source,
                                spec.id, sizes.size()));
  }
  return sizes.front();
}

std::uint64_t input_seed(std::uint64_t case_seed, std::size_t input) {
  // The first input takes the case's seed itself; the others a stream of their own.
  return case_seed + 0x9E3779B97F4A7C15ULL * input;
}

namespace {

// A generated case holds every declared input, of its declared type.
CaseData generated_case(const BufferLab& lab, const CaseSize& size, std::uint64_t seed) {
  auto data = lab.generator()(size, seed);
  data.size = size;
  if (data.inputs.size() != lab.inputs().size()) {
    throw std::logic_error(fmt::format("the case generator of {} made {} inputs for {} declared",
                                       lab.name(), data.inputs.size(), lab.inputs().size()));
  }
  for (std::size_t i = 0; i < data.inputs.size(); ++i) {
    const auto& input = lab.inputs()[i];
    if (data.inputs[i].element() != input.element) {
      throw std::logic_error(fmt::format(
          "the case generator of {} made {} of {}s, declared {}s", lab.name(), input.name,
          element_word(data.inputs[i].element()), element_word(input.element)));
    }
  }
  return data;
}

}  // namespace

CaseData draw_case(const BufferLab& lab, const CaseSize& size, std::uint64_t seed) {
  if (lab.generator()) return generated_case(lab, size, seed);
  CaseData data;
  data.size = size;
  for (std::size_t i = 0; i < lab.inputs().size(); ++i) {
    const auto& input = lab.inputs()[i];
    if (input.element != Element::float32 || !input.shape) {
      throw std::logic_error(
          fmt::format("{}: the input {} is drawn by a case generator, and the lab declares none",
                      lab.name(), input.name));
    }
    const auto shape = input.shape(size);
    const auto stream = input_seed(seed, i);
    switch (input.fill) {
      case Fill::integers:
        data.inputs.push_back(random_integer_matrix(shape.rows, shape.cols, stream));
        break;
      case Fill::sparse_units:
        data.inputs.push_back(
            random_sparse_unit_matrix(shape.rows, shape.cols, stream, DeviceBuffer::kSparseOneIn));
        break;
      case Fill::reals:
        data.inputs.push_back(random_real_matrix(shape.rows, shape.cols, stream));
        break;
    }
  }
  return data;
}

}  // namespace harness
