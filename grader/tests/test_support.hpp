// Helpers for tests that run the labgrade binary: a scratch folder, files, and a shell runner.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace grader_test {

// Named after the test process too: builds side by side run these tests at the same time.
inline std::filesystem::path scratch(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() /
             ("labgrade-test-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline void write_file(const std::filesystem::path& file, const std::string& text,
                       bool executable = false) {
  std::ofstream(file) << text;
  if (executable) {
    std::filesystem::permissions(file, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add);
  }
}

struct Result {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

inline Result run_shell(const std::string& command) {
  Result result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe)) result.output += buffer.data();
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

inline const char* kSpec = R"({
  "lab": "lab1", "title": "Fake lab",
  "checks": [
    {"id": "Fake.Correctness", "kind": "correctness", "title": "fake check", "points": 10}
  ]})";

}  // namespace grader_test
