#include "placeholders.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace reports::detail {

std::string fill_placeholders(std::string_view text, const PlaceholderValues& values) {
  constexpr std::string_view open = "{{";
  constexpr std::string_view close = "}}";
  std::string out;
  out.reserve(text.size());
  std::size_t position = 0;
  while (true) {
    const auto start = text.find(open, position);
    if (start == std::string_view::npos) break;
    const auto end = text.find(close, start + open.size());
    if (end == std::string_view::npos) break;
    const auto name = text.substr(start + open.size(), end - start - open.size());
    const auto value = values.find(name);
    if (value == values.end()) {
      throw std::invalid_argument(
          fmt::format("report template: no value for placeholder {{{{{}}}}}", name));
    }
    out.append(text.substr(position, start - position));
    out.append(value->second);
    position = end + close.size();
  }
  out.append(text.substr(position));
  return out;
}

}  // namespace reports::detail
