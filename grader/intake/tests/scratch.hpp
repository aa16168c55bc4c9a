// A temporary class folder for one test, removed afterwards.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace intake::testing {

namespace fs = std::filesystem;

// scratch/class is the folder handed to collect(), scratch/unpacked the unpack root; anything
// found elsewhere under scratch/ afterwards was written where it must not be.
class Scratch {
 public:
  Scratch() {
    std::string pattern = (fs::temp_directory_path() / "intake-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    root_ = pattern;
    fs::create_directories(classroom());
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(root_, ignored);
  }

  const fs::path& root() const { return root_; }
  fs::path classroom() const { return root_ / "class"; }
  fs::path unpacked() const { return root_ / "unpacked"; }

  // Writes `content` to class/<relative>, making the folders on the way.
  fs::path write(const fs::path& relative, std::string_view content) const {
    const fs::path path = classroom() / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary).write(content.data(), std::streamsize(content.size()));
    return path;
  }

  fs::path folder(const fs::path& relative) const {
    fs::create_directories(classroom() / relative);
    return classroom() / relative;
  }

 private:
  fs::path root_;
};

inline constexpr std::string_view kKernel =
    "__global__ void matmul(const float* a, const float* b, float* c, int n) {}\n";

}  // namespace intake::testing
