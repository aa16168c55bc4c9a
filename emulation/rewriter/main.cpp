// labs-cu-rewrite IN.cu OUT.cpp: the build step that lets the host compiler build CUDA sources
// for the emulator (see rewrite.hpp). Errors are printed as compilers print them, and the output
// is only replaced when its text changes, so an unchanged kernel is not recompiled.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "rewrite.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s INPUT.cu OUTPUT.cpp\n", argv[0]);
    return 2;
  }
  const std::filesystem::path input = std::filesystem::absolute(argv[1]).lexically_normal();
  std::ifstream in(input, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "%s: cannot read\n", input.c_str());
    return 1;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  const auto result = emu::rewriter::rewrite(buffer.str(), {input.string(), true});
  for (const auto& error : result.errors) std::fprintf(stderr, "%s\n", error.c_str());
  if (!result.errors.empty()) return 1;

  std::ifstream previous(argv[2], std::ios::binary);
  if (previous) {
    std::stringstream old;
    old << previous.rdbuf();
    if (old.str() == result.text) return 0;
  }
  std::filesystem::create_directories(std::filesystem::path(argv[2]).parent_path());
  std::ofstream out(argv[2], std::ios::binary | std::ios::trunc);
  out << result.text;
  return out ? 0 : 1;
}
