#include "contract/device_buffer_note.hpp"

#include <charconv>

#include <fmt/format.h>

namespace contract {
namespace {

constexpr std::string_view kPrefix = "device buffer ";
constexpr std::string_view kOf = " bytes of ";

}  // namespace

std::string device_buffer_note(const DeviceBufferPlace& place) {
  if (place.element != "float") {
    return fmt::format("{}{} at {:#x}, {}{}{}", kPrefix, place.name, place.address, place.bytes,
                       kOf, place.element);
  }
  return fmt::format("{}{} at {:#x}, {} bytes", kPrefix, place.name, place.address, place.bytes);
}

std::optional<DeviceBufferPlace> parse_device_buffer_note(std::string_view note) {
  if (!note.starts_with(kPrefix)) return std::nullopt;
  note.remove_prefix(kPrefix.size());
  std::string element = "float";
  if (const auto of = note.rfind(kOf); of != std::string_view::npos) {
    element = std::string(note.substr(of + kOf.size()));
    note = note.substr(0, of + std::string_view(" bytes").size());
  }
  const auto at = note.find(" at 0x");
  const auto comma = note.find(", ", at == std::string_view::npos ? 0 : at);
  if (at == std::string_view::npos || at == 0 || comma == std::string_view::npos ||
      !note.ends_with(" bytes")) {
    return std::nullopt;
  }
  DeviceBufferPlace place;
  place.name = std::string(note.substr(0, at));
  place.element = std::move(element);
  const auto hex = note.substr(at + 6, comma - at - 6);
  const auto count = note.substr(comma + 2, note.size() - comma - 2 - 6);
  const auto parsed_address =
      std::from_chars(hex.data(), hex.data() + hex.size(), place.address, 16);
  const auto parsed_bytes = std::from_chars(count.data(), count.data() + count.size(), place.bytes);
  if (parsed_address.ec != std::errc() || parsed_address.ptr != hex.data() + hex.size() ||
      parsed_bytes.ec != std::errc() || parsed_bytes.ptr != count.data() + count.size()) {
    return std::nullopt;
  }
  return place;
}

}  // namespace contract
