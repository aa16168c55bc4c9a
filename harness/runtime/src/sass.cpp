#include "harness/sass.hpp"

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <memory>

namespace harness {
std::string demangle(const std::string& name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && text ? std::string(text.get()) : name;
}

namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

// Each line of a string, without its newline.
template <class F>
void for_each_line(std::string_view text, F&& f) {
  while (!text.empty()) {
    const auto end = text.find('\n');
    f(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
}

}  // namespace

std::map<std::string, std::string> split_sass_functions(std::string_view cuobjdump_output) {
  std::map<std::string, std::string> functions;
  std::string* current = nullptr;
  constexpr std::string_view kMarker = "Function : ";
  for_each_line(cuobjdump_output, [&](std::string_view line) {
    if (const auto at = line.find(kMarker); at != std::string_view::npos) {
      current = &functions[demangle(std::string(trim(line.substr(at + kMarker.size()))))];
    } else if (line.find("code for sm_") != std::string_view::npos ||
               line.find("Fatbin") != std::string_view::npos) {
      current = nullptr;  // the next object's header: not part of the last function
    } else if (current) {
      current->append(line).push_back('\n');
    }
  });
  return functions;
}

bool sass_uses_tensor_cores(std::string_view sass) {
  bool found = false;
  for_each_line(sass, [&](std::string_view line) {
    // "        /*0090*/  @!P0 HMMA.16816.F32.TF32 R4, R8, R12, R4 ;  /* 0x... */"
    const auto comment = line.find("*/");
    if (found || comment == std::string_view::npos) return;
    std::string_view rest = trim(line.substr(comment + 2));
    if (!rest.empty() && rest.front() == '@') {  // a predicate: @P0, @!UP1, ...
      const auto space = rest.find(' ');
      rest = space == std::string_view::npos ? std::string_view() : trim(rest.substr(space));
    }
    std::size_t end = 0;
    while (end < rest.size() && (std::isupper(static_cast<unsigned char>(rest[end])) ||
                                 std::isdigit(static_cast<unsigned char>(rest[end])))) {
      ++end;
    }
    const std::string_view opcode = rest.substr(0, end);
    found = opcode.size() >= 4 && opcode.substr(opcode.size() - 3) == "MMA";
  });
  return found;
}

}  // namespace harness
