// A lab whose contract function maps input buffers to one output buffer of known shapes (copy,
// transpose, matrix-vector product, reduction, ...), described once as data: its buffers, the
// shapes they take from a case's size, how its inputs are drawn, its CPU reference and the call.
// The checks of harness/buffer_checks.hpp run any such lab: correctness on the spec's sizes,
// launch shape and shared memory, and speed as a share of a reference.
//
//   const auto lab = harness::BufferLab("transpose", "transpose(in, out, {rows}, {cols})")
//                        .input("in", harness::rows_by_cols)
//                        .output("out", harness::cols_by_rows)
//                        .call([](const harness::DeviceArgs& a) {
//                          transpose(a.in(0), a.output, a.rows(), a.cols());
//                        })
//                        .reference(cpu_transpose);
//
// Inputs whose values depend on each other (a sparse matrix in CSR: row_ptr, col_index, data and
// x) are made together by the lab's case generator (.generate), which also decides their sizes;
// their element types (int32 index arrays) are declared with .input(name, Element::int32).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/diagnose.hpp"  // ProductInputs
#include "harness/element.hpp"
#include "harness/speed.hpp"  // TimedWork

namespace harness {

// The size of one case as the spec writes it: a pair [rows, cols], or a single n (rows = n,
// cols = 1). Case labels and call texts are made from it.
struct CaseSize {
  long long rows = 1;
  long long cols = 1;
  bool pair = true;  // [rows, cols]; false: n
  long long n() const { return rows; }
  std::string label() const;  // "64x1024", or "n=1000"
};

// A buffer's shape for a case: rows x cols elements, row-major. cols also sizes its guard zones
// (DeviceBuffer::matrix: an overshoot of 64 rows lands in them).
struct BufferShape {
  long long rows = 1;
  long long cols = 1;
  long long count() const { return rows * cols; }
};
using ShapeOf = std::function<BufferShape(const CaseSize&)>;

// The shapes most labs need.
BufferShape rows_by_cols(const CaseSize& size);  // as the case: in and out of a copy
BufferShape cols_by_rows(const CaseSize& size);  // swapped: out of a transpose
BufferShape n_by_n(const CaseSize& size);        // the matrix of a matrix-vector product
BufferShape n_elements(const CaseSize& size);    // a vector of n (n x 1)
BufferShape one_element(const CaseSize& size);   // a single result (1 x 1): a reduction's sum

// How an input is drawn from a case's seed, on the host (random.hpp) or, for the large sizes of
// speed checks, on the GPU (DeviceBuffer::fill_random*): the same distribution either way.
enum class Fill {
  reals,     // uniform in [-1, 1), no zeros
  integers,  // nonzero integers in [-4, 4]: sums and products of them stay exact in float32
  // +1 or -1 at one element in 64, else 0: a sum of up to 2^30 of them stays exact in float32 in
  // any order (each sign's part at most 2^24), where integers' would not (lab 10's 2^28)
  sparse_units,
};
const char* fill_name(Fill fill);  // "reals", "integers" or "sparse units"

// One case's inputs on the host, in the order the lab declared them, each of its declared type.
struct CaseData {
  CaseSize size;
  std::vector<HostArray> inputs;
};

// What the output should be: exact when `tolerance` is empty, else element i passes when
// |got - values[i]| <= tolerance[i] (a per-element bound: for a sum, one fit for any order of
// the additions). NaN and Inf never pass.
struct Expected {
  std::vector<float> values;
  std::vector<float> tolerance;
};
using CpuReference = std::function<Expected(const CaseData& data)>;

// The lab's buffers on the device for one call: the inputs (in declared order) and the output.
struct DeviceArgs {
  std::vector<const void*> inputs;
  std::vector<Element> elements;  // of each input
  float* output = nullptr;
  CaseSize size;
  // Input i as its declared type: a.in(0) for a float input, a.in<int>(1) for an index array.
  template <class T = float>
  const T* in(std::size_t i) const {
    if (elements.at(i) != element_of<T>()) {
      throw std::logic_error(std::string("input ") + std::to_string(i) + " holds " +
                             element_word(elements.at(i)) + "s, not " +
                             element_word(element_of<T>()) + "s");
    }
    return static_cast<const T*>(inputs.at(i));
  }
  int rows() const { return static_cast<int>(size.rows); }
  int cols() const { return static_cast<int>(size.cols); }
  int n() const { return static_cast<int>(size.rows); }
};
// The student's contract function called on the device buffers (the harness synchronizes after).
using Call = std::function<void(const DeviceArgs& args)>;

// The expected output made on the GPU, for sizes where the CPU reference would be too slow (the
// speed checks' large sizes): writes into `expected` (the output's size) from `args.inputs`, and,
// for a lab compared within a tolerance, each element's bound into `tolerance` (same size).
// Returns true when it wrote a tolerance (false: exact). args.output is the expected buffer.
using DeviceReference =
    std::function<bool(const DeviceArgs& args, float* expected, float* tolerance)>;

// A lab's own rule for a failed case (checked before the harness's general ones): the mistake
// that turns `expected` into `got` for this lab's inputs, or nothing.
using LabDiagnosis = std::function<std::optional<Diagnosis>(
    const CaseData& data, const Expected& expected, const std::vector<float>& got)>;

// A case's inputs made together from `seed` at `size`: every declared input, of its declared type
// and in order; their lengths are the data's own. The same size must give the same lengths at
// every seed (a speed check draws new inputs for each round into the same buffers).
using CaseGenerator = std::function<CaseData(const CaseSize& size, std::uint64_t seed)>;

struct BufferSpec {
  std::string name;         // as the contract names it: messages say "wrote outside out"
  ShapeOf shape;            // empty for a generated input: its length is the data's
  Fill fill = Fill::reals;  // inputs only
  Element element = Element::float32;
};

class BufferLab {
 public:
  // `name` is the contract function ("transpose": the timing table's name for it). `call_text`
  // is the call as the handout writes it, for messages, with {rows}, {cols} and {n} replaced by
  // the case's size: "transpose(in, out, {rows}, {cols})".
  BufferLab(std::string name, std::string call_text);

  // Declared in the order the contract takes them; the output is always one buffer.
  BufferLab& input(std::string name, ShapeOf shape, Fill fill = Fill::reals);
  // An input of a lab with a case generator: its type; its length comes from the data.
  BufferLab& input(std::string name, Element element);
  BufferLab& output(std::string name, ShapeOf shape);
  BufferLab& call(Call call);
  BufferLab& reference(CpuReference reference);
  // Optional: the large expected outputs on the GPU (else: the inputs copied back, the CPU
  // reference, the result uploaded).
  BufferLab& device_reference(DeviceReference reference);
  // Optional: the case's inputs made together (declare each with .input(name, element)).
  BufferLab& generate(CaseGenerator generator);
  // Optional: the lab's own diagnosis of a failed case, tried before the harness's.
  BufferLab& diagnose(LabDiagnosis rule);
  // Optional: case labels other than CaseSize::label() (seeds are drawn from the label).
  BufferLab& label(std::function<std::string(const CaseSize&)> label);
  // Optional: the largest n or dimension the spec may give (the contract's int arithmetic).
  BufferLab& max_dimension(int largest);
  // Optional: for a product (matrix-vector), its operands, so a wrong output is diagnosed as the
  // product's classic mistakes (transposed operand, ...) in the contract's letters.
  BufferLab& product(std::function<std::optional<ProductInputs>(const CaseData&)> operands);

  // The same lab with every input drawn as `fill` (integers for exact checks, reals for the
  // tolerance). Labels are unchanged: a lab that runs both at one size labels them itself.
  BufferLab with_fill(Fill fill) const;

  const std::string& name() const { return name_; }
  // True when the call text names {n}: the spec's sizes are then [n] ("dimensions": ["n"]);
  // otherwise [rows, cols].
  bool sized_by_n() const;
  std::string call_text(const CaseSize& size) const;
  std::string case_label(const CaseSize& size) const;
  const std::vector<BufferSpec>& inputs() const { return inputs_; }
  const BufferSpec& output() const { return output_; }
  int max_dimension() const { return max_dimension_; }
  // The contract function called on device buffers.
  void run(const DeviceArgs& args) const;
  Expected expected(const CaseData& data) const;
  const DeviceReference& device_reference() const { return device_reference_; }
  std::optional<ProductInputs> product_inputs(const CaseData& data) const;
  const CaseGenerator& generator() const { return generator_; }
  std::optional<Diagnosis> lab_diagnosis(const CaseData& data, const Expected& expected,
                                         const std::vector<float>& got) const;
  // Input i's shape in a case: as declared, or (generated) the data's length as one column.
  BufferShape input_shape(std::size_t i, const CaseData& data) const;

 private:
  std::string name_;
  std::string call_text_;
  std::vector<BufferSpec> inputs_;
  BufferSpec output_;
  Call call_;
  CpuReference reference_;
  DeviceReference device_reference_;
  std::function<std::string(const CaseSize&)> label_;
  std::function<std::optional<ProductInputs>(const CaseData&)> product_;
  CaseGenerator generator_;
  LabDiagnosis diagnosis_;
  int max_dimension_ = 1 << 30;
};

// The check's "sizes": [[rows, cols], ...], or [[n], ...] for a lab whose call names {n} (the
// spec's "dimensions" must say which). Each dimension from 1 to lab.max_dimension().
std::vector<CaseSize> case_sizes(const CheckSpec& spec, const BufferLab& lab);
// The one size of a structure or speed check.
CaseSize one_case_size(const CheckSpec& spec, const BufferLab& lab);

// The seed of a case's input `index`: the first takes the case's seed itself, the others a
// stream of their own (the same on the host and for DeviceBuffer::fill_random*).
std::uint64_t input_seed(std::uint64_t case_seed, std::size_t index);

// A case's inputs drawn from `seed` as the lab declares them: by its case generator, or each
// buffer on its own stream as its fill says.
CaseData draw_case(const BufferLab& lab, const CaseSize& size, std::uint64_t seed);

}  // namespace harness
