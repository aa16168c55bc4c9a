// `labcheck expect build-fail`'s decision: a known-wrong kernel that must not build
// (labN.must_fail.<kernel> for "// must-fail: build", cmake/AddLab.cmake).
#include <fmt/format.h>

#include "contract/exit_status.hpp"
#include "expectation.hpp"

namespace grader {

Judgement judge_build_failure(const std::string& target, int build_status,
                              const std::string& build_output,
                              const std::vector<std::string>& sentences) {
  namespace exit_status = contract::exit_status;
  if (build_status == 0) {
    return {{fmt::format("NOT CAUGHT: {} was built, but its build must fail", target)},
            exit_status::fail};
  }
  if (build_status < 0) {  // timed out, killed or not started: the build never said why it failed
    return {{fmt::format("NOT CAUGHT: {}'s build did not end by itself", target)},
            exit_status::fail};
  }
  Judgement judgement;
  for (const auto& sentence : sentences) {
    if (build_output.find(sentence) != std::string::npos) {
      judgement.lines.push_back(fmt::format("caught: the build says \"{}\", as it must", sentence));
    } else {
      judgement.lines.push_back(
          fmt::format("WRONG WORDS: the failed build does not say \"{}\"", sentence));
      judgement.status = exit_status::fail;
    }
  }
  return judgement;
}

}  // namespace grader
