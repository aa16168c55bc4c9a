// A temporary class folder for one test, taken in by intake as labgrade batch takes it in.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "intake/intake.hpp"
#include "lms/class_match.hpp"

namespace lms::testing {

namespace fs = std::filesystem;

class ClassFolder {
 public:
  ClassFolder() {
    std::string pattern = (fs::temp_directory_path() / "lms-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    root_ = pattern;
    fs::create_directories(root_ / "class");
  }
  ClassFolder(const ClassFolder&) = delete;
  ClassFolder& operator=(const ClassFolder&) = delete;
  ~ClassFolder() {
    std::error_code ignored;
    fs::remove_all(root_, ignored);
  }

  // class/<relative> with `content`, folders made on the way.
  void write(const fs::path& relative, std::string_view content) const {
    const fs::path path = root_ / "class" / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary).write(content.data(), std::streamsize(content.size()));
  }

  std::vector<intake::Submission> collect() const {
    return intake::collect(root_ / "class", lab_, root_ / "unpacked");
  }

 private:
  fs::path root_;
  intake::LabRef lab_{"lab1", "lab1-matrix-copy", {"bonus.cu"}};
};

// A kernel whose text says whose and which it is.
inline std::string kernel(std::string_view who) {
  return "// " + std::string(who) + "\n__global__ void copy(const float* a, float* b) {}\n";
}

inline const intake::Submission* graded_named(const ClassMatch& match, std::string_view student) {
  const auto it = std::find_if(match.to_grade.begin(), match.to_grade.end(),
                               [&](const intake::Submission& s) { return s.student == student; });
  return it == match.to_grade.end() ? nullptr : &*it;
}

}  // namespace lms::testing
