#include "common/numbers.hpp"

namespace common {

std::string grouped(long long number) {
  // Through unsigned, so the most negative number keeps its digits.
  const unsigned long long magnitude = number < 0 ? 0ull - static_cast<unsigned long long>(number)
                                                  : static_cast<unsigned long long>(number);
  const std::string digits = std::to_string(magnitude);
  std::string text = number < 0 ? "-" : "";
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) text += ',';
    text += digits[i];
  }
  return text;
}

}  // namespace common
