// `labcheck expect build-fail`: the test of a known-wrong kernel whose build must fail (a call
// into a library the launcher does not link, "// must-fail: build", cmake/AddLab.cmake). Runs the
// build command given after `--` (cmake --build ... --target labN_<kernel>), shows its output,
// and passes only when it fails saying every --says sentence (build_expectation.cpp decides).
#pragma once

#include <string>
#include <vector>

namespace grader {

struct BuildFailureOptions {
  // A library the target links (the lab's entries table): without it the known-wrong kernels are
  // not built yet (make all_known_wrong), and the test is skipped rather than building them from
  // inside ctest.
  std::string prerequisite;
  std::vector<std::string> sentences;
  std::vector<std::string> command;  // the build
};

int expect_build_failure_command(const BuildFailureOptions& options);

}  // namespace grader
