// labspec: the spec reader of contract/ (spec.hpp, spec_schema.hpp) as a small program, built
// when CMake configures (cmake/SpecTool.cmake), so that add_lab learns a lab's checks from the
// same parser, table and defaults as labcheck and labgrade instead of parsing JSON itself.
//
//   labspec cmake SPEC OUT [--emulation]  write OUT, a CMake file: the checks' ids, kinds,
//                                         time limits (whole seconds) and bonus ids
//   labspec check SPEC...                 load each spec; exit 2 at the first error
//   labspec keys                          print the table of keys (docs/spec.md)
//
// A spec error is one line on stderr, "<file>: <check>: <field> ...", and exit status 2.
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "contract/spec.hpp"
#include "contract/spec_schema.hpp"

namespace {

// A CMake list of `values`, quoted.
std::string cmake_list(const std::vector<std::string>& values) {
  std::string out = "\"";
  for (const auto& value : values) out += (out.size() > 1 ? ";" : "") + value;
  return out + "\"";
}

int write_cmake(const std::string& spec_file, const std::string& out_file, bool emulation) {
  auto spec = contract::load_spec(spec_file);
  if (emulation) contract::apply_overrides(spec, "emulation");
  std::vector<std::string> ids, kinds, timeouts, bonus;
  for (const auto& check : spec.checks) {
    ids.push_back(check.id);
    kinds.push_back(check.kind);
    timeouts.push_back(std::to_string(static_cast<long long>(std::ceil(check.timeout_s))));
    if (check.bonus) bonus.push_back(check.id);
  }
  std::ofstream out(out_file);
  out << "# Written by labspec from " << spec_file << "; do not edit.\n"
      << "set(LAB_SPEC_IDS " << cmake_list(ids) << ")\n"
      << "set(LAB_SPEC_KINDS " << cmake_list(kinds) << ")\n"
      << "set(LAB_SPEC_TIMEOUTS " << cmake_list(timeouts) << ")\n"
      << "set(LAB_SPEC_BONUS_IDS " << cmake_list(bonus) << ")\n";
  if (!out.flush()) {
    std::cerr << "labspec: cannot write " << out_file << "\n";
    return 2;
  }
  return 0;
}

int usage() {
  std::cerr << "usage: labspec cmake SPEC OUT [--emulation] | labspec check SPEC... | "
               "labspec keys\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.size() == 1 && args[0] == "keys") {
      std::cout << contract::spec_keys_markdown();
      return 0;
    }
    if (args.size() >= 2 && args[0] == "check") {
      for (std::size_t i = 1; i < args.size(); ++i) contract::load_spec(args[i]);
      return 0;
    }
    if ((args.size() == 3 || args.size() == 4) && args[0] == "cmake") {
      const bool emulation = args.size() == 4 && args[3] == "--emulation";
      if (args.size() == 4 && !emulation) return usage();
      return write_cmake(args[1], args[2], emulation);
    }
  } catch (const std::exception& error) {
    std::cerr << error.what() << "\n";
    return 2;
  }
  return usage();
}
