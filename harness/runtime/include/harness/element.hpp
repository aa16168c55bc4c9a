// The element type of a lab's buffer, and host values that carry it. Every matrix lab's buffers
// hold float32; a lab may declare others (lab 11's CSR index arrays hold int32). A DeviceBuffer
// carries its type into allocation, fills, comparison, guards and the words of memory errors
// ("col_index holds 64 ints"), so an index array is never filled, poisoned or worded as floats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace harness {

enum class Element : unsigned char { float32, int32 };

constexpr std::size_t element_bytes(Element) { return 4; }

// The type as the contract's C++ spells it, for messages: "float", "int".
constexpr const char* element_word(Element element) {
  return element == Element::int32 ? "int" : "float";
}

template <class T>
constexpr Element element_of() {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, std::int32_t>,
                "a lab's buffers hold float or int32_t");
  return std::is_same_v<T, float> ? Element::float32 : Element::int32;
}

// A read-only view of host values of one element type (a vector of floats or of ints).
class HostView {
 public:
  HostView(const std::vector<float>& values)  // NOLINT: every float lab passes vectors
      : element_(Element::float32), data_(values.data()), size_(values.size()) {}
  HostView(const std::vector<std::int32_t>& values)  // NOLINT
      : element_(Element::int32), data_(values.data()), size_(values.size()) {}
  Element element() const { return element_; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * element_bytes(element_); }
  const void* data() const { return data_; }
  template <class T>
  const T* as() const {
    if (element_ != element_of<T>()) {
      throw std::logic_error(std::string("host values of ") + element_word(element_) + " read as " +
                             element_word(element_of<T>()));
    }
    return static_cast<const T*>(data_);
  }

 private:
  Element element_;
  const void* data_;
  std::size_t size_;
};

// One input of a case on the host: floats or ints, as the lab declares it.
class HostArray {
 public:
  HostArray() = default;
  HostArray(std::vector<float> values) : values_(std::move(values)) {}         // NOLINT
  HostArray(std::vector<std::int32_t> values) : values_(std::move(values)) {}  // NOLINT
  Element element() const { return values_.index() == 0 ? Element::float32 : Element::int32; }
  std::size_t size() const {
    return std::visit([](const auto& values) { return values.size(); }, values_);
  }
  // The values as their type; asking for another is the lab's mistake (std::logic_error).
  const std::vector<float>& floats() const { return get<float>(); }
  const std::vector<std::int32_t>& ints() const { return get<std::int32_t>(); }
  HostView view() const {
    return element() == Element::float32 ? HostView(floats()) : HostView(ints());
  }
  operator HostView() const { return view(); }  // NOLINT

 private:
  template <class T>
  const std::vector<T>& get() const {
    if (const auto* values = std::get_if<std::vector<T>>(&values_)) return *values;
    throw std::logic_error(std::string("an input of ") + element_word(element()) + " read as " +
                           element_word(element_of<T>()));
  }
  std::variant<std::vector<float>, std::vector<std::int32_t>> values_;
};

}  // namespace harness
