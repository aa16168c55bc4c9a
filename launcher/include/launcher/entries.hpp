// The contract functions a launcher can be asked to run. Each lab's generated entries file
// (cmake/LabContract.cmake) lists them; arguments arrive as the bytes of each parameter in order,
// pointers as fake device addresses.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <tuple>
#include <type_traits>

namespace launcher {

struct Entry {
  const char* name;
  void (*function)();  // null: not defined by this submission (a bonus left out)
  bool (*call)(void (*function)(), const std::string& args);
};

template <class T>
struct Tag {
  using type = T;
};

// Decodes the arguments in order and calls the function; false when the bytes do not fit.
template <class... Args>
bool call_with(void (*generic)(), const std::string& args) {
  static_assert((std::is_trivially_copyable_v<std::decay_t<Args>> && ...));
  std::size_t offset = 0;
  bool fits = true;
  const auto take = [&](auto tag) {
    typename decltype(tag)::type value{};
    if (offset + sizeof(value) > args.size()) {
      fits = false;
      return value;
    }
    std::memcpy(&value, args.data() + offset, sizeof(value));
    offset += sizeof(value);
    return value;
  };
  // Braced initialisation evaluates the arguments left to right.
  std::tuple<std::decay_t<Args>...> values{take(Tag<std::decay_t<Args>>{})...};
  if (!fits || offset != args.size()) return false;
  std::apply(reinterpret_cast<void (*)(Args...)>(generic), values);
  return true;
}

template <class... Args>
Entry entry(const char* name, void (*function)(Args...)) {
  return Entry{name, reinterpret_cast<void (*)()>(function), &call_with<Args...>};
}

// Defined by the lab's generated entries file.
extern const Entry kEntries[];
extern const std::size_t kEntryCount;

}  // namespace launcher
